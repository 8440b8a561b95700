/**
 * Partial-order reduction (`src/checker/serving/servingPor.ts`) against the unreduced search,
 * in the same run, every property checked: states, transitions and time with the reduction off
 * and on, on `band-3` × `incident-2026`, `incident-3` × `fixed` and (without `--quick`)
 * `incident-3` × `retire-only`. The bench throws if the two disagree on a verdict. A third
 * column bounds what any reduction along these lines could gain: it treats each step that stays
 * inside its own request block (dispatch, both intakes, the router's reply) as ample on its own,
 * ignoring the dependencies and the visibility that make the real reduction keep them (so its
 * verdicts are not trusted, only its count). `incident-large` is not in the table: neither
 * search finishes it within the bench's bounds.
 */
import type { ServingContext } from '../machines/context.ts';
import type { ExternalEvent } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import { type Variant, variantNamed } from '../machines/variants.ts';
import { band3, incident3 } from '../scenarios/symmetric.ts';
import { servingEvents } from '../src/checker/serving/servingEvents.ts';
import { servingAmple } from '../src/checker/serving/servingPor.ts';
import { type ExploreOptions, type ExploreResult, explore } from '../src/engine/index.ts';
import { n, ratio, table, withProps, withReads } from './engine.ts';
import type { BenchRecord } from './record.ts';

type Options = ExploreOptions<ServingContext, ExternalEvent>;
type Result = ExploreResult<ServingContext, ExternalEvent>;

/** Steps that read and write only their own request's block (measured by `checkServingPor`). */
const ownBlock = new Set(['DISPATCH', 'PREFILL_INTAKE', 'DECODE_INTAKE', 'ROUTER_REPLY']);

/** The optimistic bound's candidates: every own-block event alone (not sound, see above). */
const optimistic: Options['ample'] = (_, offered) =>
  offered.filter((e) => ownBlock.has(e.type)).map((e) => [e]);

function timed(scenario: Scenario, variant: Variant, extra: Options): { r: Result; ms: number } {
  const machine = createServingMachine(scenario, variant);
  const events = servingEvents(scenario.requests.map((r) => r.id));
  const start = performance.now();
  const options = withReads(scenario, { ...withProps, ...extra });
  const r = explore<ServingContext, ExternalEvent>(machine, { events, ...options });
  return { r, ms: performance.now() - start };
}

const verdict = (r: Result) => r.violations.map((v) => `${v.name}:${v.trace.length}`).join();

/** Runs the table; prints it unless `json`; returns one record per run. */
export function porBench(json: boolean, quick: boolean): BenchRecord[] {
  const cases: [Scenario, Variant][] = [
    [band3, variantNamed('incident-2026')],
    [incident3, variantNamed('fixed')],
    ...(quick ? [] : [[incident3, variantNamed('retire-only')] as [Scenario, Variant]]),
  ];
  const records: BenchRecord[] = [];
  const rows: string[][] = [];
  for (const [s, v] of cases) {
    const runs = [
      ['fast+properties', timed(s, v, {})],
      ['fast+properties+por', timed(s, v, { ample: servingAmple(s) })],
      ['fast+properties+por-bound', timed(s, v, { ample: optimistic })],
    ] as const;
    const [off, on, bound] = runs.map(([, x]) => x) as [
      (typeof runs)[0][1],
      (typeof runs)[0][1],
      (typeof runs)[0][1],
    ];
    if (verdict(off.r) !== verdict(on.r)) {
      throw new Error(`${s.name} × ${v.name}: POR ${verdict(on.r)}, unreduced ${verdict(off.r)}`);
    }
    for (const [engine, { r, ms }] of runs) {
      records.push({
        scenario: s.name,
        variant: v.name,
        engine,
        states: r.stats.states,
        transitions: r.stats.transitions,
        ms: Math.round(ms),
        statesPerSecond: Math.round((r.stats.states / ms) * 1000),
        bytesPerState: r.stats.bytesPerState,
        status: r.status,
      });
    }
    rows.push([
      s.name,
      v.name,
      n(off.r.stats.states),
      n(on.r.stats.states),
      ratio(off.r.stats.states, on.r.stats.states),
      n(Math.round(off.ms)),
      n(Math.round(on.ms)),
      n(bound.r.stats.states),
      ratio(off.r.stats.states, bound.r.stats.states),
    ]);
  }
  if (!json) {
    console.log('\nPartial-order reduction, every property (bound = unsound optimistic bound):\n');
    const head = 'scenario|variant|states|states (POR)|reduction|ms|ms (POR)|states (bound)|bound';
    console.log(table(head, rows));
  }
  return records;
}
