/**
 * The design-review report as Markdown that renders on GitHub (diagrams as Mermaid blocks).
 * Pure: a `ReportInput` in, text out. Every user-supplied string is escaped.
 */

import type { TraceStep } from '../checker/outcome.ts';
import { count } from '../numbers.ts';
import { changeText } from './changeText.ts';
import { deploymentMarkdown } from './deploymentSection.ts';
import { escapeHtml, escapeMarkdownCell, escapeMarkdownText } from './escape.ts';
import {
  barriersOf,
  coverageFor,
  coverageIntro,
  defenceNote,
  expectedText,
  findingHeadline,
  type LivenessLasso,
  leadsToText,
  livenessIntro,
  livenessLassos,
  livenessStatesText,
  loopText,
  offCount,
  offGroups,
  offHeading,
  orderRelations,
  propertyText,
  type ReportInput,
  scenarioParameters,
  settingsText,
  statusAcross,
  structuralText,
  violatedText,
} from './reportModel.ts';

const mark = { holds: '✓ holds', violated: '✗ violated', unknown: '? unknown' } as const;

/** A run's verdict as the tables mark it. */
const verdictMark = { ok: '✓ ok', violation: '✗ violation', incomplete: '? incomplete' } as const;

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function tableOf(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
}

const cell = escapeMarkdownCell;

function verdicts(input: ReportInput): string {
  const rows = input.results.map((r) => [
    cell(r.scenario),
    cell(r.variant),
    verdictMark[r.status],
    cell(violatedText(r)),
    cell(expectedText(r)),
    count(r.stats.states),
    count(r.stats.transitions),
    String(r.stats.depth),
  ]);
  return tableOf(
    ['scenario', 'variant', 'verdict', 'violated', 'expected', 'states', 'transitions', 'depth'],
    rows,
  );
}

/** The findings: each violated property in a few steps, what blocks it, the path check. */
function findings(input: ReportInput): string {
  const items = input.findings.map((f) => {
    const link = `#cex-${f.counterexample}`;
    const steps = f.keySteps.map(
      (s) =>
        `   - [step ${s.step}](${link}) ${escapeMarkdownText(`${s.event} ${s.rid}: ${s.text}`)}`,
    );
    const replays = f.replays.map((r) => `   - ${escapeMarkdownText(r.text)}`);
    return [
      `- **${escapeMarkdownText(findingHeadline(f))}** ([trace](${link})): ${escapeMarkdownText(f.statement)}`,
      ...steps,
      ...(replays.length > 0
        ? ['', '   The same trace under the other variants:', '', ...replays]
        : []),
    ].join('\n');
  });
  const paths = input.structural.map((s) => `- ${escapeMarkdownText(structuralText(s))}`);
  return [
    items.length > 0 ? items.join('\n') : 'No property is violated in any run.',
    'The structural path check, which holds for every prompt length (data guards left open, switches evaluated):',
    paths.join('\n'),
  ].join('\n\n');
}

function scenarios(input: ReportInput): string {
  return input.scenarios
    .map((s) => {
      const params = tableOf(
        ['parameter', 'value'],
        scenarioParameters(s).map(([k, v]) => [k, cell(v)]),
      );
      const requests = tableOf(
        ['request', 'tenant', 'prompt', 'output', 'against the limits'],
        s.requests.map((r) => [
          cell(r.id),
          cell(r.tenant),
          String(r.promptLen),
          String(r.outputLen),
          cell(orderRelations(s, r.promptLen).join('; ')),
        ]),
      );
      return `### ${escapeHtml(s.name)}\n\n${escapeMarkdownText(s.description)}\n\n${params}\n\n${requests}`;
    })
    .join('\n\n');
}

function diagrams(input: ReportInput): string {
  return input.diagrams
    .map(
      (d) =>
        `### ${escapeHtml(d.title)}\n\n${escapeHtml(d.caption)}\n\n\`\`\`mermaid\n${d.mermaid.trim()}\n\`\`\``,
    )
    .join('\n\n');
}

function propertyTable(input: ReportInput): string {
  const names = input.results[0]?.properties.map((p) => p.name) ?? [];
  const rows = names.map((name) => {
    const { statement, guards } = propertyText(name);
    const cells = input.variants.map((v) => {
      const s = statusAcross(input.results, name, v.name);
      if (s.status === 'violated') return `✗ (${s.scenarios.map(cell).join(', ')})`;
      return s.vacuity === undefined ? mark[s.status] : `✓ holds (vacuous: ${cell(s.vacuity)})`;
    });
    return [`\`${name}\``, cell(statement), cell(guards), ...cells];
  });
  return tableOf(
    ['property', 'statement', 'guards', ...input.variants.map((v) => cell(v.name))],
    rows,
  );
}

function barrierMatrix(input: ReportInput): string {
  const names = input.results[0]?.properties.map((p) => p.name) ?? [];
  const header = [
    'property',
    ...input.variants.map((v) => `${cell(v.name)} (${cell(barriersOf(v))})`),
    'reading',
  ];
  const rows = names.map((name) => [
    `\`${name}\``,
    ...input.variants.map((v) => {
      const s = statusAcross(input.results, name, v.name);
      return s.vacuity === undefined ? (mark[s.status].split(' ')[0] ?? '') : '✓ vacuous';
    }),
    cell(defenceNote(input.results, input.variants, name)),
  ]);
  return tableOf(header, rows);
}

