/**
 * Helpers the statechart writers (Mermaid, DOT) share over a `ChartGraph`: the node tree, where
 * an edge is declared, which compound states get an initial arrow, and an edge's label text.
 * Text here is raw; each writer escapes it for its own language.
 */
import type { ChartEdge, ChartGraph, ChartStateNode } from './chartGraph.ts';

/** The note a disabled edge carries in every diagram. */
export const disabledNote = '(disabled by variant)';

/** A chart's nodes by id, with tree queries. */
export class ChartTree {
  private readonly byId: ReadonlyMap<string, ChartStateNode>;
  private readonly targets: ReadonlySet<string>;

  constructor(readonly chart: ChartGraph) {
    this.byId = new Map(chart.nodes.map((n) => [n.id, n]));
    this.targets = new Set(chart.edges.filter((e) => !e.targetless).map((e) => e.target));
  }

  /** The node with `id`; throws for an id the chart does not have. */
  node(id: string): ChartStateNode {
    const n = this.byId.get(id);
    if (!n) throw new Error(`chart ${this.chart.name}: no state ${id}`);
    return n;
  }

  /** The chart's root node. */
  get root(): ChartStateNode {
    return this.node(this.chart.root);
  }

  /** The node's children, in document order. */
  children(node: ChartStateNode): ChartStateNode[] {
    return node.children.map((c) => this.node(c));
  }

  /** Whether `id` is `ancestor` or lies below it. */
  within(id: string, ancestor: string): boolean {
    for (let n: string | undefined = id; n !== undefined; n = this.byId.get(n)?.parent)
      if (n === ancestor) return true;
    return false;
  }

  /**
   * The compound state whose block declares `edge`: the deepest state strictly above both ends
   * (above the source for a self-loop) that is not parallel; undefined means the top level.
   * Mermaid draws an edge between states of different composites only from such a block.
   */
  container(edge: ChartEdge): string | undefined {
    let c = this.byId.get(edge.source)?.parent;
    while (c !== undefined && !this.within(edge.target, c)) c = this.byId.get(c)?.parent;
    if (c === edge.target) c = this.node(c).parent;
    while (c !== undefined && this.node(c).kind === 'parallel') c = this.node(c).parent;
    return c === this.chart.root ? undefined : c;
  }

  /**
   * Whether a compound state is ever entered by default, so that its initial arrow means
   * something: the root, a region of a parallel state, the target of an edge, or the initial
   * child of such a state. (`done` in prefill and decode is entered only through its children.)
   */
  entersByDefault(node: ChartStateNode): boolean {
    if (node.id === this.chart.root || this.targets.has(node.id)) return true;
    const parent = node.parent === undefined ? undefined : this.byId.get(node.parent);
    if (!parent) return false;
    if (parent.kind === 'parallel') return this.entersByDefault(parent);
    return parent.initial === node.id && this.entersByDefault(parent);
  }

  /** The node's initial child when an initial arrow is drawn for it, else undefined. */
  drawnInitial(node: ChartStateNode): string | undefined {
    return node.kind === 'compound' && this.entersByDefault(node) ? node.initial : undefined;
  }
}

/** `EVENT`, `[guard]` and `/ a, b` (the parts present), the pieces of an edge's label. */
export function edgeLabelParts(edge: ChartEdge): string[] {
  return [
    edge.event,
    ...(edge.guard === undefined ? [] : [`[${edge.guard}]`]),
    ...(edge.actions.length > 0 ? [`/ ${edge.actions.join(', ')}`] : []),
  ];
}

/** An edge's label on one line: `EVENT [guard] / action, action`. */
export function edgeLabel(edge: ChartEdge): string {
  return edgeLabelParts(edge).join(' ');
}

/** The edges a diagram draws: all, or without the disabled ones. */
export function drawnEdges(chart: ChartGraph, hideDisabled: boolean | undefined): ChartEdge[] {
  return chart.edges.filter((e) => !(hideDisabled && e.disabled));
}

/** A chart's heading: `prefill` or `prefill (variant fixed)`. */
export function chartTitle(chart: ChartGraph): string {
  return chart.variant === undefined ? chart.name : `${chart.name} (variant ${chart.variant})`;
}

/** The visual class of a state, for styling: unreachable wins, then rejected, then final. */
export function stateClass(
  node: ChartStateNode,
): 'unreachable' | 'rejectedFinal' | 'rejected' | 'final' | undefined {
  if (node.unreachable) return 'unreachable';
  const rejected = node.tags.includes('rejected');
  if (node.kind === 'final') return rejected ? 'rejectedFinal' : 'final';
  return rejected ? 'rejected' : undefined;
}
