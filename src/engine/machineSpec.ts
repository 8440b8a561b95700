/**
 * Plain descriptors of a machine inside the supported subset, as `xstateInternals.ts` reads
 * them from XState's state nodes. Nodes are indexed by XState's document order (`order`), which
 * is pre-order: a parent comes before its children, siblings in declaration order.
 */
import type { EventObject } from 'xstate';
import type { ActiveNode } from './types.ts';

/** State-node kinds inside the subset. */
export type NodeKind = 'atomic' | 'compound' | 'parallel' | 'final';

/** The arguments XState passes to guard implementations. */
export interface GuardArgs {
  readonly context: unknown;
  readonly event: EventObject;
}

/** A guard implementation as `setup({ guards })` or an inline guard provides it. */
export type GuardImpl = (args: GuardArgs, params: unknown) => boolean;

/** A dynamic `params` function, evaluated against the context of the moment. */
export type ParamsFn = (args: GuardArgs) => unknown;

/** A guard, resolved against the machine's implementations. */
export type GuardSpec =
  | {
      readonly kind: 'predicate';
      readonly name: string;
      readonly fn: GuardImpl;
      readonly params: unknown;
      readonly paramsFn: ParamsFn | null;
    }
  | { readonly kind: 'and' | 'or'; readonly guards: readonly GuardSpec[] }
  | { readonly kind: 'not'; readonly guard: GuardSpec }
  | { readonly kind: 'stateInNode'; readonly order: number }
  | { readonly kind: 'stateInValue'; readonly value: unknown }
  | { readonly kind: 'missing'; readonly name: string }
  | { readonly kind: 'throws'; readonly message: string };

/** The arguments XState passes to `assign` and `raise` expressions. */
export interface ActionArgs {
  readonly context: unknown;
  readonly event: EventObject;
  readonly self: unknown;
  readonly system: unknown;
  readonly spawn?: unknown;
}

/** An `assign` expression: a function returning a partial context, or a per-key object. */
export type Assignment =
  | ((args: ActionArgs, params: unknown) => unknown)
  | Readonly<Record<string, unknown>>;

/** A `raise` expression: a static event or a function of the moment and params. */
export type RaiseEvent = EventObject | ((args: ActionArgs, params: unknown) => EventObject);

/** An action inside the subset. `noop` covers custom actions, which never run in traversal. */
export type ActionSpec =
  | {
      readonly kind: 'assign';
      readonly assignment: Assignment;
      readonly params: unknown;
      readonly paramsFn: ParamsFn | null;
    }
  | {
      readonly kind: 'raise';
      readonly event: RaiseEvent;
      readonly params: unknown;
      readonly paramsFn: ParamsFn | null;
    }
  | { readonly kind: 'noop' };

/** One transition definition, in XState's order for its source node. */
export interface TransitionSpec {
  /** The event descriptor (`EVENT`, `*`, `prefix.*`, `xstate.done.state.<id>`). */
  readonly descriptor: string;
  /** Target node orders; null for a targetless transition. */
  readonly targets: readonly number[] | null;
  readonly reenter: boolean;
  readonly guard: GuardSpec | null;
  readonly actions: readonly ActionSpec[];
}

/** One state node. */
export interface NodeSpec {
  readonly order: number;
  readonly id: string;
  readonly key: string;
  readonly kind: NodeKind;
  /** Parent order, -1 for the root. */
  readonly parent: number;
  /** Child orders in document order. */
  readonly children: readonly number[];
  /** Initial child order of a compound node, else -1. */
  readonly initial: number;
  readonly entry: readonly ActionSpec[];
  readonly exit: readonly ActionSpec[];
  /** Every transition of the node, grouped by descriptor in XState's map order. */
  readonly transitions: readonly TransitionSpec[];
  /** Event types with a non-inert transition from this node (XState's `ownEvents`). */
  readonly ownEvents: readonly string[];
  readonly tags: readonly string[];
  /** What `events` functions see of the node (`SnapshotLike.activeNodes`), frozen. */
  readonly active: ActiveNode;
}

/** A machine inside the subset. */
export interface MachineSpec {
  readonly id: string;
  /** Nodes indexed by document order; `nodes[0]` is the root. */
  readonly nodes: readonly NodeSpec[];
}
