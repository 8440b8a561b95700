/**
 * The bug catalogue, entry by entry: each variant is `fixed` plus exactly one fault switch, it
 * violates one of its expected properties with a counterexample of the pinned shape, and `fixed`
 * holds every property on the same scenario with its required witnesses reached. The state
 * counts of both runs are pinned in the manifest (test/scenarios/manifest.test.ts).
 */
import { type Switches, variantNames, variants } from '../../machines/variants.ts';
import { fixedVariant, switchesChangedFromFixed } from '../../src/catalogue/faultVariant.ts';
import { catalogue, catalogueVariantNames } from '../../src/catalogue/index.ts';
import { expectedCatchers } from '../../src/catalogue/run.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { barriersOf } from '../../src/export/reportModel.ts';

/** What each entry's counterexample and `fixed`'s run on the same scenario look like. */
interface Pinned {
  readonly fault: keyof Switches;
  readonly scenario: string;
  readonly caughtBy: string;
  readonly steps: number;
  readonly lastEvent: string;
  readonly message: RegExp;
}

const pinned: Readonly<Record<string, Pinned>> = {
  B1: {
    fault: 'abortGatesMissPendingAbort',
    scenario: 'incident',
    caughtBy: 'rejectedNeverHandedOff',
    steps: 7,
    lastEvent: 'SEND_KV',
    message: /^b1 \(tenant B\) was rejected at intake by prefill, yet KV was sent for its room$/,
  },
  B2: {
    fault: 'successOverwritesPendingAbort',
    scenario: 'prefill-error',
    caughtBy: 'errorReachesClient',
    steps: 14,
    lastEvent: 'ROUTER_REPLY',
    message:
      /^a1 \(tenant A\) was aborted on prefill \(a prefill error\) but the client got 200 with 2 token\(s\)$/,
  },
  B3: {
    fault: 'decodeWaitsForeverForKv',
    scenario: 'prefill-reject',
    caughtBy: 'everyRequestAnswered',
    // Decode preallocates for the request prefill retired, then waits with no timeout.
    steps: 4,
    lastEvent: 'DECODE_PREALLOC',
    message: /^b1 \(tenant B\) never got a reply \(router in awaiting\)$/,
  },
  B6: {
    fault: 'errorReleasesKvImmediately',
    scenario: 'prefill-error',
    caughtBy: 'freedExactlyOnce',
    steps: 8,
    lastEvent: 'PREFILL_ERROR',
    message: /^prefill page 0 is free while a1 still holds it$/,
  },
  B7: {
    fault: 'lateResultNotRetired',
    scenario: 'late-abort',
    caughtBy: 'noLeakAtQuiescence',
    steps: 7,
    lastEvent: 'CLIENT_ABORT',
    message: /^prefill page 0 is still held by a1 \(tenant A\) at quiescence$/,
  },
  B9: {
    fault: 'duplicateRoomAccepted',
    scenario: 'room-collision',
    caughtBy: 'statusPerIncarnation',
    steps: 10,
    lastEvent: 'KV_WRITE_DONE',
    message: /^a1 \(tenant A\) sent its KV into another request’s pages, or to no destination/,
  },
  B10: {
    fault: 'leaseExpiresUnderRead',
    scenario: 'pull-lease',
    caughtBy: 'noCrossTenantRead',
    steps: 15,
    lastEvent: 'DECODE_STEP',
    message: /^a1 \(tenant A\) read decode page 0, last written by b1 \(tenant B\)$/,
  },
  B11: {
    fault: 'releaseBeforeDrain',
    scenario: 'pull-abort',
    caughtBy: 'noWriteAfterFree',
    steps: 9,
    lastEvent: 'KV_WRITE_DONE',
    message: /^a1 wrote decode page 0 without holding it$/,
  },
};

