/**
 * The parallel search (`--workers`) against one thread, in the same run: `checkAsync` with
 * every property, one thread, then two workers from the start, then two as `--workers auto`
 * starts them (once the search has stored 250,000 states), on `incident-3` × `fixed` (93,213
 * states, whole)
 * and, without `--quick`, on `incident-3` × `incident-2026` (2,110,847 states, whole: a
 * three-request space large enough for the workers' start to matter little) and on
 * `incident-large` × `fixed` under symmetry up to 400,000 representatives. Each pair must agree
 * on states, transitions and verdict (the bench throws otherwise); the table gives the times
 * and the speed-up, which depends on the cores free.
 */
import type { Scenario } from '../machines/scenario.ts';
import { variantNamed } from '../machines/variants.ts';
import { incidentLarge } from '../scenarios/large.ts';
import { incident3 } from '../scenarios/symmetric.ts';
import { checkAsync } from '../src/checker/check.ts';
import { autoWorkers, type CheckOptions } from '../src/checker/checkOptions.ts';
import { n, table } from './engine.ts';
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

/** The records of one and two workers; throws when the two disagree on anything but time. */
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
  for (const c of cases) {
    const one = await measure(c, 1);
    const two = await measure(c, 2);
    const auto = await measure(c, 2, true);
    const key = (r: BenchRecord) => [r.states, r.transitions, r.unreducedStates, r.status].join();
    for (const other of [two, auto]) {
      if (key(one) !== key(other)) {
        throw new Error(
          `${one.scenario}: ${other.engine} found ${key(other)}, one thread ${key(one)}`,
        );
      }
    }
    records.push(one, two, auto);
    const speedup = (r: BenchRecord) => `${(one.ms / r.ms).toFixed(2)}x`;
    const name = `${one.scenario} × ${one.variant}`;
    rows.push([
      name,
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
      `\nThe parallel search, every property (worker start-up included); auto = two workers started as --workers auto starts them, once ${n(autoWorkers.start)} states are stored:\n\n`,
    );
    process.stdout.write(
      `${table('scenario × variant|verdict|states|1 thread ms|2 workers ms|speed-up|auto ms|speed-up', rows)}\n`,
    );
  }
  return records;
}
