/**
 * The design-review report: sections in the promised order, the findings a reviewer needs in
 * them (the liveness section's verdicts and lassos among them), nothing fetched from anywhere,
 * and every user-supplied string escaped.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { servingLivenessRun } from '../../src/checker/serving/servingLiveness.ts';
import { livenessRuns } from '../../src/cli/reportCommand.ts';
import { livenessSection, reportInputFrom } from '../../src/export/buildReport.ts';
import { escapeMarkdownText } from '../../src/export/escape.ts';
import { reportHtml } from '../../src/export/reportHtml.ts';
import { reportMarkdown } from '../../src/export/reportMarkdown.ts';
import type { ReportInput } from '../../src/export/reportModel.ts';
import { incidentReport, stalledDecodeRun } from './fixtures.ts';

let input: ReportInput;
let md: string;
let html: string;
beforeAll(async () => {
  input = await incidentReport();
  md = reportMarkdown(input);
  html = reportHtml(input);
});

/** The answer first (findings, barriers, verdicts); statecharts, coverage and traces after. */
const sections = [
  'Findings',
  'Barrier matrix',
  'Verdicts',
  'Scenarios',
  'Properties',
  'Counterexamples',
  'Liveness',
  'Statecharts',
  'Coverage',
  'Witnesses',
];

describe('the findings', () => {
  it('tell the leak in its deciding steps, each linked to its trace', () => {
    const leak = input.findings.find((f) => f.property === 'noCrossTenantRead');
    expect(leak).toMatchObject({ scenario: 'incident', variant: 'incident-2026', steps: 21 });
    expect(leak?.keySteps.map((s) => [s.step, s.event, s.rid])).toEqual([
      [11, 'DECODE_FINISH', 'a1'],
      [13, 'PREFILL_INTAKE', 'b1'],
      [15, 'DECODE_PREALLOC', 'b1'],
      [20, 'DECODE_COMMIT', 'b1'],
      [21, 'DECODE_STEP', 'b1'],
    ]);
    const cex = input.counterexamples[leak?.counterexample ?? -1];
    expect(cex?.property).toBe('noCrossTenantRead');
    expect(html).toContain(`id="cex-${leak?.counterexample}"`);
    expect(html).toContain(`<a href="#cex-${leak?.counterexample}">step 13</a> PREFILL_INTAKE b1`);
    expect(md).toContain(`<a id="cex-${leak?.counterexample}"></a>`);
  });

  it('say where the fixed variant blocks each trace, and give the structural path check', () => {
    const leak = input.findings.find((f) => f.property === 'noCrossTenantRead');
    expect(leak?.replays).toEqual([
      {
        variant: 'fixed',
        text: 'blocked at step 13: PREFILL_INTAKE b1 → prefill done.retired under fixed (prefillSchedulerRejects && admissionRetire), where the trace went to prefill placeholder.bootstrapping',
      },
    ]);
    expect(input.findings.map((f) => f.property)).toEqual(
      input.results[0]?.properties.filter((p) => p.status === 'violated').map((p) => p.name),
    );
    expect(input.structural).toEqual([
      { variant: 'incident-2026', paths: 6 },
      { variant: 'fixed', paths: 0 },
    ]);
    expect(html).toContain('fixed: no statechart path from a rejected state to a decoding state');
    expect(md).toContain(
      'incident-2026: 6 statechart paths from a rejected state to a decoding state',
    );
  });

  it('come with the verdicts’ violated and expected columns', () => {
    expect(md).toContain(
      '| incident | incident-2026 | ✗ violation | rejectedNeverHandedOff, rejectedHoldsNothing, noCrossTenantRead, coverageBeforeCommit, errorReachesClient | violation: rejectedNeverHandedOff, rejectedHoldsNothing, noCrossTenantRead, coverageBeforeCommit, errorReachesClient |',
    );
    expect(md).toContain('| incident | fixed | ✓ ok | - | ok |');
  });
});

