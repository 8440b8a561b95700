/**
 * Counterexamples of the `incident` scenario under `incident-2026`, checked once per test file,
 * a seeded livelock's lassos, and a hand-built trace whose names try to break out of every output
 * language.
 */
import { assign } from 'xstate';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult, Trace } from '../../src/checker/outcome.ts';
import {
  type ServingLivenessRun,
  servingLivenessRun,
} from '../../src/checker/serving/servingLiveness.ts';
import { livenessRuns } from '../../src/cli/reportCommand.ts';
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
    liveness: livenessRuns([incident], variants, {}),
  });
}

/**
 * Liveness of `scenario` (`happy` unless given) under a seeded livelock, reported as variant
 * `name`: `fixed` with a decode step that runs but never advances the request (`runDecodeStep`
 * does nothing), so a running request can step forever without finishing. Both leads-to
 * properties are violated, each by a lasso whose cycle is decode steps.
 */
export function stalledDecodeRun(
  scenario: Scenario = happy,
  name = 'stalled-decode',
): ServingLivenessRun {
  const fixed = variantNamed('fixed');
  const machine = createServingMachine(scenario, fixed).provide({
    actions: { runDecodeStep: assign(({ context }) => context) },
  });
  return servingLivenessRun(scenario, { ...fixed, name }, { machine });
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
      changes: [
        { kind: 'regionMoved', rid: 'x1', region: 'router', from: 'idle', to: 'awaiting' },
        { kind: 'regionMoved', rid: 'x1', region: 'prefill', from: 'idle', to: 'received' },
      ],
      regions: regions('awaiting'),
    },
    {
      step: 2,
      actor: 'decode scheduler',
      event: 'DECODE_STEP',
      rid: 'x1',
      tenant: hostileTenant,
      changes: [
        {
          kind: 'slotWritten',
          node: 'decode',
          page: 1,
          slot: null,
          writer: { rid: 'x1', tenant: hostileTenant },
          was: null,
        },
        {
          kind: 'slotRead',
          rid: 'x1',
          node: 'decode',
          page: 0,
          writer: { rid: 'y1', tenant: 'B' },
          foreign: true,
        },
        { kind: 'regionMoved', rid: 'x1', region: 'decode', from: 'a', to: '</script><script>' },
        { kind: 'reply', rid: 'x1', side: 'client', status: 200, tokens: 2 },
      ],
      regions: regions('awaiting'),
    },
  ],
};
