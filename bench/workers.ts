/**
 * The parallel search (`--workers`) against one thread, in the same run: `checkAsync` with
 * every property, one thread and then two, on `incident-3` × `fixed` (93,213 states, whole)
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
import type { CheckOptions } from '../src/checker/checkOptions.ts';
import { n, table } from './engine.ts';
import type { BenchRecord } from './record.ts';

/** One case: a scenario under a variant with options. */
type Case = readonly [Scenario, string, CheckOptions];

/** Runs one check and returns its record, timed from the call (worker start-up included). */
async function measure([scenario, variant, options]: Case, workers: number): Promise<BenchRecord> {
  const start = performance.now();
  const r = await checkAsync(scenario, variantNamed(variant), { ...options, workers });
  const ms = performance.now() - start;
  return {
    scenario: scenario.name,
    variant,
    engine: workers === 1 ? 'fast+properties' : `fast+properties, ${workers} workers`,
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
  for (const c of cases) {
    const one = await measure(c, 1);
    const two = await measure(c, 2);
    const key = (r: BenchRecord) => [r.states, r.transitions, r.unreducedStates, r.status].join();
    if (key(one) !== key(two)) {
      throw new Error(`${one.scenario}: two workers found ${key(two)}, one thread ${key(one)}`);
    }
    records.push(one, two);
    const speedup = `${(one.ms / two.ms).toFixed(2)}x`;
    const name = `${one.scenario} × ${one.variant}`;
    rows.push([name, one.status ?? '', n(one.states), n(one.ms), n(two.ms), speedup]);
  }
  if (!json) {
    process.stdout.write('\nThe parallel search, every property (worker start-up included):\n\n');
    process.stdout.write(
      `${table('scenario × variant|verdict|states|1 thread ms|2 workers ms|speed-up', rows)}\n`,
    );
  }
  return records;
}
