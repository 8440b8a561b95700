/**
 * A `ChartGraph` as a Mermaid `stateDiagram-v2`: compound states as composites, parallel regions
 * separated by `--`, initial and final arrows, labelled transitions, and classes for rejected,
 * final and unreachable states. Every label passes through `escapeMermaid`, every id through
 * `mermaidId`; the output depends on the chart alone.
 */
import type { ChartEdge, ChartGraph, ChartStateNode } from './chartGraph.ts';
import {
  ChartTree,
  chartTitle,
  disabledNote,
  drawnEdges,
  edgeLabel,
  stateClass,
} from './chartTree.ts';
import { escapeMermaid, mermaidId } from './escape.ts';

/** Options of `toMermaid`. */
export interface MermaidOptions {
  /** Leave out disabled edges instead of labelling them `(disabled by variant)`. */
  readonly hideDisabled?: boolean;
}

const classDefs = {
  rejected: 'fill:#fde2e2,stroke:#c62828,color:#8e0000',
  final: 'font-weight:bold,stroke-width:3px',
  rejectedFinal: 'fill:#fde2e2,stroke:#c62828,color:#8e0000,font-weight:bold,stroke-width:3px',
  unreachable: 'fill:#f3f3f3,stroke:#9e9e9e,color:#9e9e9e,stroke-dasharray:4 3',
} as const;

/** Mermaid ids for every node: `s_` plus `mermaidId`, made unique in document order. */
function mermaidIds(chart: ChartGraph): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const n of chart.nodes) {
    const base = `s_${mermaidId(n.id)}`;
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    ids.set(n.id, id);
  }
  return ids;
}

class MermaidWriter {
  private readonly tree: ChartTree;
  private readonly ids: Map<string, string>;
  private readonly edges: Map<string | undefined, ChartEdge[]> = new Map();

  constructor(
    private readonly chart: ChartGraph,
    hideDisabled: boolean | undefined,
  ) {
    this.tree = new ChartTree(chart);
    this.ids = mermaidIds(chart);
    for (const e of drawnEdges(chart, hideDisabled)) {
      const c = this.tree.container(e);
      this.edges.set(c, [...(this.edges.get(c) ?? []), e]);
    }
  }

  id(nodeId: string): string {
    const id = this.ids.get(nodeId);
    if (id === undefined) throw new Error(`chart ${this.chart.name}: no state ${nodeId}`);
    return id;
  }

  edgeLine(e: ChartEdge): string {
    const label = e.disabled ? `${edgeLabel(e)} ${disabledNote}` : edgeLabel(e);
    return `${this.id(e.source)} --> ${this.id(e.target)} : ${escapeMermaid(label)}`;
  }

  /** The declaration of `node` and everything inside it. */
  declare(node: ChartStateNode): string[] {
    const head = `state "${escapeMermaid(node.key)}" as ${this.id(node.id)}`;
    const entry = node.entry ?? [];
    const described =
      entry.length > 0
        ? [`${this.id(node.id)} : ${escapeMermaid(`entry / ${entry.join(', ')}`)}`]
        : [];
    if (node.kind === 'atomic' || node.kind === 'final') return [head, ...described];
    return [`${head} {`, ...indent(this.inside(node)), '}', ...described];
  }

  /** The lines inside a composite: regions split by `--`, or initial, children, finals, edges. */
  inside(node: ChartStateNode): string[] {
    const children = this.tree.children(node);
    if (node.kind === 'parallel')
      return children.flatMap((c, i) => [...(i > 0 ? ['--'] : []), ...this.declare(c)]);
    const initial = this.tree.drawnInitial(node);
    return [
      ...(initial === undefined ? [] : [`[*] --> ${this.id(initial)}`]),
      ...children.flatMap((c) => this.declare(c)),
      ...children.filter((c) => c.kind === 'final').map((c) => `${this.id(c.id)} --> [*]`),
      ...(this.edges.get(node.id) ?? []).map((e) => this.edgeLine(e)),
    ];
  }

  /** The top level: the root's content (a parallel root is wrapped in one composite). */
  top(): string[] {
    const root = this.tree.root;
    const body =
      root.kind === 'compound'
        ? this.inside(root)
        : [`[*] --> ${this.id(root.id)}`, ...this.declare(root)];
    return [...body, ...(this.edges.get(undefined) ?? []).map((e) => this.edgeLine(e))];
  }

  classLines(): string[] {
    const members = new Map<keyof typeof classDefs, string[]>();
    for (const n of this.chart.nodes) {
      const c = n.id === this.chart.root ? undefined : stateClass(n);
      if (c) members.set(c, [...(members.get(c) ?? []), this.id(n.id)]);
    }
    const used = (Object.keys(classDefs) as (keyof typeof classDefs)[]).filter((c) =>
      members.has(c),
    );
    return [
      ...used.map((c) => `classDef ${c} ${classDefs[c]}`),
      ...used.map((c) => `class ${(members.get(c) ?? []).join(',')} ${c}`),
    ];
  }
}

function indent(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}

/**
 * The chart as Mermaid `stateDiagram-v2` text, ending in a newline. Transitions read
 * `EVENT [guard] / action, action`; a disabled edge is labelled `(disabled by variant)`, or left
 * out with `hideDisabled`. Final states get `--> [*]` and, like rejected and unreachable states,
 * a `classDef` style. Deterministic: the same chart gives the same text.
 */
export function toMermaid(chart: ChartGraph, options: MermaidOptions = {}): string {
  const w = new MermaidWriter(chart, options.hideDisabled);
  const lines = [
    `%% kvcheck statechart: ${escapeMermaid(chartTitle(chart))}`,
    ...w.top(),
    ...w.classLines(),
  ];
  return `stateDiagram-v2\n${indent(lines).join('\n')}\n`;
}