/** A trace's steps as a table; with `loop`, step `loop + 1` is marked as where the cycle starts. */
function stepsTable(steps: readonly TraceStep[], loop?: number): string {
  return tableOf(
    ['step', 'actor', 'event', 'what changed'],
    steps.map((s, i) => [
      String(s.step),
      cell(s.actor),
      `${s.event} ${cell(s.rid)}${i === loop ? ' **← cycle starts**' : ''}`,
      s.changes.map((c) => cell(changeText(c))).join('<br>'),
    ]),
  );
}

function counterexamples(input: ReportInput): string {
  if (input.counterexamples.length === 0) return 'No property is violated in any run.';
  return input.counterexamples
    .map((c, i) =>
      [
        `<a id="cex-${i}"></a>\n\n### \`${c.property}\` in ${escapeHtml(c.scenario)} × ${escapeHtml(c.variant)} (${c.trace.steps.length} steps)`,
        `${escapeHtml(c.statement)}\n\n**Violated:** ${escapeHtml(c.trace.message)}`,
        stepsTable(c.trace.steps),
        `\`\`\`mermaid\n${c.mermaid.trim()}\n\`\`\``,
        `Reproduce: \`${escapeHtml(c.reproduce)}\``,
      ].join('\n\n'),
    )
    .join('\n\n');
}

/** One lasso: what it violates, its steps with the cycle's start marked, and where it returns. */
function lassoMarkdown(l: LivenessLasso): string {
  const { lasso } = l;
  return [
    `### \`${l.property}\` in ${escapeHtml(l.scenario)} × ${escapeHtml(l.variant)} (${lasso.steps.length} steps, loop ${lasso.loop})`,
    `${escapeHtml(l.statement)}\n\n**Violated:** ${escapeHtml(lasso.message)}`,
    stepsTable(lasso.steps, lasso.loop),
    `↺ ${escapeHtml(loopText(lasso))}`,
  ].join('\n\n');
}

function liveness(input: ReportInput): string {
  const { liveness: section } = input;
  const statements = section.properties.map((p) => `- \`${p.name}\`: ${escapeHtml(p.statement)}`);
  const verdicts = tableOf(
    ['scenario', 'variant', 'verdict', 'states', ...section.properties.map((p) => `\`${p.name}\``)],
    section.rows.map((r) => [
      cell(r.scenario),
      cell(r.variant),
      verdictMark[r.status],
      cell(livenessStatesText(r)),
      ...r.cells.map((c) => cell(leadsToText(c))),
    ]),
  );
  return [
    escapeHtml(livenessIntro(section)),
    statements.join('\n'),
    verdicts,
    ...livenessLassos(section).map(lassoMarkdown),
  ].join('\n\n');
}

function coverage(input: ReportInput): string {
  return input.variants
    .map((v) => {
      const rows = coverageFor(input, v.name).map((c) => [
        c.region,
        `${c.states.visited} / ${c.states.total}`,
        `${c.transitions.taken} / ${c.transitions.total}`,
        cell([...c.states.missed, ...c.transitions.missed].join('; ') || '—'),
        offCount(c),
      ]);
      const table = tableOf(
        [
          'region',
          'states visited',
          'transitions taken',
          'never visited (findings)',
          'mechanism off',
        ],
        rows,
      );
      const off = offGroups(input, v.name).map(
        (g) => `- ${escapeMarkdownText(g.mechanism)}: ${escapeMarkdownText(g.items.join('; '))}`,
      );
      const offList = off.length > 0 ? `\n\n${offHeading}:\n\n${off.join('\n')}` : '';
      return `### under ${escapeHtml(v.name)}\n\n${table}${offList}`;
    })
    .join('\n\n');
}

function witnesses(input: ReportInput): string {
  const names = input.results[0]?.witnesses.map((w) => w.name) ?? [];
  const rows = input.results.map((r) => [
    cell(r.scenario),
    cell(r.variant),
    ...names.map((n) => {
      const w = r.witnesses.find((x) => x.name === n);
      const reached = w?.reached ? 'reached' : 'not reached';
      return w?.required ? `${reached} (required)` : reached;
    }),
  ]);
  return tableOf(['scenario', 'variant', ...names.map((n) => `\`${n}\``)], rows);
}

/** The whole report as Markdown. */
export function reportMarkdown(input: ReportInput): string {
  return `${[
    '# kvcheck design review',
    'Tenant isolation in disaggregated prefill/decode serving: every built-in or given scenario explored exhaustively under each engine variant.',
    `## Findings\n\n${findings(input)}`,
    `## Barrier matrix\n\nWhich variant stops which failure: ✓ holds in every scenario, ✓ vacuous holds only because nothing could fail it, ✗ violated in at least one.\n\n${barrierMatrix(input)}`,
    `## Verdicts\n\n${verdicts(input)}`,
    ...(input.deployment ? [`## Deployment\n\n${deploymentMarkdown(input.deployment)}`] : []),
    `## Scenarios\n\n${scenarios(input)}`,
    `## Properties\n\n${propertyTable(input)}`,
    `## Counterexamples\n\n${counterexamples(input)}`,
    `## Liveness\n\n${liveness(input)}`,
    `## Statecharts\n\n${diagrams(input)}`,
    `## Coverage\n\n${escapeMarkdownText(coverageIntro)}\n\n${coverage(input)}`,
    `## Witnesses\n\n${witnesses(input)}`,
    `---\n\nkvcheck ${escapeHtml(input.version)} · \`${escapeHtml(input.command)}\` · ${settingsText(input.settings)}`,
  ].join('\n\n')}\n`;
}
