/**
 * A `ChartGraph` as Graphviz DOT: compound states as clusters (regions of a parallel state as
 * dashed clusters), an invisible anchor node per cluster so that edges to and from a compound
 * state end at its border (`compound=true`, `lhead`/`ltail`), rejected states red, final states
 * with a double border, disabled edges dashed grey, and a legend of the edge styles drawn.
 *
 * Every transition's label is a small text node that splits its edge in two (tail → label →
 * head), placed in the innermost cluster holding both ends. Graphviz lays nodes out without
 * overlap, so no label can print over another label or a state; every node is given a minimum
 * width that holds its text in Arial, the one font the drawing names, or a wider substitute. Every string passes
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
import { textWidth } from './textWidth.ts';

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
}

/** A DOT string for any text: HTML entities for markup characters, then DOT quoting. */
export function dotText(text: string): string {
  return dotString(escapeHtml(text));
}

/** A DOT label of several lines: each escaped, joined by DOT's `\n` line break. */
export function dotLines(lines: readonly string[]): string {
  return `"${lines.map((l) => dotText(l).slice(1, -1)).join('\\n')}"`;
}

/** The one font of every diagram: Graphviz measures it, and it is named alone, never a list. */
export const diagramFont = 'Arial';

/** Font sizes in points: the title and cluster names, state names, transition labels. */
const fontSize = { graph: 12, state: 10, label: 8 } as const;

/** The longest line a label keeps before it breaks after `&&`, `||` or a comma. */
const maxLineChars = 44;

/**
 * `line` broken into lines of at most `maxLineChars` characters where it can be: after `&& `,
 * `|| ` or `, `. A piece longer than that stays whole.
 */
export function wrapLine(line: string, max = maxLineChars): string[] {
  const pieces = line.split(/(?<=&& |\|\| |, )/);
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && (last + piece).trimEnd().length <= max)
      out[out.length - 1] = last + piece;
    else out.push(piece);
  }
  return out.map((l) => l.trimEnd());
}

/**
 * A node's minimum width in inches, as a DOT number: an upper bound on its widest line's width
 * (`textWidth`), plus `margin` points on each side.
 */
function minWidth(lines: readonly string[], size: number, margin: number): string {
  const widest = Math.max(0, ...lines.map((l) => textWidth(l, size)));
  return ((widest + 2 * margin) / 72).toFixed(2);
}

const grey = 'grey55';
const blue = '#1f5fbf';
const redLook = 'color="#c62828", fontcolor="#c62828"';
const nodeStyles: Readonly<Record<NonNullable<ReturnType<typeof stateClass>>, string>> = {
  rejected: redLook,
  rejectedFinal: `${redLook}, peripheries=2`,
  final: 'peripheries=2',
  unreachable: `color=${grey}, fontcolor=${grey}, style="rounded,dashed"`,
};

/** How an edge is drawn, and what the legend says about edges drawn so. */
interface EdgeLook {
  /** The legend's text, which also tells looks apart. */
  readonly text: string;
  /** Line and text colour, a DOT value. */
  readonly color: string;
  /** Line style and width, DOT attributes. */
  readonly line: readonly string[];
  /** Position in the legend: plain, internal, disabled, unreachable, then diff marks. */
  readonly order: number;
}

function edgeLook(e: ChartEdge, mark: EdgeHighlight | undefined, variant: string): EdgeLook {
  const style = e.disabled ? ['style=dashed'] : e.unreachable ? ['style=dotted'] : [];
  if (mark) {
    const why = e.disabled
      ? `; disabled in ${variant}`
      : e.unreachable
        ? `; unreachable in ${variant}`
        : '';
    return {
      text: `${mark.note}${why}`,
      color: dotText(mark.color),
      line: [...style, 'penwidth=2'],
      order: 4,
    };
  }
  if (e.disabled) return { text: 'disabled by the variant', color: grey, line: style, order: 2 };
  if (e.unreachable)
    return { text: 'leaves a state no run enters', color: grey, line: style, order: 3 };
  if (e.internal)
    return { text: 'event raised by another region', color: dotText(blue), line: [], order: 1 };
  return { text: 'event from outside', color: 'black', line: [], order: 0 };
}

