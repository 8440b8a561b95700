/**
 * The agreement check shared by the agreement suites: both engines behind `check` give the same
 * `ScenarioResult`, and every counterexample replays through XState's own `transition()` to a
 * state that violates its property with the same message.
 */
import { initialTransition, transition } from 'xstate';
import { properties } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function comparable(r: ScenarioResult) {
  const { engine: _engine, ...rest } = r;
  return { ...rest, stats: { ...rest.stats, ms: 0 } };
}

/** Replays `steps` through XState's `transition()`; the last snapshot's plain state. */
function replay(
  scenario: Scenario,
  variant: Variant,
  steps: readonly { event: string; rid: string }[],
) {
  const machine = createServingMachine(scenario, variant);
  let [snapshot] = initialTransition(machine);
  for (const step of steps) {
    const event = { type: step.event, rid: step.rid } as Parameters<typeof transition>[2];
    const [next] = transition(machine, snapshot, event);
    expect(next, `${step.event} ${step.rid} is enabled`).not.toBe(snapshot);
    snapshot = next as typeof snapshot;
  }
  return { value: snapshot.value as never, context: snapshot.context };
}

/** Checks `scenario` under `variant` on both engines and asserts that they agree. */
export function expectAgreement(scenario: Scenario, variant: Variant): void {
  const options = { requiredWitnesses: scenario.witnesses };
  const fast = check(scenario, variant, options);
  const graph = check(scenario, variant, { ...options, engine: 'graph' });
  expect(graph.status).not.toBe('incomplete');
  expect(comparable(fast)).toEqual(comparable(graph));
  expect(fast.engine).toMatchObject({ name: 'fast', symmetry: false, exact: false });
  for (const p of fast.properties) {
    if (!p.trace) continue;
    const state = replay(scenario, variant, p.trace.steps);
    expect(properties[p.name]?.explain(state), p.name).toBe(p.trace.message);
  }
}
