/**
 * A machine's statechart as plain, typed data, read by `readStatechart` (`xstateInternals.ts`):
 * its state nodes with their transitions, guards and actions as the machine's config writes
 * them, unresolved (a guard keeps its name and params, an action its type and params). For
 * tools that reason about a machine's shape rather than run it: drawing, and structural path
 * checks. Node objects are shared: a transition's target is the node object itself.
 */

/** A guard as the config writes it, before any implementation is looked up. */
export type GuardTerm =
  /** A guard by name: `'isFor'` or `{ type, params }`. */
  | { readonly kind: 'named'; readonly type: string; readonly params: unknown }
  /** `stateIn('#id')`, with the id without `#`. */
  | { readonly kind: 'in'; readonly stateId: string }
  /** XState's `and`, `or` and `not`, arguments in order (`not` has one). */
  | { readonly kind: 'and' | 'or' | 'not'; readonly args: readonly GuardTerm[] }
  /** An inline guard function or anything else without structure; `name` is for messages. */
  | { readonly kind: 'opaque'; readonly name: string };

/**
 * An action as the config writes it: a name or `{ type, params }`. A built-in action (`assign`,
 * `raise`) reads as its XState type (`xstate.assign`); an inline function as its name, or
 * `anonymous`.
 */
export interface ActionRef {
  readonly type: string;
  readonly params: unknown;
}

/** One transition of a state node, in document order. */
export interface StatechartTransition {
  /** Undefined for an unguarded transition. */
  readonly guard: GuardTerm | undefined;
  /** Undefined for a targetless transition (no change of state). */
  readonly target: readonly StatechartNode[] | undefined;
  readonly actions: readonly ActionRef[];
}

/** One state node of a statechart. */
export interface StatechartNode {
  readonly id: string;
  /** The node's own key (`placeholder`); the machine's id for the root. */
  readonly key: string;
  readonly type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** Keys from the root's child down to this node; `[]` for the root. */
  readonly path: readonly string[];
  readonly tags: readonly string[];
  /** Child nodes by key, in document order. */
  readonly states: Readonly<Record<string, StatechartNode>>;
  /** Undefined for the root. */
  readonly parent: StatechartNode | undefined;
  /** The initial child of a compound node (one target); no target otherwise. */
  readonly initial: { readonly target: readonly StatechartNode[] };
  /** Event type → transitions in document order (`onDone` under its done event type). */
  readonly transitions: ReadonlyMap<string, readonly StatechartTransition[]>;
  /** Whether the node has eventless (`always`) transitions. */
  readonly eventless: boolean;
  readonly entry: readonly ActionRef[];
}