const lookAttrs = (look: EdgeLook) => [...look.line, `color=${look.color}`];

const isCompound = (n: ChartStateNode) => n.kind === 'compound' || n.kind === 'parallel';

const stateId = (id: string) => dotText(`s:${id}`);
const anchorId = (id: string) => dotText(`a:${id}`);
const initialId = (id: string) => dotText(`i:${id}`);
const labelId = (index: number) => dotText(`l:${index}`);
const clusterId = (id: string) => dotText(`cluster:${id}`);

/** One drawn edge: where it is in `chart.edges`, its label's lines and its look. */
interface DrawnEdge {
  readonly edge: ChartEdge;
  readonly index: number;
  readonly lines: readonly string[];
  readonly look: EdgeLook;
}

class DotWriter {
  private readonly tree: ChartTree;
  private readonly drawn: readonly DrawnEdge[];
  /** The label nodes each cluster declares, by the state the cluster draws (the root: top). */
  private readonly labelsByHome = new Map<string, string[]>();

  constructor(
    private readonly chart: ChartGraph,
    private readonly options: DotOptions,
  ) {
    this.tree = new ChartTree(chart);
    const variant = chart.variant ?? 'the variant';
    this.drawn = drawnEdges(chart, options.hideDisabled).map((edge) => {
      const index = chart.edges.indexOf(edge);
      const mark = options.highlight?.get(index);
      const parts = [
        ...edgeLabelParts(edge),
        ...(edge.disabled ? [disabledNote] : []),
        ...(mark ? [mark.note] : []),
      ];
      return {
        edge,
        index,
        lines: parts.flatMap((p) => wrapLine(p)),
        look: edgeLook(edge, mark, variant),
      };
    });
    for (const d of this.drawn) {
      const home = this.home(d.edge);
      this.labelsByHome.set(home, [...(this.labelsByHome.get(home) ?? []), this.labelNode(d)]);
    }
  }

  /**
   * The state whose cluster holds an edge's label: the deepest state both ends lie within, or
   * its parent when that is an atomic state (a self-loop).
   */
  home(e: ChartEdge): string {
    let c: string | undefined = e.source;
    while (c !== undefined && !this.tree.within(e.target, c)) c = this.tree.node(c).parent;
    const node = this.tree.node(c ?? this.chart.root);
    return isCompound(node) ? node.id : (node.parent ?? this.chart.root);
  }

  labelNode(d: DrawnEdge): string {
    const width = minWidth(d.lines, fontSize.label, 4);
    return `${labelId(d.index)} [shape=none, margin="0.04,0.02", fontsize=${fontSize.label}, label=${dotLines(d.lines)}, fontcolor=${d.look.color}, width=${width}];`;
  }

