/**
 * A `ChartGraph` as Graphviz DOT: compound states as clusters (regions of a parallel state as
 * dashed clusters), an invisible anchor node per cluster so that edges to and from a compound
 * state end at its border (`compound=true`, `lhead`/`ltail`), labelled transitions, rejected
 * states red, final states with a double border, disabled edges dashed grey. Every string passes
 * through `escapeHtml` then `dotString`; the output depends on the chart alone.
 */
import type { ChartEdge, ChartGraph, ChartStateNode } from './chartGraph.ts';
import {
  ChartTree,
  chartTitle,
  disabledNote,
  drawnEdges,
  edgeLabelParts,
  stateClass,
} from './chartTree.ts';
import { dotString, escapeHtml } from './escape.ts';

/** How to mark one edge of a diff: its colour and the line added to its label. */
export interface EdgeHighlight {
  readonly color: string;
  readonly note: string;
}

/** Options of `toDot`. */
export interface DotOptions {
  /** Leave out disabled edges instead of drawing them dashed grey. */
  readonly hideDisabled?: boolean;
  /** The graph's heading. @default the chart's name, and its variant if any */
  readonly title?: string;
  /** Edges to colour, by index in `chart.edges` (used by `toDotDiff`). */
  readonly highlight?: ReadonlyMap<number, EdgeHighlight>;
  /** Extra statements placed at the end of the graph (a legend), already valid DOT. */
  readonly extra?: readonly string[];
}

/** A DOT string for any text: HTML entities for markup characters, then DOT quoting. */
export function dotText(text: string): string {
  return dotString(escapeHtml(text));
}

/** A DOT label of several lines: each escaped, joined by DOT's `\n` line break. */
export function dotLines(lines: readonly string[]): string {
  return `"${lines.map((l) => dotText(l).slice(1, -1)).join('\\n')}"`;
}

const grey = 'grey55';
const redLook = 'color="#c62828", fontcolor="#c62828"';
const nodeStyles: Readonly<Record<NonNullable<ReturnType<typeof stateClass>>, string>> = {
  rejected: redLook,
  rejectedFinal: `${redLook}, peripheries=2`,
  final: 'peripheries=2',
  unreachable: `color=${grey}, fontcolor=${grey}, style="rounded,dashed"`,
};

const isCompound = (n: ChartStateNode) => n.kind === 'compound' || n.kind === 'parallel';

const stateId = (id: string) => dotText(`s:${id}`);
const anchorId = (id: string) => dotText(`a:${id}`);
const initialId = (id: string) => dotText(`i:${id}`);
const clusterId = (id: string) => dotText(`cluster:${id}`);

class DotWriter {
  private readonly tree: ChartTree;

  constructor(
    private readonly chart: ChartGraph,
    private readonly options: DotOptions,
  ) {
    this.tree = new ChartTree(chart);
  }

  /** The statements declaring `node`: a node, or a cluster with its anchor and children. */
  declare(node: ChartStateNode, region: boolean): string[] {
    const label = `label=${dotLines(node.entry ? [node.key, `entry / ${node.entry.join(', ')}`] : [node.key])}`;
    const look = stateClass(node);
    if (!isCompound(node)) {
      const style = look === undefined ? undefined : nodeStyles[look];
      return [`${stateId(node.id)} [${[label, ...(style ? [style] : [])].join(', ')}];`];
    }
    const dashed = region || look === 'unreachable';
    const colour =
      look === 'unreachable'
        ? [`color=${grey}`, `fontcolor=${grey}`]
        : look === 'rejected'
          ? [redLook]
          : [];
    return [
      `subgraph ${clusterId(node.id)} {`,
      ...indent([
        `graph [${[label, `style=${dashed ? '"rounded,dashed"' : 'rounded'}`, ...colour].join(', ')}];`,
        `${anchorId(node.id)} [shape=point, style=invis, width=0.01, height=0.01, label=""];`,
        ...this.inside(node),
        ...this.anchorRank(node),
      ]),
      '}',
    ];
  }

