/**
 * The states a counterexample passes through, recovered from its events: the trace's steps run
 * through XState's own `transition()` on the machine its variant builds, from the initial state,
 * each state decoded (`decodeContext`). The ITF export writes them as the model's state variables.
 */
import { initialTransition, transition } from 'xstate';
import type { DecodedContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import type { RegionSnapshot } from '../checker/outcome.ts';
import { plainState } from '../checker/scenarioResult.ts';
import { regionSnapshot } from '../checker/stepChanges.ts';
import type { ReplayStep } from './replay.ts';

/** Whether two snapshots put every region of every request in the same state. */
function sameRegions(a: RegionSnapshot, b: RegionSnapshot): boolean {
  const rids = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...rids].every((rid) => requestRegions.every((r) => a[rid]?.[r] === b[rid]?.[r]));
}

/**
 * The decoded context of every state of `steps` on `scenario` under `variant`: the initial
 * state's, then the one after each step (`steps.length + 1` contexts). The steps must be a run of
 * that machine, as the counterexamples `check` finds on it are: throws an Error naming the step
 * when an event is not enabled or leads elsewhere than the step's regions say.
 */
export function traceContexts(
  scenario: Scenario,
  variant: Variant,
  steps: readonly ReplayStep[],
): DecodedContext[] {
  const machine = createServingMachine(scenario, variant);
  let [snapshot] = initialTransition(machine);
  const contexts = [decodeContext(snapshot.context)];
  for (const [i, step] of steps.entries()) {
    const event = { type: step.event, rid: step.rid } as ExternalEvent;
    const [next] = transition(machine, snapshot, event);
    if (next === snapshot || !sameRegions(step.regions, regionSnapshot(plainState(next)))) {
      throw new Error(
        `step ${i + 1} (${step.event} ${step.rid}) is not a step of ${scenario.name} under ${variant.name}`,
      );
    }
    contexts.push(decodeContext(next.context));
    snapshot = next;
  }
  return contexts;
}