describe('report.md', () => {
  it('has the sections in the promised order', () => {
    const at = sections.map((s) => md.indexOf(`\n## ${s}\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('states the order relations that decide the scenario', () => {
    expect(md).toContain('the context window exceeds a pool: the incident’s configuration');
    expect(md).toContain('3 ≥ prefill limit 2: rejected by prefill’s scheduler');
    expect(md).toContain('3 &lt; decode limit 4: accepted by decode');
  });

  it('draws statecharts and every counterexample as Mermaid blocks', () => {
    const blocks = md.match(/```mermaid\n/g) ?? [];
    expect(blocks).toHaveLength(input.diagrams.length + input.counterexamples.length);
    expect(input.counterexamples.map((c) => c.property)).toEqual([
      'rejectedNeverHandedOff',
      'rejectedHoldsNothing',
      'noCrossTenantRead',
      'coverageBeforeCommit',
      'errorReachesClient',
    ]);
    expect(md).toContain(
      'Reproduce: `npx kvcheck check --scenario incident --variant incident-2026 --invariant noCrossTenantRead`',
    );
  });

  it('shows in the barrier matrix that fixed stops the cross-tenant read', () => {
    const row = md
      .split('\n')
      .find((l) => l.startsWith('| `noCrossTenantRead` |') && l.includes('stopped'));
    expect(row).toMatch(/\| ✗ \| ✓ \| stopped by fixed/);
  });

  it('lists the transitions no run took as findings', () => {
    expect(md).toContain('prefill: received → done.clientError on PREFILL_INTAKE');
  });

  it('lists what a mechanism switched off kept out apart from the findings', () => {
    const section = between(md, '\n## Coverage\n', '\n## Witnesses\n');
    const router = section.split('\n').filter((l) => l.startsWith('| router |'));
    expect(router).toHaveLength(input.variants.length);
    for (const row of router) {
      expect(row).not.toContain('CLIENT_ABORT');
      expect(row).toMatch(/\| \d+ transitions? \|$/);
    }
    expect(section).toContain('Not exercised: mechanism off in these scenarios:');
    // Each mechanism's line, escaped as every free text of report.md is.
    const line = (text: string) => `\n- ${escapeMarkdownText(text)}`;
    expect(section).toContain(
      line(
        'client aborts (clientAborts off in every scenario): router: awaiting → replied on CLIENT_ABORT; ',
      ),
    );
    expect(section).toContain(
      line('switch admissionRetire on in fixed: prefill: received → placeholder on PREFILL_INTAKE'),
    );
  });

  it('ends with the version, the command and the exploration settings', () => {
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      'kvcheck 0.1.0 · `kvcheck report --scenario incident --variant incident-2026 --variant fixed` · engine fast (64-bit fingerprints), no state bound, no time limit',
    );
  });
});

describe('vacuous passes in the report', () => {
  it('are never a plain ✓: the property table and barrier matrix say why', () => {
    expect(md).toContain('✓ holds (vacuous: no request reused prefix-cache pages)');
    expect(md).toMatch(
      /\| `auxSlotIntegrity` \| ✓ vacuous \| ✓ vacuous \| not exercised: the scenario has no aux slots, or decode never committed a request, under every variant checked \|/,
    );
    expect(html).toContain('title="vacuous: no request reused prefix-cache pages"');
  });
});

