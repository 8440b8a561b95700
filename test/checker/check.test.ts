/**
 * The check's contract beyond agreement (`agreement.test.ts`): a bounded search never passes, on
 * either engine; counterexamples are shortest; the fast engine's memory bound and symmetry
 * reduction report what they explored; fast-engine options are refused by the reference, and
 * an option `CheckOptions` does not have is refused by name; lifecycle coverage records each
 * move from its source to its target.
 */
import { maxReqInputLen } from '../../machines/scenario.ts';
import { findVariant, variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { twins } from '../../scenarios/symmetric.ts';
import { check } from '../../src/checker/check.ts';
import {
  type CheckOptions,
  engineNames,
  resolveCheckOptions,
} from '../../src/checker/checkOptions.ts';
import type { PropertyResult } from '../../src/checker/outcome.ts';
import { servingSymmetryGroup } from '../../src/checker/serving/servingSymmetry.ts';

describe.each(engineNames)('bounded search (%s engine)', (engine) => {
  it('reports incomplete, never ok, when the state bound stops a passing model', () => {
    const r = check(incident, variantNamed('fixed'), { engine, maxStates: 20 });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxStates', limit: 20 });
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
    expect(r.stats.states).toBeGreaterThanOrEqual(20);
  });

  it('reports incomplete when the bound stops the search before any violation is reached', () => {
    // The cross-tenant read is 21 steps deep: five states cannot reach it.
    const r = check(incident, variantNamed('incident-2026'), {
      engine,
      maxStates: 5,
      properties: ['noCrossTenantRead'],
    });
    expect(r.status).toBe('incomplete');
  });

  it('still reports a violation found within the bound', () => {
    const r = check(incident, variantNamed('incident-2026'), { engine, maxStates: 1500 });
    expect(r.bound?.reason).toBe('maxStates');
    expect(r.status).toBe('violation');
    expect(r.properties.find((p) => p.name === 'rejectedNeverHandedOff')?.status).toBe('violated');
    expect(r.properties.find((p) => p.name === 'noLeakAtQuiescence')?.status).toBe('unknown');
  });

  it('reports incomplete when the time bound is hit', () => {
    const r = check(incident, variantNamed('incident-2026'), { engine, maxSeconds: 1e-9 });
    expect(r.status).toBe('incomplete');
    expect(r.bound?.reason).toBe('maxSeconds');
  });
});

describe('counterexamples', () => {
  let violated: PropertyResult[];
  beforeAll(() => {
    const result = check(incident, variantNamed('incident-2026'));
    violated = result.properties.filter((p) => p.status === 'violated');
  });

  it('are shortest: no violating state is closer to the initial state', () => {
    const noCross = violated.find((p) => p.name === 'noCrossTenantRead');
    // A ran 11 steps to completion and B needs 10 more to read its stale page.
    expect(noCross?.trace?.steps).toHaveLength(21);
    const handoff = violated.find((p) => p.name === 'rejectedNeverHandedOff');
    expect(handoff?.trace?.steps.map((s) => `${s.event} ${s.rid}`)).toEqual([
      'DISPATCH b1',
      'PREFILL_INTAKE b1',
      'DECODE_INTAKE b1',
      'DECODE_PREALLOC b1',
      'PREFILL_BOOTSTRAPPED b1',
      'PREFILL_FORWARD b1',
      'SEND_KV b1',
    ]);
  });
});

describe('lifecycle coverage', () => {
  it.each(engineNames)('records each move from its source to its target (%s engine)', (engine) => {
    const { coverage } = check(incident, variantNamed('fixed'), { engine });
    const commits = coverage.filter((m) => m.event === 'DECODE_COMMIT');
    expect(commits.length).toBeGreaterThan(0);
    for (const m of commits) {
      expect([m.before.decode, m.after.decode]).toEqual([
        'admitted.awaitingKv',
        'admitted.running',
      ]);
    }
  });
});

describe('options', () => {
  it('states every default once: unbounded, fast, no symmetry, fingerprints, breadth first', () => {
    expect(resolveCheckOptions()).toMatchObject({
      engine: 'fast',
      maxStates: Number.POSITIVE_INFINITY,
      maxSeconds: Number.POSITIVE_INFINITY,
      symmetry: false,
      exact: false,
      order: 'breadth',
      requiredWitnesses: [],
    });
  });

  it('refuses fast-engine options for the reference engine instead of ignoring them', () => {
    expect(() => resolveCheckOptions({ engine: 'graph', symmetry: true })).toThrow(/symmetry/);
    expect(() => resolveCheckOptions({ engine: 'graph', order: 'depth' })).toThrow(/depth/);
    expect(() => resolveCheckOptions({ engine: 'graph', maxMemory: 10 })).toThrow(/maxMemory/);
  });

  it('refuses an option it does not have, instead of running without it', () => {
    // What a JavaScript caller may pass: the order option is `order`, not `search`.
    const unknown = (o: object) => () => resolveCheckOptions(o as CheckOptions);
    expect(unknown({ search: 'depth' })).toThrow(
      'unknown check option search; accepted: properties, requiredWitnesses, engine, maxStates, maxSeconds, maxMemory, symmetry, exact, por, order, onProgress, signal, machine, workers, workerLevels',
    );
    expect(unknown({ maxState: 10 })).toThrow(
      'unknown check option maxState; did you mean maxStates?',
    );
    expect(() => check(incident, variantNamed('fixed'), { orde: 'depth' } as CheckOptions)).toThrow(
      'did you mean order?',
    );
    expect(resolveCheckOptions({ order: 'depth', ...{ search: undefined } }).order).toBe('depth');
  });
});

describe('the fast engine’s bounds', () => {
  it('reports incomplete with what was explored when the memory bound stops it', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    // 1 MiB is below any heap Node runs in: the bound stops the search at its first check.
    const r = check(incident, fixed, { maxMemory: 1 });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxMemory', limit: 1 });
    expect(r.stats.states).toBeGreaterThan(0);
    expect(r.stats.states).toBeLessThan(126);
    expect(r.stats.transitions).toBeGreaterThan(0);
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
  });
});

