/**
 * The design-review report: sections in the promised order, the findings a reviewer needs in
 * them, nothing fetched from anywhere, and every user-supplied string escaped.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { reportInputFrom } from '../../src/export/buildReport.ts';
import { reportHtml } from '../../src/export/reportHtml.ts';
import { reportMarkdown } from '../../src/export/reportMarkdown.ts';
import type { ReportInput } from '../../src/export/reportModel.ts';
import { incidentReport } from './fixtures.ts';

let input: ReportInput;
let md: string;
let html: string;
beforeAll(async () => {
  input = await incidentReport();
  md = reportMarkdown(input);
  html = reportHtml(input);
});

const sections = [
  'Verdicts',
  'Scenarios',
  'Statecharts',
  'Properties',
  'Barrier matrix',
  'Counterexamples',
  'Coverage',
  'Witnesses',
];

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

  it('has the sections in the promised order', () => {
    const at = sections.map((s) => html.indexOf(`<h2>${s}</h2>`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
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
    });
    for (const text of [reportMarkdown(evil), reportHtml(evil)]) {
      expect(text).not.toMatch(/<script|<img|<i>|<b>|<evil>/);
      expect(text).toContain('&lt;script&gt;');
    }
  });
});
