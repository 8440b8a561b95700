/**
 * The reference engine (`exploreScenario`: `getAdjacencyMap` with kvcheck's compact options)
 * against `xstate/graph`'s `getAdjacencyMap` with its defaults (every event type offered for
 * every request in every state, the default `JSON.stringify({ value, context })` key), on every
 * built-in scenario, in the same run. Numbers compare within one run only. Run through
 * `bench/index.ts` (`npm run bench`), or alone with `npx tsx bench/reference.ts`.
 */
import { getAdjacencyMap } from 'xstate/graph';
import { externalEventTypes } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import { type Variant, variants } from '../machines/variants.ts';
import { scenarios } from '../scenarios/index.ts';
import { exploreScenario } from '../src/checker/stateGraph.ts';
import { table } from '../src/cli/render.ts';
import type { BenchRecord } from './record.ts';

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

/** `getAdjacencyMap` with default options: distinct states and the transitions it stored. */
function baseline(scenario: Scenario, variant: Variant): { states: number; transitions: number } {
  const events = scenario.requests.flatMap((r) =>
    externalEventTypes.map((type) => ({ type, rid: r.id })),
  );
  const map = getAdjacencyMap(createServingMachine(scenario, variant), { events });
  const entries = Object.values(map);
  const transitions = entries.reduce((k, e) => k + Object.keys(e.transitions).length, 0);
  return { states: entries.length, transitions };
}

/**
 * Runs the comparison; prints its table unless `json`, and returns one record per scenario ×
 * variant × engine (`graph`: kvcheck's reference engine; `graph-defaults`: the baseline).
 */
export function referenceBench(json: boolean): BenchRecord[] {
  const records: BenchRecord[] = [];
  const rows: string[][] = [];
  const rate = (states: number, ms: number) => Math.round((states / ms) * 1000);
  for (const scenario of scenarios) {
    for (const variant of variants.filter((v) => ['incident-2026', 'fixed'].includes(v.name))) {
      const ours = timed(() => exploreScenario(scenario, variant));
      const base = timed(() => baseline(scenario, variant));
      const states = ours.value.states.length;
      const transitions = ours.value.edges.reduce((k, e) => k + e.length, 0);
      const at = { scenario: scenario.name, variant: variant.name };
      records.push(
        {
          ...at,
          engine: 'graph',
          states,
          transitions,
          ms: Math.round(ours.ms),
          statesPerSecond: rate(states, ours.ms),
          bytesPerState: null,
        },
        {
          ...at,
          engine: 'graph-defaults',
          ...base.value,
          ms: Math.round(base.ms),
          statesPerSecond: rate(base.value.states, base.ms),
          bytesPerState: null,
        },
      );
      rows.push([
        scenario.name,
        variant.name,
        String(states),
        String(rate(states, ours.ms)),
        String(base.value.states),
        String(rate(base.value.states, base.ms)),
        `${(rate(states, ours.ms) / rate(base.value.states, base.ms)).toFixed(1)}x`,
      ]);
    }
  }
  if (!json) {
    console.log(
      table(
        [
          'scenario',
          'variant',
          'states',
          'states/s',
          'baseline states',
          'baseline states/s',
          'ratio',
        ],
        rows,
        [2, 3, 4, 5, 6],
      ),
    );
    console.log(
      '\nbaseline: xstate/graph getAdjacencyMap with default events and state keys, same machines, same run.\n',
    );
  }
  return records;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const json = process.argv.includes('--json');
  const records = referenceBench(json);
  if (json) for (const r of records) console.log(JSON.stringify(r));
}