function violated(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

describe('the catalogue list', () => {
  it('is ordered by id, each id once', () => {
    const ids = catalogue.map((e) => e.id);
    const byNumber = (a: string, b: string) => Number(a.slice(1)) - Number(b.slice(1));
    expect(ids).toEqual([...new Set(ids)].sort(byNumber));
  });

  it('names its variants apart from the built-ins, and keeps them out of the built-in list', () => {
    expect(new Set(catalogueVariantNames).size).toBe(catalogue.length);
    for (const name of catalogueVariantNames) {
      expect(name).toMatch(/^b\d+-[a-z-]+$/);
      expect(variantNames).not.toContain(name);
    }
  });

  it.each(catalogue.map((e) => [e.id, e] as const))(
    '%s is fixed plus exactly one fault switch, off in every built-in variant',
    (_, e) => {
      const changed = switchesChangedFromFixed(e.variant);
      expect(changed).toHaveLength(1);
      const [fault] = changed;
      if (fault === undefined) throw new Error('no switch changed');
      expect(e.variant.switches[fault]).toBe(true);
      for (const v of variants) expect(v.switches[fault], v.name).toBe(false);
      expect(expectedCatchers(e).length).toBeGreaterThan(0);
      expect(e.upstream.every((u) => /^#\d+$/.test(u))).toBe(true);
    },
  );
});

describe.each(Object.entries(pinned))('%s', (id, pin) => {
  const entry = catalogue.find((e) => e.id === id);
  if (!entry) throw new Error(`catalogue has no entry ${id}`);
  const expected = expectedCatchers(entry);
  let result: ScenarioResult;
  let fixed: ScenarioResult;
  beforeAll(() => {
    result = check(entry.scenario, entry.variant);
    fixed = check(entry.scenario, fixedVariant(), { requiredWitnesses: entry.scenario.witnesses });
  });

  it(`turns on ${pin.fault} on the ${pin.scenario} scenario`, () => {
    expect(switchesChangedFromFixed(entry.variant)).toEqual([pin.fault]);
    expect(entry.scenario.name).toBe(pin.scenario);
  });

  it(`violates ${pin.caughtBy}, one of its expected properties`, () => {
    expect(result.status).toBe('violation');
    expect(expected).toContain(pin.caughtBy);
    expect(violated(result)).toContain(pin.caughtBy);
    // The first expected property it violates is the one the catalogue reports.
    expect(expected.find((p) => violated(result).includes(p))).toBe(pin.caughtBy);
  });

  it(`has a shortest counterexample of ${pin.steps} steps ending in ${pin.lastEvent}`, () => {
    const trace = result.properties.find((p) => p.name === pin.caughtBy)?.trace;
    if (!trace) throw new Error(`${pin.caughtBy} has no trace`);
    expect(trace.steps).toHaveLength(pin.steps);
    expect(trace.steps.at(-1)?.event).toBe(pin.lastEvent);
    expect(trace.message).toMatch(pin.message);
  });

  it('leaves fixed clean on the same scenario', () => {
    expect(fixed.status).toBe('ok');
    expect(violated(fixed)).toEqual([]);
    const required = fixed.witnesses.filter((w) => w.required);
    expect(required.length).toBeGreaterThan(0);
    for (const w of required) expect(w.reached, w.name).toBe(true);
  });
});

describe('B1 is the incident’s own path', () => {
  it('explores exactly the states incident-2026 does on the incident scenario', () => {
    const b1 = catalogue.find((e) => e.id === 'B1');
    const incident2026 = variants.find((v) => v.name === 'incident-2026');
    if (!b1 || !incident2026) throw new Error('missing B1 or incident-2026');
    const a = check(b1.scenario, b1.variant);
    const b = check(b1.scenario, incident2026);
    expect(a.stats).toMatchObject({ states: b.stats.states, transitions: b.stats.transitions });
    expect(violated(a)).toEqual(violated(b));
  });

  it('lists no barrier in the report: both fixes are on but blinded by the fault', () => {
    const b1 = catalogue.find((e) => e.id === 'B1');
    if (!b1) throw new Error('missing B1');
    expect(b1.variant.switches).toMatchObject({ admissionRetire: true, retireAbortedResult: true });
    expect(barriersOf(b1.variant)).toBe('fault: abortGatesMissPendingAbort');
  });
});