describe('report.html', () => {
  it('is one self-contained file: inline SVG and CSS, no script, nothing fetched', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).toContain('<style>');
    const svgs = html.match(/<svg[\s>]/g) ?? [];
    expect(svgs.length).toBe(input.diagrams.length + input.counterexamples.length);
  });

  it('shows coverage findings and what mechanisms switched off kept out, apart', () => {
    const section = between(html, '<h2>Coverage</h2>', '<h2>Witnesses</h2>');
    const router = section.split('\n').filter((l) => l.startsWith('<tr><td>router</td>'));
    expect(router).toHaveLength(input.variants.length);
    for (const row of router) expect(row).not.toContain('CLIENT_ABORT');
    expect(section).toContain(
      '<li>client aborts (clientAborts off in every scenario): <span class="small">router: awaiting → replied on CLIENT_ABORT; ',
    );
    expect(section).toContain('prefill: received → done.clientError on PREFILL_INTAKE');
  });

  it('has the sections in the promised order', () => {
    const at = sections.map((s) => html.indexOf(`<h2>${s}</h2>`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe('the statecharts in the report', () => {
  it('draw each region on its own, then only the regions the other variant changes, then a page', () => {
    expect(input.diagrams.map((d) => d.title)).toEqual([
      'router as incident-2026 wires it',
      'prefill as incident-2026 wires it',
      'transfer as incident-2026 wires it',
      'decode as incident-2026 wires it',
      'prefill: fixed against incident-2026',
      'decode: fixed against incident-2026',
      'One KV page',
    ]);
    expect(input.diagrams[4]?.caption).toContain('Unchanged, so not drawn: router, transfer.');
  });

  it('leave out the bug catalogue’s fault-only edges', () => {
    for (const d of input.diagrams) expect(d.svg).not.toContain('lateResultNotRetired');
  });

  it('open full window on a click, script-free: each figure is the target of its own link', () => {
    input.diagrams.forEach((_, i) => {
      expect(html).toContain(`<figure class="diagram chart" id="chart-${i}">`);
      expect(html).toContain(
        `<a class="chart-open" href="#chart-${i}" title="Open full window"><svg`,
      );
      expect(html).toContain(`<a class="chart-close" href="#chart-${i}-at">`);
    });
    expect(html).toMatch(/figure\.diagram\.chart:target \{ position: fixed;/);
    expect(html).toContain('figure.diagram.chart:target svg { max-width: none; }');
  });
});

describe('user-supplied strings', () => {
  it('are escaped in report.md and report.html', async () => {
    const hostile: Scenario = {
      ...incident,
      name: 'evil"<b>#;|',
      description: 'Desc <img src=x onerror=alert(1)> & "quotes" | pipe',
      requests: [
        { id: 'a1', tenant: '<script>alert("x")</script>', promptLen: 1, outputLen: 2 },
        { id: 'b1', tenant: 'B\'"<i>', promptLen: 3, outputLen: 2 },
      ],
    };
    const v = variantNamed('incident-2026');
    const evil = await reportInputFrom({
      scenarios: [hostile],
      variants: [v],
      results: [check(hostile, v)],
      reproduce: (r, property) =>
        `npx kvcheck check --config "<evil>.yaml" --variant ${r.variant} --invariant ${property}`,
      command: 'kvcheck report --config <evil>.yaml',
      version: '0.1.0',
      settings: { engine: 'fast (64-bit fingerprints)', maxStates: 100_000 },
      liveness: { maxStates: 100_000, runs: [stalledDecodeRun(hostile, 'stall<i>"|')] },
    });
    // The hostile names reach the liveness section: its row and its lassos' headings.
    expect(evil.liveness.rows[0]?.status).toBe('violation');
    for (const text of [reportMarkdown(evil), reportHtml(evil)]) {
      expect(text).not.toMatch(/<script|<img|<i>|<b>|<evil>/);
      expect(text).toContain('&lt;script&gt;');
      expect(text).toContain('stall&lt;i&gt;&quot;');
    }
  });
});

describe('the liveness section', () => {
  const violatedRun = stalledDecodeRun();
  const holdingRun = servingLivenessRun(happy, variantNamed('fixed'));
  const boundedRun = servingLivenessRun(happy, variantNamed('fixed'), { maxStates: 50 });
  const section = livenessSection({
    maxStates: 50,
    runs: [holdingRun, violatedRun, boundedRun],
  });
  let text: { md: string; html: string };
  beforeAll(() => {
    const withLiveness = { ...input, liveness: section };
    text = { md: reportMarkdown(withLiveness), html: reportHtml(withLiveness) };
  });
  const rowsOf = (md: string) => md.split('\n').filter((l) => l.startsWith('| happy |'));
  /** The one lasso of `eventuallyAnswered` in the violated run. */
  const answered = () => {
    const cell = section.rows[1]?.cells[0];
    if (cell?.verdict !== 'violated') throw new Error('eventuallyAnswered is not violated');
    return cell.lasso;
  };

  it('shows a pass with why it holds, in both formats', () => {
    const [holding] = rowsOf(liveSection(text.md));
    // No cycle, or cycles none of which is fair: both are passes, and say which.
    const holds = String.raw`holds \((no cycle|[\d,]+ cycles?, none fair)\)`;
    expect(holding).toMatch(
      new RegExp(String.raw`^\| happy \| fixed \| ✓ ok \| [\d,]+ \| ${holds} \| ${holds} \|$`),
    );
    expect(liveSection(text.html)).toMatch(
      /<td>happy<\/td><td>fixed<\/td><td><span class="badge ok">ok<\/span><\/td>/,
    );
  });

  it('shows a violation with the request, the lasso’s length and its loop index', () => {
    const lasso = answered();
    expect(lasso.loop).toBeGreaterThan(0);
    expect(lasso.loop).toBeLessThan(lasso.steps.length);
    const [, violated] = rowsOf(liveSection(text.md));
    expect(violated).toMatch(/^\| happy \| stalled-decode \| ✗ violation \| [\d,]+ \| /);
    expect(violated).toContain(
      `| violated for ${lasso.rid}: a lasso of ${lasso.steps.length} steps, loop ${lasso.loop} |`,
    );
    expect(liveSection(text.html)).toContain(
      `<span class="badge violated">violated for ${lasso.rid}: a lasso of ${lasso.steps.length} steps, loop ${lasso.loop}</span>`,
    );
  });

  it('tells the lasso step by step, marks where the cycle starts and where it returns', () => {
    const lasso = answered();
    const md = liveSection(text.md);
    const n = lasso.steps.length;
    const heading = `### \`eventuallyAnswered\` in happy × stalled-decode (${n} steps, loop ${lasso.loop})`;
    const at = md.indexOf(heading);
    expect(at).toBeGreaterThan(0);
    const block = md.slice(at).split('\n### ')[0] ?? '';
    const stepRows = block.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(stepRows).toHaveLength(n);
    // The cycle starts at step loop + 1, and the seeded stall's cycle is decode steps only.
    const marked = stepRows.filter((l) => l.includes('**← cycle starts**'));
    expect(marked).toEqual([stepRows[lasso.loop]]);
    expect(stepRows.slice(lasso.loop).every((l) => / DECODE_STEP [ab]1/.test(l))).toBe(true);
    expect(stepRows.slice(0, lasso.loop).some((l) => l.includes('DECODE_STEP'))).toBe(false);
    expect(block).toContain(`**Violated:** ${lasso.rid} is dispatched and never answered`);
    expect(block).toContain(
      `after step ${n} the run is back in the state after step ${lasso.loop} (loop index ${lasso.loop}).`,
    );
    expect(liveSection(text.html)).toContain('<strong>← cycle starts</strong>');
  });

  it('never shows a bounded run as a pass: every property is incomplete, with the bound', () => {
    const [, , bounded] = rowsOf(liveSection(text.md));
    expect(bounded).toMatch(
      /^\| happy \| fixed \| \? incomplete \| [\d,]+, stopped by maxStates 50: liveness needs the whole graph \| incomplete \| incomplete \|$/,
    );
    expect(liveSection(text.md)).toContain('up to 50 states: a run that bound stops is incomplete');
  });

  it('runs in the report as kvcheck report runs it: every scenario × variant, bounded', () => {
    expect(input.liveness.maxStates).toBe(200_000);
    expect(input.liveness.rows.map((r) => `${r.scenario} × ${r.variant}`)).toEqual(
      input.results.map((r) => `${r.scenario} × ${r.variant}`),
    );
    expect(livenessRuns([incident], [variantNamed('fixed')], { maxStates: 10 }).maxStates).toBe(10);
  });
});

/** The text of the liveness section of a report, Markdown or HTML. */
function liveSection(report: string): string {
  const md = report.indexOf('\n## Liveness\n');
  const start = md >= 0 ? md : report.indexOf('<h2>Liveness</h2>');
  const end = md >= 0 ? report.indexOf('\n## Coverage\n') : report.indexOf('<h2>Coverage</h2>');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return report.slice(start, end);
}

/** The text of `report` from `start` to `end`, both present, in that order. */
function between(report: string, start: string, end: string): string {
  const from = report.indexOf(start);
  const to = report.indexOf(end);
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  return report.slice(from, to);
}
