/**
 * The design-review report as one self-contained HTML file: inline CSS and inline SVG, no
 * script, no font or image from anywhere, readable offline and printable. Pure: a `ReportInput`
 * in, text out. Every user-supplied string is escaped.
 */

import type { TraceChange, TraceStep } from '../checker/outcome.ts';
import { count } from '../numbers.ts';
import { changeText } from './changeText.ts';
import { chartFigureCss, chartFigureHtml } from './chartFigure.ts';
import { deploymentHtml } from './deploymentSection.ts';
import { escapeHtml as h } from './escape.ts';
import { reportCss } from './reportCss.ts';
import {
  barriersOf,
  coverageFor,
  coverageIntro,
  defenceNote,
  expectedText,
  findingHeadline,
  type LeadsToCell,
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

type Cell = string | { readonly html: string; readonly cls?: string };

function td(c: Cell): string {
  if (typeof c === 'string') return `<td>${h(c)}</td>`;
  return `<td${c.cls ? ` class="${c.cls}"` : ''}>${c.html}</td>`;
}

/**
 * A table in its scroll container: on a narrow screen a wide table keeps its columns and
 * scrolls sideways inside the container, never the page (print lets it wrap instead).
 */
function scrollTable(tableHtml: string): string {
  return `<div class="table-scroll">${tableHtml}</div>`;
}

function table(header: readonly string[], rows: readonly (readonly Cell[])[], cls = ''): string {
  const head = header.map((x) => `<th>${h(x)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map(td).join('')}</tr>`).join('\n');
  return scrollTable(
    `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`,
  );
}

function badge(status: string, text = status): Cell {
  return { html: `<span class="badge ${h(status)}">${h(text)}</span>` };
}

/** An SVG document made fit for inlining: XML prolog and doctype removed. */
export function inlineSvg(svg: string): string {
  return svg
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<!DOCTYPE[^>]*>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}">\n<h2>${h(title)}</h2>\n${body}\n</section>`;
}

function verdicts(input: ReportInput): string {
  return table(
    ['scenario', 'variant', 'verdict', 'violated', 'expected', 'states', 'transitions', 'depth'],
    input.results.map((r) => [
      r.scenario,
      r.variant,
      badge(r.status),
      violatedText(r),
      expectedText(r),
      { html: count(r.stats.states), cls: 'num' },
      { html: count(r.stats.transitions), cls: 'num' },
      { html: String(r.stats.depth), cls: 'num' },
    ]),
  );
}

function scenarios(input: ReportInput): string {
  return input.scenarios
    .map((s) => {
      const params = table(['parameter', 'value'], scenarioParameters(s));
      const requests = table(
        ['request', 'tenant', 'prompt', 'output', 'against the limits'],
        s.requests.map((r) => [
          r.id,
          r.tenant,
          { html: String(r.promptLen), cls: 'num' },
          { html: String(r.outputLen), cls: 'num' },
          { html: orderRelations(s, r.promptLen).map(h).join('<br>') },
        ]),
      );
      return `<h3>${h(s.name)}</h3>\n<p>${h(s.description)}</p>\n<div class="pair">${params}${requests}</div>`;
    })
    .join('\n');
}

function diagrams(input: ReportInput): string {
  return input.diagrams.map((d, i) => chartFigureHtml(d, `chart-${i}`)).join('\n');
}

function propertyTable(input: ReportInput): string {
  const names = input.results[0]?.properties.map((p) => p.name) ?? [];
  return table(
    ['property', 'statement', 'guards', ...input.variants.map((v) => v.name)],
    names.map((name) => {
      const { statement, guards } = propertyText(name);
      return [
        { html: `<code>${h(name)}</code>` },
        statement,
        { html: h(guards), cls: 'small' },
        ...input.variants.map((v) => {
          const s = statusAcross(input.results, name, v.name);
          if (s.status === 'violated') {
            return badge('violated', `violated: ${s.scenarios.join(', ')}`);
          }
          return s.vacuity === undefined
            ? badge(s.status)
            : badge('unknown', `holds (vacuous: ${s.vacuity})`);
        }),
      ];
    }),
    'properties',
  );
}

