/**
 * The static structure of a statechart as plain data, the input of every statechart exporter
 * (Mermaid, DOT, SVG) and of the report's coverage tables. Built from a machine's state nodes as
 * a variant wires them: a transition whose guard a switch makes false is kept but marked
 * `disabled`, so a diagram can grey it out and a diff can show it.
 */

/** What kind of state a node is. */
export type ChartNodeKind = 'atomic' | 'compound' | 'parallel' | 'final';

/** One state node. */
export interface ChartStateNode {
  /** Unique within the chart: the dot path from the chart's root (`prefill.placeholder.waiting`). */
  readonly id: string;
  /** The node's own key (`waiting`). */
  readonly key: string;
  readonly kind: ChartNodeKind;
  /** XState tags (`rejected`, `decoding`). */
  readonly tags: readonly string[];
  /** For compound nodes: the id of the initial child. */
  readonly initial?: string;
  /** Child node ids, in document order. */
  readonly children: readonly string[];
  /** The parent's id, absent for the chart's root. */
  readonly parent?: string;
  /** Entry action names in order; absent when the state has none. */
  readonly entry?: readonly string[];
  /**
   * Only on a chart built for a variant: true when no run can enter the state, because every
   * edge that would enter it is disabled or leaves an unreachable state (see `ChartEdge`).
   */
  readonly unreachable?: boolean;
}

/** One transition. */
export interface ChartEdge {
  /** Source node id. */
  readonly source: string;
  /** Target node id; equal to `source` for a targetless transition. */
  readonly target: string;
  /** The event type (`PREFILL_INTAKE`), or an internal event raised by another region. */
  readonly event: string;
  /** Whether another region raises this event within the same step (not sent from outside). */
  readonly internal: boolean;
  /** Whether the transition changes no state (targetless: context only). */
  readonly targetless: boolean;
  /** The guard as text, request filter dropped (`prefillSchedulerRejects && admissionRetire`). */
  readonly guard?: string;
  /** Action names in order; raised events as `raise SENDER_CREATED`. */
  readonly actions: readonly string[];
  /**
   * True when the variant's switches make the guard false: the edge cannot fire. Precisely:
   * among its source's transitions for its event (first true guard wins), no values of the data
   * guards and `stateIn` tests make its guard true and every earlier one false. So an edge whose
   * own guard is open is disabled when a switch makes an earlier guard certain. Always false on a
   * chart built without a variant.
   */
  readonly disabled: boolean;
  /**
   * Only on a chart built for a variant: true when the source state is unreachable under it, so
   * the edge cannot fire either, though its own guard may allow it.
   */
  readonly unreachable?: boolean;
}

/** A whole chart: nodes by id in document order, and its transitions in document order. */
export interface ChartGraph {
  /** The chart's name (`prefill`, `decode`, `transfer`, `router`, `request`, `page`). */
  readonly name: string;
  /** The variant it was built for, if any. */
  readonly variant?: string;
  /** The root node's id. */
  readonly root: string;
  readonly nodes: readonly ChartStateNode[];
  readonly edges: readonly ChartEdge[];
}
