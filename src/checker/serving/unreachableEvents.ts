/**
 * The external events a check need not offer, because no transition of the serving machine can
 * take them. Two kinds:
 * - types no transition can take in any state of a scenario under a variant: every transition
 *   on the type has a guard the scenario's fault settings or the variant's switches make false.
 *   `CLIENT_ABORT` in a scenario without client aborts is one: its only transition is guarded
 *   by `and(isFor, clientAbortsEnabled)`, and `clientAbortsEnabled` is false in every state
 *   when the scenario's `clientAborts` is off (`faultPossible`);
 * - an event for request `rid` in a configuration where every transition that could take it
 *   has a guard that configuration makes false. `ROUTER_REPLY` before both of the request's
 *   sides are done is one: the router forwards a reply on `and(isFor, stateIn(prefill done),
 *   stateIn(decode done))`, or, with fail-fast routing only, on a prefill error.
 *
 * Offering such an event costs a selection that never selects anything (about a quarter of the
 * fast engine's time on the built-in two- and three-request scenarios, where most offered
 * events select nothing) and changes nothing else: a disabled event adds no transition, and a
 * state where nothing is enabled is terminal either way. So states, transitions, verdicts and
 * traces are the same with or without them (the engine agreement tests and the manifest's
 * pinned counts hold that, and `test/checker/unreachableEvents.test.ts` compares searches).
 *
 * Both are read from the machine's statechart as its config writes it (`readStatechart`), with
 * guards read three-valued by name: a fault guard the scenario switches off and a switch guard
 * the variant sets false are false; `isFor` is true exactly for its own request; `stateIn` of a
 * node of the event's own request is read off that request's configuration; everything else
 * (data guards, `isForRoom`, `stateIn` of another request's node) may hold. An event for `rid`
 * is judged by `rid`'s configuration alone, so another request's transition on its type must be
 * false for it in every configuration (its `isFor` names another request) for the event to be
 * left out: the judgement then depends on `rid`'s region value alone, as the offered events'
 * cache does (`servingEvents`).
 */
import type { ExternalEvent } from '../../../machines/events.ts';
import { externalEventTypes } from '../../../machines/events.ts';
import type { RequestId, Scenario } from '../../../machines/scenario.ts';
import type { ServingMachine } from '../../../machines/servingMachine.ts';
import { faultGuards, faultPossible, switchGuards } from '../../../machines/servingSetup.ts';
import type { Variant } from '../../../machines/variants.ts';
import {
  type GuardTerm,
  matchesEventDescriptor,
  readStatechart,
  type StatechartNode,
  type StatechartTransition,
} from '../../engine/index.ts';
import { kleene, switchValue, type Truth } from '../../paths/guards.ts';
import { descendants } from '../../paths/statechart.ts';

/** What the offer leaves out: types never taken, and events a configuration cannot take. */
export interface EventFilter {
  /** Types no transition can take in any state (`mayTake` is false for them everywhere). */
  readonly leftOut: ReadonlySet<ExternalEvent['type']>;
  /**
   * Whether an event of `type` for request `rid` may be taken where `rid`'s active state nodes
   * are `active` (their paths, keys joined by `.`, the request's own key first): false only
   * when no transition can take it there, whatever the context and the other requests.
   */
  mayTake(type: string, rid: RequestId, active: ReadonlySet<string>): boolean;
}

/** What a guard is read against: the event's request, and that request's active node paths. */
interface Reading {
  /** The event's request; null: any request. */
  readonly rid: RequestId | null;
  /** The active node paths of `rid`; null: any configuration. */
  readonly active: ReadonlySet<string> | null;
}

/** A node's transitions on one event type, with the request whose subtree holds the node. */
interface Handler {
  readonly owner: string | undefined;
  readonly path: string;
  readonly transitions: readonly StatechartTransition[];
}

/**
 * The guards of a machine with state nodes `nodes`, for `scenario` under `variant`, read as the
 * module doc says: `truth(term, reading)` is false or true where the names, the scenario, the
 * variant and the reading decide it, else undefined.
 */
