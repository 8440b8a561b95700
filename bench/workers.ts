/**
 * The parallel search (`--workers`) against one thread, in the same run: `checkAsync` with
 * every property, one thread, then two workers from the start, then two as `--workers auto`
 * starts them (once the search has stored 250,000 states), on `incident-3` × `fixed` (93,213
 * states, whole) and, without `--quick`, on `incident-3` × `incident-2026` (2,110,847 states,
 * whole: a three-request space large enough for the workers' start to matter little) and on
 * `incident-large` × `fixed` under symmetry up to 400,000 representatives. Every run of a case
 * must agree on states, transitions and verdict (the bench throws otherwise). It runs in rounds,
 * the three configurations in turn, each first in one round, so that a slow spell of the
 * machine moves all three; the table gives the median round's times and the median speed-up,
 * with the lowest and highest, which depend on the cores free.
 */
import type { Scenario } from '../machines/scenario.ts';
import { variantNamed } from '../machines/variants.ts';
import { incidentLarge } from '../scenarios/large.ts';
import { incident3 } from '../scenarios/symmetric.ts';
import { checkAsync } from '../src/checker/check.ts';
import { autoWorkers, type CheckOptions } from '../src/checker/checkOptions.ts';
import { n, ratioCell, table } from './engine.ts';
import type { BenchRecord } from './record.ts';

/** One case: a scenario under a variant with options. */
type Case = readonly [Scenario, string, CheckOptions];

/**
 * Runs one check and returns its record, timed from the call (worker start-up included);
 * `late`: the workers start as `--workers auto` starts them.
 */
async function measure(
  [scenario, variant, options]: Case,
  workers: number,
  late = false,
): Promise<BenchRecord> {
  const start = performance.now();
  const r = await checkAsync(scenario, variantNamed(variant), {
    ...options,
    workers,
    ...(late ? { workerLevels: { start: autoWorkers.start } } : {}),
  });
  const ms = performance.now() - start;
  const threads = `${workers} workers${late ? ` from ${n(autoWorkers.start)} states` : ''}`;
  return {
    scenario: scenario.name,
    variant,
    engine: workers === 1 ? 'fast+properties' : `fast+properties, ${threads}`,
    states: r.stats.states,
    transitions: r.stats.transitions,
    ms: Math.round(ms),
    statesPerSecond: Math.round((r.stats.states / ms) * 1000),
    bytesPerState: null,
    ...(r.stats.unreducedStates !== undefined ? { unreducedStates: r.stats.unreducedStates } : {}),
    status: r.status,
  };
}

/** Rounds of each case: each configuration runs once a round, and goes first in one of them. */
export const workerRounds = 3;

/** The three configurations of a case: one thread, two workers, two started as `auto` does. */
const configurations = [
  [1, false],
  [2, false],
  [2, true],
] as const;

/**
 * `records`, one per round, as one record: the median round's, with the median over the rounds
 * of time(`one[i]`) / time(`records[i]`) as its speed-up and the lowest and highest of them as
 * its range (none for one thread itself).
 */
export function medianRound(
  records: readonly BenchRecord[],
  one: readonly BenchRecord[],
): BenchRecord {
  const byTime = [...records].sort((x, y) => x.ms - y.ms);
  const middle = byTime[Math.floor((byTime.length - 1) / 2)];
  if (middle === undefined) throw new Error('no round');
  if (records === one) return middle;
  const ups = records.map((r, i) => (one[i] as BenchRecord).ms / r.ms);
  const sorted = [...ups].sort((x, y) => x - y);
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return {
    ...middle,
    speedUp: round2(sorted[Math.floor((sorted.length - 1) / 2)] as number),
    speedUpRange: [round2(sorted[0] as number), round2(sorted.at(-1) as number)],
  };
}

/**
 * The records of one thread, two workers and two started late, each the median of
 * `workerRounds` alternating rounds; throws when two runs disagree on anything but time.
 */
export async function workersBench(json: boolean, quick: boolean): Promise<BenchRecord[]> {
  const cases: Case[] = [
    [incident3, 'fixed', {}],
    ...(quick
      ? []
      : ([
          [incident3, 'incident-2026', {}],
          [incidentLarge, 'fixed', { symmetry: true, maxStates: 400_000 }],
        ] as Case[])),
  ];
  const records: BenchRecord[] = [];
  const rows: string[][] = [];
  // One untimed run first, so that the first timed one does not pay for the JIT alone.
  await measure(cases[0] as Case, 1);
  const key = (r: BenchRecord) => [r.states, r.transitions, r.unreducedStates, r.status].join();
  for (const c of cases) {
    const runs: BenchRecord[][] = configurations.map(() => []);
    for (let round = 0; round < workerRounds; round++) {
      for (let k = 0; k < configurations.length; k++) {
        const at = (round + k) % configurations.length;
        const [workers, late] = configurations[at] as (typeof configurations)[number];
        (runs[at] as BenchRecord[]).push(await measure(c, workers, late));
      }
    }
    const first = runs[0]?.[0] as BenchRecord;
    for (const r of runs.flat()) {
      if (key(r) !== key(first)) {
        throw new Error(`${first.scenario}: ${r.engine} found ${key(r)}, one thread ${key(first)}`);
      }
    }
    const [one, two, auto] = runs.map((rs) => medianRound(rs, runs[0] as BenchRecord[])) as [
      BenchRecord,
      BenchRecord,
      BenchRecord,
    ];
    records.push(one, two, auto);
    const speedup = (r: BenchRecord) =>
      ratioCell(r.speedUp ?? Number.NaN, r.speedUpRange ?? [Number.NaN, Number.NaN]);
    rows.push([
      `${one.scenario} × ${one.variant}`,
      one.status ?? '',
      n(one.states),
      n(one.ms),
      n(two.ms),
      speedup(two),
      n(auto.ms),
      speedup(auto),
    ]);
  }
  if (!json) {
    process.stdout.write(
      `\nThe parallel search, every property (worker start-up included); auto = two workers started as --workers auto starts them, once ${n(autoWorkers.start)} states are stored. Each case runs ${workerRounds} rounds, each configuration first in one; times are the median round's, speed-ups the median of the rounds' time(1 thread) / time(this), in brackets the lowest and highest:\n\n`,
    );
    process.stdout.write(
      `${table('scenario × variant|verdict|states|1 thread ms|2 workers ms|speed-up|auto ms|speed-up', rows)}\n`,
    );
  }
  return records;
}