  /** The children of a compound or parallel state, after its initial point and arrow. */
  inside(node: ChartStateNode): string[] {
    const initial = this.tree.drawnInitial(node);
    const start =
      initial === undefined
        ? []
        : [
            `${initialId(node.id)} [shape=point, width=0.12, label=""];`,
            isCompound(this.tree.node(initial))
              ? `${initialId(node.id)} -> ${anchorId(initial)} [lhead=${clusterId(initial)}];`
              : `${initialId(node.id)} -> ${stateId(initial)};`,
          ];
    const regions = node.kind === 'parallel';
    const children = this.tree.children(node);
    // Graphviz stacks same-rank clusters bottom-up in LR; reversed, regions read top-down.
    const ordered = regions ? [...children].reverse() : children;
    return [...start, ...ordered.flatMap((c) => this.declare(c, regions))];
  }

  /** An invisible edge that ranks a cluster's anchor above its content, where edges enter. */
  anchorRank(node: ChartStateNode): string[] {
    const initial = this.tree.drawnInitial(node);
    const first = this.tree.children(node)[0];
    const below =
      initial !== undefined
        ? initialId(node.id)
        : first === undefined
          ? undefined
          : isCompound(first)
            ? anchorId(first.id)
            : stateId(first.id);
    return below === undefined ? [] : [`${anchorId(node.id)} -> ${below} [style=invis];`];
  }

  edgeLine(e: ChartEdge, index: number): string {
    const [source, target] = [this.tree.node(e.source), this.tree.node(e.target)];
    const attrs: string[] = [];
    // Clip at a cluster's border only when the other end lies outside that cluster.
    if (isCompound(source) && !this.tree.within(e.target, e.source))
      attrs.push(`ltail=${clusterId(e.source)}`);
    if (isCompound(target) && !this.tree.within(e.source, e.target))
      attrs.push(`lhead=${clusterId(e.target)}`);
    const mark = this.options.highlight?.get(index);
    const lines = [...edgeLabelParts(e), ...(e.disabled ? [disabledNote] : [])];
    attrs.push(`label=${dotLines(mark ? [...lines, mark.note] : lines)}`, ...edgeLook(e, mark));
    const tail = isCompound(source) ? anchorId(e.source) : stateId(e.source);
    const head = isCompound(target) ? anchorId(e.target) : stateId(e.target);
    return `${tail} -> ${head} [${attrs.join(', ')}];`;
  }

  write(): string {
    const root = this.tree.root;
    const title = this.options.title ?? chartTitle(this.chart);
    const body = isCompound(root) ? this.inside(root) : this.declare(root, false);
    const edges = drawnEdges(this.chart, this.options.hideDisabled).map((e) =>
      this.edgeLine(e, this.chart.edges.indexOf(e)),
    );
    return [
      `digraph ${dotText(this.chart.name)} {`,
      ...indent([
        `graph [compound=true, newrank=true, rankdir=LR, fontname="Helvetica", fontsize=12, labelloc=t, label=${dotText(title)}, nodesep=0.35, ranksep=0.45];`,
        'node [shape=box, style=rounded, fontname="Helvetica", fontsize=10, margin="0.12,0.04"];',
        'edge [fontname="Helvetica", fontsize=8, arrowsize=0.7];',
        ...body,
        ...edges,
        ...(this.options.extra ?? []),
      ]),
      '}',
      '',
    ].join('\n');
  }
}

function edgeLook(e: ChartEdge, mark: EdgeHighlight | undefined): string[] {
  const style = e.disabled ? ['style=dashed'] : e.unreachable ? ['style=dotted'] : [];
  if (mark)
    return [
      ...style,
      `color=${dotText(mark.color)}`,
      `fontcolor=${dotText(mark.color)}`,
      'penwidth=2',
    ];
  if (e.disabled || e.unreachable) return [...style, `color=${grey}`, `fontcolor=${grey}`];
  return e.internal ? ['color="#1f5fbf"', 'fontcolor="#1f5fbf"'] : [];
}

function indent(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}

/**
 * The chart as a DOT digraph, ending in a newline. Edges read `EVENT`, `[guard]`, `/ actions` on
 * separate lines; a disabled edge is dashed grey with `(disabled by variant)`, or left out with
 * `hideDisabled`; an edge leaving an unreachable state is dotted grey; internal events are blue.
 * Deterministic: the same chart and options give the same text.
 */
export function toDot(chart: ChartGraph, options: DotOptions = {}): string {
  return new DotWriter(chart, options).write();
}