describe('the fast engine under symmetry', () => {
  it.each(['incident-2026', 'retire-only'])(
    'counts the unreduced space exactly, as a run without symmetry does (%s)',
    (name) => {
      const variant = findVariant(name);
      if (!variant) throw new Error(`no variant ${name}`);
      const off = check(twins, variant);
      const on = check(twins, variant, { symmetry: true });
      expect(on.stats.states).toBeLessThan(off.stats.states);
      expect(on.stats.unreducedStates).toBe(off.stats.states);
      expect(off.stats.unreducedStates).toBeUndefined();
      expect(on.status).toBe(off.status);
    },
  );
});

describe('incident-large, the scale scenario', () => {
  it('keeps the incident’s order relations, with two-chunk prefill, a fault and an abort', () => {
    const s = incidentLarge;
    const b1 = s.requests.find((r) => r.id === 'b1');
    if (!b1) throw new Error('no b1');
    expect(new Set(s.requests.map((r) => r.tenant)).size).toBe(3);
    expect(s.requests).toHaveLength(4);
    expect(b1.promptLen).toBeLessThan(s.contextLen);
    expect(b1.promptLen).toBeGreaterThanOrEqual(maxReqInputLen(s, 'prefill'));
    expect(b1.promptLen).toBeLessThan(maxReqInputLen(s, 'decode'));
    expect(s.contextLen).toBeGreaterThan(s.prefillPoolTokens);
    expect(s).toMatchObject({
      prefillChunks: 2,
      transferFaults: true,
      maxTransferFaults: 1,
      clientAborts: true,
      maxClientAborts: 1,
    });
    expect(servingSymmetryGroup(s)).toHaveLength(1);
  });

  it('reaches every required witness under fixed, so that a pass would not be vacuous', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    const r = check(incidentLarge, fixed, {
      symmetry: true,
      order: 'depth',
      maxStates: 20_000,
      requiredWitnesses: incidentLarge.witnesses,
    });
    expect(r.status).toBe('incomplete');
    const required = r.witnesses.filter((w) => w.required);
    expect(required.map((w) => w.name).sort()).toEqual([...incidentLarge.witnesses].sort());
    expect(required.every((w) => w.reached)).toBe(true);
  });

  it('ends incomplete, never ok, under a state bound, counting the unreduced states too', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    const r = check(incidentLarge, fixed, { symmetry: true, maxStates: 3000 });
    expect(r.status).toBe('incomplete');
    expect(r.stats.states).toBe(3000);
    expect(r.stats.unreducedStates).toBeGreaterThan(3000);
    expect(r.stats.unreducedStates).toBeLessThanOrEqual(6000);
  });
});
