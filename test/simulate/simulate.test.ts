/**
 * Random simulation: walks check every property on every step, a failure is shrunk to a trace
 * that still violates the property in a replay, the same seed gives the same result, and a
 * search that finds nothing is `incomplete`, never `ok`.
 *
 * The seed is pinned (KVCHECK_SEED, else 20261026) and printed in the titles.
 */
import { describe, expect, it } from 'vitest';
import { properties } from '../../invariants/index.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/incident.ts';
import { entry as b3Entry } from '../../src/catalogue/entries/b3.ts';
import { check } from '../../src/checker/check.ts';
import { depthDistribution } from '../../src/simulate/depths.ts';
import { replay } from '../../src/simulate/shrink.ts';
import { type SimulationResult, simulate } from '../../src/simulate/simulate.ts';
import { ServingStepper } from '../../src/simulate/stepper.ts';
import { pinnedSeed } from '../properties/scenarioArbitraries.ts';

const seed = pinnedSeed();

/** The incident's sizes with six requests over three tenants, and room in decode for them. */
const crowded: Scenario = {
  ...incident,
  name: 'incident-6',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
    { id: 'c1', tenant: 'C', promptLen: 2, outputLen: 2 },
    { id: 'a2', tenant: 'A', promptLen: 3, outputLen: 2 },
    { id: 'b2', tenant: 'B', promptLen: 1, outputLen: 2 },
    { id: 'c2', tenant: 'C', promptLen: 3, outputLen: 2 },
  ],
  decodePoolTokens: 12,
};

/** A trace's events, as the stepper takes them. */
function eventsOf(steps: readonly { event: string; rid: string }[]): ExternalEvent[] {
  return steps.map((s) => ({ type: s.event, rid: s.rid }) as ExternalEvent);
}

/** The result without its wall-clock figures, which differ from run to run. */
function withoutTiming(r: SimulationResult): unknown {
  const { ms: _ms, ...stats } = r.stats;
  const { runsPerSecond: _rps, shrinkMs: _shrink, ...simulation } = r.simulation;
  return { ...r, stats, simulation };
}

describe(`simulate (seed: ${seed})`, () => {
  it('is beyond exhaustive search on six requests: a bounded check is incomplete', () => {
    const r = check(crowded, variantNamed('incident-2026'), {
      properties: ['noCrossTenantRead'],
      maxStates: 5_000,
    });
    expect(r.status).toBe('incomplete');
  });

  it('catches noCrossTenantRead on six requests and shrinks it to at most two', () => {
    const r = simulate(crowded, variantNamed('incident-2026'), {
      runs: 150,
      seed,
      properties: ['noCrossTenantRead'],
    });
    expect(r.status).toBe('violation');
    const p = r.properties[0];
    expect(p?.status).toBe('violated');
    const steps = p?.trace?.steps ?? [];
    const rids = new Set(steps.map((s) => s.rid));
    expect(rids.size).toBeLessThanOrEqual(2);
    expect(steps.at(-1)?.changes.some((c) => c.kind === 'slotRead' && c.foreign)).toBe(true);
    const report = r.simulation.shrinks[0];
    expect(report?.property).toBe('noCrossTenantRead');
    expect(report?.steps).toBe(steps.length);
    expect(report?.requests).toBe(rids.size);
    expect(report?.steps).toBeLessThanOrEqual(report?.walkSteps ?? 0);
    // The shrunk trace is a real run: replayed event by event, every event is enabled and the
    // last state violates the property.
    const stepper = new ServingStepper(crowded, variantNamed('incident-2026'));
    const prop = properties.noCrossTenantRead;
    if (!prop) throw new Error('missing property');
    const events = eventsOf(steps);
    const again = replay(stepper, prop, events);
    expect(again?.events.length).toBe(steps.length);
    // 1-minimal: without any one of its steps, no replay violates the property sooner.
    for (let i = 0; i < events.length; i++) {
      const shorter = replay(stepper, prop, [...events.slice(0, i), ...events.slice(i + 1)]);
      expect(shorter === null || shorter.events.length >= steps.length).toBe(true);
    }
  });

  it('replays exactly with the same seed, and walks differently with another', () => {
    const run = (s: number) =>
      simulate(incident, variantNamed('incident-2026'), { runs: 40, seed: s, depth: 30 });
    const a = run(seed);
    const b = run(seed);
    expect(withoutTiming(b)).toEqual(withoutTiming(a));
    expect(a.simulation.seed).toBe(seed);
    const c = run(seed + 1);
    expect(c.simulation.seed).toBe(seed + 1);
    expect(JSON.stringify(withoutTiming(c))).not.toBe(JSON.stringify(withoutTiming(a)));
  });

  it('finds nothing in fixed and says incomplete, every property unknown', () => {
    const r = simulate(incident, variantNamed('fixed'), { runs: 30, seed });
    expect(r.status).toBe('incomplete');
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
    expect(r.simulation.depths.terminal).toBe(30);
    expect(r.simulation.shrinks).toEqual([]);
  });

  it('stops walks at the depth bound and reports them as cut off', () => {
    const r = simulate(incident, variantNamed('fixed'), { runs: 10, seed, depth: 5 });
    expect(r.status).toBe('incomplete');
    expect(r.stats.depth).toBe(5);
    expect(r.simulation.depths).toMatchObject({ min: 5, max: 5, terminal: 0, cutOff: 10 });
    expect(r.stats.transitions).toBe(50);
  });

  it('checks terminal properties where a walk ends: a deadlock is caught and replays', () => {
    // Catalogue entry B3: prefill retires a prompt its scheduler rejects, and decode, with no
    // waiting timeout, waits for KV that never comes.
    const { scenario: s, variant: b3 } = b3Entry;
    const r = simulate(s, b3, { runs: 30, seed, properties: ['noDeadlock'] });
    expect(r.status).toBe('violation');
    const trace = r.properties[0]?.trace;
    expect(trace?.message).toMatch(/stuck: decode in admitted\.awaitingKv/);
    const stepper = new ServingStepper(s, b3);
    const prop = properties.noDeadlock;
    if (!prop || !trace) throw new Error('missing property or trace');
    expect(replay(stepper, prop, eventsOf(trace.steps))?.events).toHaveLength(trace.steps.length);
  });

  it('summarises walk depths as figures and a histogram that counts every walk', () => {
    const d = depthDistribution([3, 5, 5, 9, 10], 4, 4);
    expect(d).toMatchObject({ min: 3, median: 5, mean: 6.4, max: 10, terminal: 4, cutOff: 1 });
    expect(d.histogram.reduce((n, b) => n + b.runs, 0)).toBe(5);
    expect(d.histogram[0]).toEqual({ from: 3, to: 4, runs: 1 });
    expect(depthDistribution([], 0).histogram).toEqual([]);
  });
});