function guardReader(nodes: readonly StatechartNode[], scenario: Scenario, variant: Variant) {
  const pathOf = new Map(nodes.map((node) => [node.id, node.path]));
  const truth = (term: GuardTerm | undefined, at: Reading): Truth => {
    if (term === undefined) return true;
    switch (term.kind) {
      case 'named': {
        if (term.type === 'isFor') {
          const own = (term.params as { rid?: unknown } | undefined)?.rid;
          return at.rid === null || typeof own !== 'string' ? undefined : own === at.rid;
        }
        const fault = faultGuards.find((g) => g === term.type);
        if (fault) return faultPossible(scenario, fault) ? undefined : false;
        const sw = switchGuards.find((g) => g === term.type);
        return sw ? switchValue(sw, variant) : undefined;
      }
      case 'in': {
        const path = pathOf.get(term.stateId);
        if (path === undefined || at.active === null || path[0] !== at.rid) return undefined;
        return at.active.has(path.join('.'));
      }
      case 'not': {
        const v = truth(term.args[0], at);
        return v === undefined ? undefined : !v;
      }
      case 'and':
      case 'or':
        return kleene(
          term.kind,
          term.args.map((a) => truth(a, at)),
        );
      default:
        return undefined;
    }
  };
  return truth;
}

/**
 * The transitions of `nodes` by the external event types they handle (a wildcard descriptor,
 * `*` or `prefix.*`, handles every type it matches, as XState selects).
 */
function handlersOf(nodes: readonly StatechartNode[]): ReadonlyMap<string, readonly Handler[]> {
  const byType = new Map<string, Handler[]>();
  for (const node of nodes) {
    for (const [descriptor, transitions] of node.transitions) {
      for (const type of externalEventTypes) {
        if (!matchesEventDescriptor(type, descriptor)) continue;
        let list = byType.get(type);
        if (list === undefined) {
          list = [];
          byType.set(type, list);
        }
        list.push({ owner: node.path[0], path: node.path.join('.'), transitions });
      }
    }
  }
  return byType;
}

/**
 * The events of `machine` (built for `scenario` under `variant` by `createServingMachine`,
 * with its own guard implementations) that no transition can take, as the module doc says.
 * Not for a machine whose guards were replaced (`machine.provide`): the reading is by name.
 */
export function eventFilter(
  machine: ServingMachine,
  scenario: Scenario,
  variant: Variant,
): EventFilter {
  const root = readStatechart(machine);
  const nodes = [root, ...descendants(root)];
  const truth = guardReader(nodes, scenario, variant);
  const byType = handlersOf(nodes);
  const mayFire = (h: Handler, at: Reading) =>
    h.transitions.some((t) => truth(t.guard, at) !== false);
  const anywhere: Reading = { rid: null, active: null };
  const leftOut = new Set(
    externalEventTypes.filter((t) => {
      const handlers = byType.get(t);
      return handlers !== undefined && !handlers.some((h) => mayFire(h, anywhere));
    }),
  );
  // Whether only `rid`'s own nodes can take an event of `type` for `rid`, by type and request.
  const ownOnly = new Map<string, boolean>();
  const onlyOwn = (type: string, rid: RequestId): boolean => {
    const key = `${type}\u0000${rid}`;
    let known = ownOnly.get(key);
    if (known === undefined) {
      const others = (byType.get(type) ?? []).filter((h) => h.owner !== rid);
      known = !others.some((h) => mayFire(h, { rid, active: null }));
      ownOnly.set(key, known);
    }
    return known;
  };
  const never: ReadonlySet<string> = leftOut;
  return {
    leftOut,
    mayTake(type, rid, active) {
      if (never.has(type)) return false;
      if (!onlyOwn(type, rid)) return true;
      const at: Reading = { rid, active };
      return (byType.get(type) ?? []).some(
        (h) => h.owner === rid && active.has(h.path) && mayFire(h, at),
      );
    },
  };
}