function barrierMatrix(input: ReportInput): string {
  const names = input.results[0]?.properties.map((p) => p.name) ?? [];
  const symbol = { holds: '✓', violated: '✗', unknown: '?' } as const;
  const header = `<tr><th>property</th>${input.variants
    .map((v) => `<th>${h(v.name)}<div class="small">${h(barriersOf(v))}</div></th>`)
    .join('')}<th>reading</th></tr>`;
  const rows = names
    .map((name) => {
      const cells = input.variants
        .map((v) => {
          const { status: s, vacuity } = statusAcross(input.results, name, v.name);
          return vacuity === undefined
            ? `<td class="cell ${s}">${symbol[s]}</td>`
            : `<td class="cell unknown" title="${h(`vacuous: ${vacuity}`)}">✓ <span class="small">vacuous</span></td>`;
        })
        .join('');
      const note = h(defenceNote(input.results, input.variants, name));
      return `<tr><td><code>${h(name)}</code></td>${cells}<td class="small">${note}</td></tr>`;
    })
    .join('\n');
  return scrollTable(
    `<table class="matrix"><thead>${header}</thead><tbody>\n${rows}\n</tbody></table>`,
  );
}

/** A change's sentence, escaped; a foreign read (the leak) stands out. */
function changeHtml(c: TraceChange): string {
  const text = h(changeText(c));
  return c.kind === 'slotRead' && c.foreign ? `<span class="foreign">${text}</span>` : text;
}

/** A trace's steps as a table; with `loop`, step `loop + 1` is marked as where the cycle starts. */
function stepsTable(steps: readonly TraceStep[], loop?: number): string {
  return table(
    ['step', 'actor', 'event', 'what changed'],
    steps.map((s, i) => [
      { html: String(s.step), cls: 'num' },
      s.actor,
      {
        html: `<code>${h(s.event)}</code> ${h(s.rid)}${i === loop ? ' <strong>← cycle starts</strong>' : ''}`,
      },
      {
        html: s.changes.map(changeHtml).join('<br>'),
        cls: 'small',
      },
    ]),
    'steps',
  );
}

function counterexamples(input: ReportInput): string {
  if (input.counterexamples.length === 0) return '<p>No property is violated in any run.</p>';
  return input.counterexamples
    .map((c, i) => {
      return `<article class="cex" id="cex-${i}">
<h3><code>${h(c.property)}</code> in ${h(c.scenario)} × ${h(c.variant)} <span class="small">(${c.trace.steps.length} steps)</span></h3>
<p>${h(c.statement)}</p>
<p class="violated-msg"><strong>Violated:</strong> ${h(c.trace.message)}</p>
<figure class="diagram sequence">${inlineSvg(c.svg)}</figure>
${stepsTable(c.trace.steps)}
<p class="small">Reproduce: <code>${h(c.reproduce)}</code></p>
</article>`;
    })
    .join('\n');
}

function leadsToCell(cell: LeadsToCell): Cell {
  return badge(cell.verdict, leadsToText(cell));
}

/** One lasso: what it violates, its steps with the cycle's start marked, and where it returns. */
function lassoHtml(l: LivenessLasso): string {
  const { lasso } = l;
  return `<article class="cex">
<h3><code>${h(l.property)}</code> in ${h(l.scenario)} × ${h(l.variant)} <span class="small">(${lasso.steps.length} steps, loop ${lasso.loop})</span></h3>
<p>${h(l.statement)}</p>
<p class="violated-msg"><strong>Violated:</strong> ${h(lasso.message)}</p>
${stepsTable(lasso.steps, lasso.loop)}
<p>↺ ${h(loopText(lasso))}</p>
</article>`;
}

function liveness(input: ReportInput): string {
  const { liveness: section } = input;
  const verdicts = table(
    ['scenario', 'variant', 'verdict', 'states', ...section.properties.map((p) => p.name)],
    section.rows.map((r) => [
      r.scenario,
      r.variant,
      badge(r.status),
      { html: h(livenessStatesText(r)), cls: r.status === 'incomplete' ? 'small' : 'num' },
      ...r.cells.map(leadsToCell),
    ]),
  );
  const statements = section.properties
    .map((p) => `<li><code>${h(p.name)}</code>: ${h(p.statement)}</li>`)
    .join('\n');
  const lassos = livenessLassos(section).map(lassoHtml).join('\n');
  return `<p>${h(livenessIntro(section))}</p>\n<ul>\n${statements}\n</ul>\n${verdicts}${lassos ? `\n${lassos}` : ''}`;
}

