/**
 * The external event types a check need not offer: those that no transition of the serving
 * machine can take in any state of a scenario under a variant, because every transition that
 * handles the type has a guard the scenario's fault settings or the variant's switches make
 * false. `CLIENT_ABORT` in a scenario without client aborts is one: its only transition is
 * guarded by `and(isFor, clientAbortsEnabled)`, and `clientAbortsEnabled` is false in every
 * state when the scenario's `clientAborts` is off (`faultPossible`).
 *
 * Offering such an event costs a selection that never selects anything (about a quarter of
 * the fast engine's time on the built-in two- and three-request scenarios) and changes
 * nothing else: a disabled event adds no transition, and a state where nothing is enabled is
 * terminal either way. So states, transitions, verdicts and traces are the same with or
 * without these types (the manifest's pinned counts and the engine agreement tests hold that).
 *
 * The types are read from the machine's statechart as its config writes it (`readStatechart`),
 * so they follow the model: a guard is known false only by name (a fault guard the scenario
 * switches off, a switch guard the variant sets false) through `and`, `or` and `not`; any
 * other guard, and `stateIn`, may hold.
 */
import type { ExternalEvent } from '../../../machines/events.ts';
import { externalEventTypes } from '../../../machines/events.ts';
import type { Scenario } from '../../../machines/scenario.ts';
import type { ServingMachine } from '../../../machines/servingMachine.ts';
import { faultGuards, faultPossible, switchGuards } from '../../../machines/servingSetup.ts';
import type { Variant } from '../../../machines/variants.ts';
import { type GuardTerm, readStatechart, type StatechartNode } from '../../engine/index.ts';
import { switchValue } from '../../paths/guards.ts';

type Truth = boolean | undefined;

/** `term` as the scenario and variant fix it: false or true where they decide it, else undefined. */
function fixedTruth(term: GuardTerm | undefined, scenario: Scenario, variant: Variant): Truth {
  if (term === undefined) return true;
  switch (term.kind) {
    case 'named': {
      const fault = faultGuards.find((g) => g === term.type);
      if (fault) return faultPossible(scenario, fault) ? undefined : false;
      const sw = switchGuards.find((g) => g === term.type);
      return sw ? switchValue(sw, variant) : undefined;
    }
    case 'not': {
      const v = fixedTruth(term.args[0], scenario, variant);
      return v === undefined ? undefined : !v;
    }
    case 'and':
    case 'or': {
      const vs = term.args.map((a) => fixedTruth(a, scenario, variant));
      const dominant = term.kind === 'or';
      if (vs.includes(dominant)) return dominant;
      return vs.includes(undefined) ? undefined : !dominant;
    }
    default:
      return undefined;
  }
}

function* nodesOf(node: StatechartNode): Generator<StatechartNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* nodesOf(child);
}

/**
 * The external event types of `machine` (built for `scenario` under `variant` by
 * `createServingMachine`, with its own guard implementations) that no transition can take in
 * any state: each transition on the type has a guard that `scenario`'s fault settings or
 * `variant`'s switches make false. A type no node handles is not listed (nothing offers it).
 * Not for a machine whose guards were replaced (`machine.provide`): the reading is by name.
 */
export function unreachableEventTypes(
  machine: ServingMachine,
  scenario: Scenario,
  variant: Variant,
): ReadonlySet<ExternalEvent['type']> {
  const canFire = new Set<string>();
  const handled = new Set<string>();
  for (const node of nodesOf(readStatechart(machine))) {
    for (const [type, transitions] of node.transitions) {
      handled.add(type);
      if (transitions.some((t) => fixedTruth(t.guard, scenario, variant) !== false)) {
        canFire.add(type);
      }
    }
  }
  return new Set(externalEventTypes.filter((t) => handled.has(t) && !canFire.has(t)));
}