  /** The statements declaring `node`: a node, or a cluster with its anchor and children. */
  declare(node: ChartStateNode, region: boolean): string[] {
    const lines = node.entry ? [node.key, `entry / ${node.entry.join(', ')}`] : [node.key];
    const label = `label=${dotLines(lines)}`;
    const look = stateClass(node);
    if (!isCompound(node)) {
      const style = look === undefined ? undefined : nodeStyles[look];
      const width = `width=${minWidth(lines, fontSize.state, 9)}`;
      return [`${stateId(node.id)} [${[label, width, ...(style ? [style] : [])].join(', ')}];`];
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
    return [
      ...start,
      ...ordered.flatMap((c) => this.declare(c, regions)),
      ...(this.labelsByHome.get(node.id) ?? []),
    ];
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

  /** The two halves of an edge: tail to its label (no arrowhead), label to head. */
  edgeLines(d: DrawnEdge): string[] {
    const e = d.edge;
    const [source, target] = [this.tree.node(e.source), this.tree.node(e.target)];
    const look = lookAttrs(d.look);
    // Clip at a cluster's border only when the other end lies outside that cluster.
    const ltail =
      isCompound(source) && !this.tree.within(e.target, e.source)
        ? [`ltail=${clusterId(e.source)}`]
        : [];
    const lhead =
      isCompound(target) && !this.tree.within(e.source, e.target)
        ? [`lhead=${clusterId(e.target)}`]
        : [];
    const tail = isCompound(source) ? anchorId(e.source) : stateId(e.source);
    const head = isCompound(target) ? anchorId(e.target) : stateId(e.target);
    const label = labelId(d.index);
    return [
      `${tail} -> ${label} [${[...ltail, 'arrowhead=none', ...look].join(', ')}];`,
      `${label} -> ${head} [${[...lhead, ...look].join(', ')}];`,
    ];
  }

  /** A legend of the edge looks drawn, each with how many edges it has; none for one look. */
  legend(): string[] {
    const counts = new Map<string, { look: EdgeLook; count: number }>();
    for (const { look } of this.drawn) {
      const seen = counts.get(look.text);
      counts.set(look.text, { look, count: (seen?.count ?? 0) + 1 });
    }
    const items = [...counts.values()].sort((a, b) => a.look.order - b.look.order);
    if (items.length < 2) return [];
    const item = ({ look, count }: { look: EdgeLook; count: number }, i: number) => {
      const [a, b, t] = ['a', 'b', 't'].map((p) => dotText(`k:${i}:${p}`));
      const text = `${look.text} (${count})`;
      return [
        `${a} [shape=point, width=0.05, label=""];`,
        `${b} [shape=point, width=0.05, label=""];`,
        `${t} [label=${dotText(text)}, fontcolor=${look.color}, width=${minWidth([text], fontSize.label, 4)}];`,
        `${a} -> ${b} [${[...lookAttrs(look), 'minlen=2'].join(', ')}];`,
        `${b} -> ${t} [style=invis];`,
      ];
    };
    return [
      `subgraph ${dotText('cluster:legend')} {`,
      ...indent([
        `graph [label="Legend", style=rounded, color=${grey}];`,
        `node [shape=none, margin="0.04,0.02", fontsize=${fontSize.label}];`,
        // Declared bottom-up: Graphviz stacks same-rank items in reverse (see the regions).
        ...items.flatMap(item).reverse(),
      ]),
      '}',
    ];
  }

  write(): string {
    const root = this.tree.root;
    const title = this.options.title ?? chartTitle(this.chart);
    const body = isCompound(root)
      ? this.inside(root)
      : [...this.declare(root, false), ...(this.labelsByHome.get(root.id) ?? [])];
    const font = dotText(diagramFont);
    return [
      `digraph ${dotText(this.chart.name)} {`,
      ...indent([
        `graph [compound=true, newrank=true, rankdir=LR, fontname=${font}, fontsize=${fontSize.graph}, labelloc=t, label=${dotText(title)}, nodesep=0.2, ranksep=0.3];`,
        `node [shape=box, style=rounded, fontname=${font}, fontsize=${fontSize.state}, margin="0.12,0.04"];`,
        'edge [arrowsize=0.7];',
        ...body,
        ...this.drawn.flatMap((d) => this.edgeLines(d)),
        ...this.legend(),
      ]),
      '}',
      '',
    ].join('\n');
  }
}

function indent(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}

/**
 * The chart as a DOT digraph, ending in a newline. Each edge's label is a text node splitting the
 * edge (`"l:<index>"`, index in `chart.edges`), reading `EVENT`, `[guard]`, `/ actions` on
 * separate lines, long lines broken after `&&`, `||` or a comma. A disabled edge is dashed grey
 * with `(disabled by variant)`, or left out with `hideDisabled`; an edge leaving an unreachable
 * state is dotted grey; internal events are blue; a legend lists the looks drawn when there are
 * several. Deterministic: the same chart and options give the same text.
 */
export function toDot(chart: ChartGraph, options: DotOptions = {}): string {
  return new DotWriter(chart, options).write();
}