function coverage(input: ReportInput): string {
  const perVariant = input.variants.map((v) => {
    const rows = coverageFor(input, v.name).map((c) => [
      c.region,
      { html: `${c.states.visited} / ${c.states.total}`, cls: 'num' },
      { html: `${c.transitions.taken} / ${c.transitions.total}`, cls: 'num' },
      {
        html: [...c.states.missed, ...c.transitions.missed].map(h).join('<br>') || '—',
        cls: 'small',
      },
      { html: h(offCount(c)), cls: 'small' },
    ]);
    const header = ['region', 'states visited', 'transitions taken', 'never visited (findings)'];
    const off = offGroups(input, v.name)
      .map(
        (g) =>
          `<li>${h(g.mechanism)}: <span class="small">${g.items.map(h).join('; ')}</span></li>`,
      )
      .join('\n');
    const offList = off
      ? `\n<p><strong>${h(offHeading)}:</strong></p>\n<ul class="off">\n${off}\n</ul>`
      : '';
    return `<h3>under ${h(v.name)}</h3>\n${table([...header, 'mechanism off'], rows)}${offList}`;
  });
  return `<p>${h(coverageIntro)}</p>\n${perVariant.join('\n')}`;
}

function witnesses(input: ReportInput): string {
  const names = input.results[0]?.witnesses.map((w) => w.name) ?? [];
  return table(
    ['scenario', 'variant', ...names],
    input.results.map((r) => [
      r.scenario,
      r.variant,
      ...names.map((n) => {
        const w = r.witnesses.find((x) => x.name === n);
        const text = `${w?.reached ? 'reached' : 'not reached'}${w?.required ? ' (required)' : ''}`;
        return badge(w?.reached ? 'holds' : w?.required ? 'violated' : 'unknown', text);
      }),
    ]),
  );
}

/** The findings box: each violated property in a few steps, what blocks it, the path check. */
function findings(input: ReportInput): string {
  const items = input.findings.map((f) => {
    const steps = f.keySteps
      .map(
        (s) =>
          `<li><a href="#cex-${f.counterexample}">step ${s.step}</a> ${h(s.event)} ${h(s.rid)}: ${h(s.text)}</li>`,
      )
      .join('');
    const replays = f.replays.map((r) => `<li>${h(r.text)}</li>`).join('');
    return `<li><p><strong>${h(findingHeadline(f))}</strong> (<a href="#cex-${f.counterexample}">trace</a>): ${h(f.statement)}</p>
${steps ? `<ol class="steps">${steps}</ol>` : ''}
${replays ? `<p>The same trace under the other variants:</p><ul>${replays}</ul>` : ''}</li>`;
  });
  const none = '<p>No property is violated in any run.</p>';
  const paths = input.structural.map((s) => `<li>${h(structuralText(s))}</li>`).join('');
  return `<div class="findings">${items.length > 0 ? `<ul>${items.join('\n')}</ul>` : none}
<p>The structural path check, which holds for every prompt length (data guards left open, switches evaluated):</p><ul>${paths}</ul></div>`;
}

const sections: readonly [string, string, (input: ReportInput) => string][] = [
  ['findings', 'Findings', findings],
  ['barriers', 'Barrier matrix', barrierMatrix],
  ['verdicts', 'Verdicts', verdicts],
  ['scenarios', 'Scenarios', scenarios],
  ['properties', 'Properties', propertyTable],
  ['counterexamples', 'Counterexamples', counterexamples],
  ['liveness', 'Liveness', liveness],
  ['statecharts', 'Statecharts', diagrams],
  ['coverage', 'Coverage', coverage],
  ['witnesses', 'Witnesses', witnesses],
];

/** The sections of `input`'s report: the deployment section, when there is one, after the verdicts. */
function sectionsOf(input: ReportInput): typeof sections {
  const { deployment } = input;
  if (deployment === undefined) return sections;
  const at = sections.findIndex(([id]) => id === 'verdicts') + 1;
  return [
    ...sections.slice(0, at),
    ['deployment', 'Deployment', () => deploymentHtml(deployment)],
    ...sections.slice(at),
  ];
}

/** The whole report as one HTML document. */
export function reportHtml(input: ReportInput): string {
  const shown = sectionsOf(input);
  const nav = shown.map(([id, title]) => `<a href="#${id}">${h(title)}</a>`).join(' · ');
  const body = shown.map(([id, title, render]) => section(id, title, render(input))).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kvcheck design review</title>
<style>${reportCss}${chartFigureCss}</style>
</head>
<body>
<header>
<h1>kvcheck design review</h1>
<p>Tenant isolation in disaggregated prefill/decode serving: each scenario explored exhaustively under each engine variant.</p>
<nav>${nav}</nav>
</header>
<main>
${body}
</main>
<footer>kvcheck ${h(input.version)} · <code>${h(input.command)}</code> · ${h(settingsText(input.settings))}</footer>
</body>
</html>
`;
}
