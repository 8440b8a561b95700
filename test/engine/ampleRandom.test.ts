/**
 * Differential test of the engine's partial-order reduction (`ExploreOptions.ample`) on random
 * machines: parallel regions, each a random graph over its own events (cycles, branches and
 * dead ends included), with invariants that read two watched regions and a terminal invariant.
 * The other regions' events are independent of every event outside their region and invisible,
 * so each such region's offered events form an ample candidate. A candidate that includes a
 * watched region's events is caught (the last test). The reduced search must give
 * the violations of the full one, each with the same shortest trace length, keep every
 * deadlock, and store no more states.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { explore, type StateProjection } from '../../src/engine/index.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed(20261205);

/** One region: `edges[s]` lists the targets of state `s`'s events, one event per edge. */
type RegionSpec = readonly (readonly number[])[];

const regionArb: fc.Arbitrary<RegionSpec> = fc.integer({ min: 2, max: 4 }).chain((n) =>
  fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 2 }), {
    minLength: n,
    maxLength: n,
  }),
);

/** Three to five regions; regions `r0` and `r1` are the ones the invariants watch. */
const regionsArb = fc.array(regionArb, { minLength: 3, maxLength: 5 });

/** The event of edge `j` of state `s` in region `r`. */
const eventOf = (r: number, s: number, j: number) => `R${r}S${s}E${j}`;

function machineOf(regions: readonly RegionSpec[]): {
  machine: AnyStateMachine;
  events: { type: string }[];
} {
  const states = Object.fromEntries(
    regions.map((edges, r) => [
      `r${r}`,
      {
        initial: 's0',
        states: Object.fromEntries(
          edges.map((targets, s) => [
            `s${s}`,
            { on: Object.fromEntries(targets.map((t, j) => [eventOf(r, s, j), `s${t}`])) },
          ]),
        ),
      },
    ]),
  );
  const events = regions.flatMap((edges, r) =>
    edges.flatMap((targets, s) => targets.map((_, j) => ({ type: eventOf(r, s, j) }))),
  );
  return { machine: setup({}).createMachine({ id: 'random', type: 'parallel', states }), events };
}

const at = (s: StateProjection<unknown>, region: string) =>
  (s.value as Record<string, string>)[region];
const invariants = {
  neverBothS1: (s: StateProjection<unknown>) => !(at(s, 'r0') === 's1' && at(s, 'r1') === 's1'),
  neverS3: (s: StateProjection<unknown>) => at(s, 'r0') !== 's3',
  r1MovesFirst: (s: StateProjection<unknown>) => !(at(s, 'r0') === 's1' && at(s, 'r1') === 's0'),
};
/** Fails in every deadlock, so the violation says whether (and how soon) one is reachable. */
const terminalInvariants = { noDeadlock: () => false };

/** Per region other than the `watched` ones, its offered events, in region order. */
const byRegion =
  (watched: readonly string[] = ['R0', 'R1']) =>
  (_: unknown, offered: readonly { type: string }[]) => {
    const groups = new Map<string, { type: string }[]>();
    for (const e of offered) {
      const region = e.type.slice(0, e.type.indexOf('S'));
      if (watched.includes(region)) continue;
      groups.set(region, [...(groups.get(region) ?? []), e]);
    }
    return [...groups.values()];
  };

const verdicts = (r: ReturnType<typeof explore>) =>
  r.violations.map((v) => `${v.name}:${v.trace.length}:${v.shortest ?? true}`).sort();

describe(`ample sets on random machines (seed: ${seed})`, () => {
  test.prop([regionsArb], { seed, numRuns: 150 })(
    'keep every violation and deadlock with its shortest trace length, in both search orders',
    (regions) => {
      const { machine, events } = machineOf(regions);
      for (const order of ['breadth', 'depth'] as const) {
        const base = { events, invariants, terminalInvariants, order };
        const full = explore(machine, base);
        const reduced = explore(machine, { ...base, ample: byRegion() });
        expect(verdicts(reduced)).toEqual(verdicts(full));
        expect(reduced.stats.states).toBeLessThanOrEqual(full.stats.states);
      }
    },
  );

  // Cycles make the proviso expand fully where a successor is stored already, so not all do;
  // how many do depends on the seed.
  it('are a real reduction: some generated spaces shrink', () => {
    const samples = fc.sample(regionsArb, { seed, numRuns: 150 });
    const shrunk = samples.filter((regions) => {
      const { machine, events } = machineOf(regions);
      const base = { events, invariants, terminalInvariants };
      return (
        explore(machine, { ...base, ample: byRegion() }).stats.states <
        explore(machine, base).stats.states
      );
    });
    expect(shrunk.length).toBeGreaterThan(0);
  });
});

describe('a visible candidate', () => {
  it('hides a violation: the differential above can fail', () => {
    // r0 and r1 each take one step; the violation needs r0's step first. Expanding r1 alone,
    // as if it were invisible, takes r1's step first, and the violating state is never stored.
    const { machine, events } = machineOf([[[1], []], [[1], []], [[]]]);
    const base = { events, invariants, terminalInvariants };
    expect(verdicts(explore(machine, base))).toContain('r1MovesFirst:1:true');
    const hidden = explore(machine, { ...base, ample: byRegion(['R0']) });
    expect(verdicts(hidden).some((v) => v.startsWith('r1MovesFirst'))).toBe(false);
  });
});
