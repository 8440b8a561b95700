/**
 * Counterexamples of the `incident` scenario under `incident-2026`, checked once per test file,
 * and a hand-built trace whose names try to break out of every output language.
 */
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult, Trace } from '../../src/checker/outcome.ts';
import { reportInputFrom } from '../../src/export/buildReport.ts';
import type { ReportInput } from '../../src/export/reportModel.ts';
import type { TraceMeta } from '../../src/export/sequenceDiagram.ts';

/** The report on incident under incident-2026 and fixed, as `kvcheck report` builds it. */
export async function incidentReport(): Promise<ReportInput> {
  const variants = [variantNamed('incident-2026'), variantNamed('fixed')];
  return reportInputFrom({
    scenarios: [incident],
    variants,
    results: variants.map((v) => check(incident, v, { requiredWitnesses: incident.witnesses })),
    reproduce: (r, property) =>
      `npx kvcheck check --scenario ${r.scenario} --variant ${r.variant} --invariant ${property}`,
    command: 'kvcheck report --scenario incident --variant incident-2026 --variant fixed',
    version: '0.1.0',
    settings: { engine: 'fast (64-bit fingerprints)' },
  });
}

let result: ScenarioResult | undefined;

/** The counterexample of `property` in incident × incident-2026, with its meta. */
export function incidentTrace(property: string): { trace: Trace; meta: TraceMeta } {
  result ??= check(incident, variantNamed('incident-2026'));
  const p = result.properties.find((x) => x.name === property);
  if (!p?.trace) throw new Error(`${property} has no counterexample`);
  return {
    trace: p.trace,
    meta: { scenario: 'incident', variant: 'incident-2026', property, statement: p.statement },
  };
}

/** A tenant name that is a script, and a scenario name with quotes and `#;`. */
export const hostileTenant = '<script>alert("x")</script>';
export const hostileMeta: TraceMeta = {
  scenario: 'in"ci"dent #; <b>',
  variant: "v'1",
  property: 'noCrossTenantRead',
  statement: 'a "quoted" statement; with #35; and <i>markup</i>',
};

const regions = (router: string) => ({
  x1: { router, prefill: 'received', transfer: 'unopened', decode: 'received' },
});

/** Two steps by a request of `hostileTenant`, the second reading another tenant's KV. */
export const hostileTrace: Trace = {
  message: `x1 (tenant ${hostileTenant}) read decode page 0, last written by y1 (tenant B)`,
  steps: [
    {
      step: 1,
      actor: 'router',
      event: 'DISPATCH',
      rid: 'x1',
      tenant: hostileTenant,
      changes: ['x1 router: idle → awaiting', 'x1 prefill: idle → received'],
      regions: regions('awaiting'),
    },
    {
      step: 2,
      actor: 'decode scheduler',
      event: 'DECODE_STEP',
      rid: 'x1',
      tenant: hostileTenant,
      changes: [
        `decode page 1 written by x1 (tenant ${hostileTenant}) (was never written)`,
        'x1 reads decode page 0, last written by y1 (tenant B) ← another tenant’s KV',
        `x1 client gets 200 (2 token(s)) </script><script>`,
      ],
      regions: regions('awaiting'),
    },
  ],
};
