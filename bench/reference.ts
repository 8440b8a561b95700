/**
 * `npm run bench`: states per second of kvcheck's reference engine on every built-in scenario,
 * as a ratio against a baseline measured in the same run: `xstate/graph`'s `getAdjacencyMap`
 * with its defaults (every event type offered for every request in every state, the default
 * `JSON.stringify({ value, context })` key). Numbers are for comparison within one run only.
 */
import { getAdjacencyMap } from 'xstate/graph';
import { externalEventTypes } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import { type Variant, variants } from '../machines/variants.ts';
import { scenarios } from '../scenarios/index.ts';
import { exploreScenario } from '../src/checker/stateGraph.ts';
import { table } from '../src/cli/render.ts';

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

function baseline(scenario: Scenario, variant: Variant): number {
  const events = scenario.requests.flatMap((r) =>
    externalEventTypes.map((type) => ({ type, rid: r.id })),
  );
  return Object.keys(getAdjacencyMap(createServingMachine(scenario, variant), { events })).length;
}

const rows: string[][] = [];
for (const scenario of scenarios) {
  for (const variant of variants.filter((v) => ['incident-2026', 'fixed'].includes(v.name))) {
    const ours = timed(() => exploreScenario(scenario, variant).states.length);
    const base = timed(() => baseline(scenario, variant));
    const rate = (states: number, ms: number) => Math.round((states / ms) * 1000);
    rows.push([
      scenario.name,
      variant.name,
      String(ours.value),
      String(rate(ours.value, ours.ms)),
      String(base.value),
      String(rate(base.value, base.ms)),
      `${(rate(ours.value, ours.ms) / rate(base.value, base.ms)).toFixed(1)}x`,
    ]);
  }
}
console.log(
  table(
    ['scenario', 'variant', 'states', 'states/s', 'baseline states', 'baseline states/s', 'ratio'],
    rows,
    [2, 3, 4, 5, 6],
  ),
);
console.log(
  '\nbaseline: xstate/graph getAdjacencyMap with default events and state keys, same machines, same run.',
);
