/**
 * Regression for the 2026 incident (155 replies with other tenants' prompt and output data).
 * Root cause: a prompt that passed the tokenizer but not prefill's scheduler limit was swapped
 * for a one-token placeholder and handed off; decode committed the full length and attended over
 * pages that still held an earlier tenant's KV.
 */

import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { band, happy, incident, pool2x } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult, TraceStep } from '../../src/checker/outcome.ts';

function checkNamed(s: Scenario, v: string): ScenarioResult {
  return check(s, variantNamed(v), { requiredWitnesses: s.witnesses });
}

function status(r: ScenarioResult, property: string): string | undefined {
  return r.properties.find((p) => p.name === property)?.status;
}

function reached(r: ScenarioResult, witness: string): boolean | undefined {
  return r.witnesses.find((w) => w.name === witness)?.reached;
}

describe('incident under incident-2026', () => {
  let result: ScenarioResult;
  beforeAll(() => {
    result = checkNamed(incident, 'incident-2026');
  });

  it('violates the four properties the incident broke', () => {
    for (const p of [
      'noCrossTenantRead',
      'rejectedNeverHandedOff',
      'coverageBeforeCommit',
      'errorReachesClient',
    ]) {
      expect(status(result, p), p).toBe('violated');
    }
    expect(result.status).toBe('violation');
  });

  it('gives a shortest noCrossTenantRead trace with the incident’s shape, in order', () => {
    const trace = result.properties.find((p) => p.name === 'noCrossTenantRead')?.trace;
    const steps: readonly TraceStep[] = trace?.steps ?? [];
    const indexOf = (pred: (s: TraceStep) => boolean) => steps.findIndex(pred);
    // Whether a change of step `s` has every field of `want`.
    const has = (s: TraceStep, want: Readonly<Record<string, unknown>>) =>
      s.changes.some((c) => {
        const fields: Readonly<Record<string, unknown>> = c;
        return Object.entries(want).every(([k, v]) => fields[k] === v);
      });
    const rejected = indexOf(
      (s) =>
        s.event === 'PREFILL_INTAKE' &&
        s.rid === 'b1' &&
        has(s, { kind: 'placeholderSwapped', rid: 'b1', side: 'prefill' }),
    );
    const prefilled = indexOf(
      (s) =>
        s.event === 'PREFILL_FORWARD' &&
        s.rid === 'b1' &&
        has(s, { kind: 'slotWritten', node: 'prefill' }),
    );
    const transferred = indexOf(
      (s) =>
        s.event === 'KV_WRITE_DONE' &&
        s.rid === 'b1' &&
        has(s, { kind: 'kvArrived', rid: 'b1', positions: 1 }),
    );
    const committed = indexOf(
      (s) =>
        s.event === 'DECODE_COMMIT' &&
        s.rid === 'b1' &&
        has(s, { kind: 'committed', rid: 'b1', seqLen: 3 }),
    );
    const last = steps.at(-1);
    expect(rejected).toBeGreaterThanOrEqual(0);
    expect(prefilled).toBeGreaterThan(rejected);
    expect(transferred).toBeGreaterThan(prefilled);
    expect(committed).toBeGreaterThan(transferred);
    expect(last?.event).toBe('DECODE_STEP');
    expect(last?.rid).toBe('b1');
    expect(last?.changes).toContainEqual(
      expect.objectContaining({
        kind: 'slotRead',
        rid: 'b1',
        node: 'decode',
        writer: { rid: 'a1', tenant: 'A' },
        foreign: true,
      }),
    );
    expect(trace?.message).toMatch(
      /^b1 \(tenant B\) read decode page \d+, last written by a1 \(tenant A\)$/,
    );
    // A ran to completion on decode before B was dispatched: its pages were freed, not scrubbed.
    const aFinished = indexOf((s) => s.event === 'DECODE_FINISH' && s.rid === 'a1');
    expect(aFinished).toBeGreaterThanOrEqual(0);
    expect(aFinished).toBeLessThan(committed);
  });
});

describe.each(['fixed', 'fixed-coverage'])('incident under %s', (name) => {
  let result: ScenarioResult;
  beforeAll(() => {
    result = checkNamed(incident, name);
  });

  it('holds every property, not vacuously', () => {
    expect(result.status).toBe('ok');
    expect(result.properties.every((p) => p.status === 'holds')).toBe(true);
    expect(reached(result, 'someRequestRejected')).toBe(true);
    expect(reached(result, 'someRequestDecoded')).toBe(true);
  });
});

describe.each([pool2x, happy])('$name', (scenario) => {
  it.each(['incident-2026', 'fixed', 'fixed-coverage', 'retire-only', 'coverage-only'])(
    'holds every property under %s',
    (name) => {
      const result = checkNamed(scenario, name);
      expect(result.status).toBe('ok');
      expect(reached(result, 'someRequestDecoded')).toBe(true);
    },
  );
});

describe('happy', () => {
  it('shows isolation on pages that really change hands between tenants', () => {
    expect(reached(checkNamed(happy, 'incident-2026'), 'pageReusedAcrossTenants')).toBe(true);
  });
});

describe('band (pools twice the context window, a prompt inside the reject band)', () => {
  it('still hands the rejected prompt off under incident-2026, without a cross-tenant read', () => {
    const result = checkNamed(band, 'incident-2026');
    expect(status(result, 'rejectedNeverHandedOff')).toBe('violated');
    expect(status(result, 'noCrossTenantRead')).toBe('holds');
  });

  it('holds everything under fixed', () => {
    expect(checkNamed(band, 'fixed').status).toBe('ok');
  });
});

describe.each([incident, band])('each barrier alone on $name', (scenario) => {
  it('retire-only stops the leak and the handoff, but the rejected prompt still holds resources', () => {
    const result = checkNamed(scenario, 'retire-only');
    expect(result.status).toBe('violation');
    const violated = result.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    expect(violated).toEqual(['rejectedHoldsNothing']);
    const trace = result.properties.find((p) => p.name === 'rejectedHoldsNothing')?.trace;
    expect(trace?.steps.map((s) => `${s.event} ${s.rid}`)).toEqual([
      'DISPATCH b1',
      'PREFILL_INTAKE b1',
    ]);
    expect(trace?.message).toBe(
      'b1 (tenant B) was rejected at intake by prefill, yet has a bootstrap room',
    );
  });

  it('fixed holds rejectedHoldsNothing, and not vacuously', () => {
    const p = checkNamed(scenario, 'fixed').properties.find(
      (x) => x.name === 'rejectedHoldsNothing',
    );
    expect(p).toMatchObject({ status: 'holds' });
    expect(p?.vacuous).toBeUndefined();
  });

  it('coverage-only stops the cross-tenant read but still hands the KV off', () => {
    const result = checkNamed(scenario, 'coverage-only');
    expect(status(result, 'noCrossTenantRead')).toBe('holds');
    expect(status(result, 'rejectedNeverHandedOff')).toBe('violated');
  });
});
