/**
 * The reachable state graph as Graphviz DOT: either every explored vertex (readable up to a few
 * hundred), or its projection onto one request's lifecycle (the distinct tuples of that request's
 * four region paths, and the distinct moves between them by event type), which stays readable for
 * every built-in scenario. Violating states are filled red, the counterexample path is bold blue,
 * and the initial state is marked.
 */
import { regionPath, requestIds, type ServingState } from '../../invariants/vocabulary.ts';
import type { StateGraph } from '../checker/stateGraph.ts';
import { dotString } from './escape.ts';

/** Options of `toStateSpaceDot`. */
export interface StateSpaceOptions {
  /** Vertex indices of violating states. @default none */
  readonly violating?: ReadonlySet<number>;
  /** A vertex-index path from vertex 0 (a counterexample); its edges are drawn bold blue. */
  readonly path?: readonly number[];
  /** A request id: draw the projection onto that request's region paths. */
  readonly project?: string;
  /** Refuse to draw more nodes than this (after projection). @default 300 */
  readonly maxNodes?: number;
  /** The graph's title. @default 'reachable states' */
  readonly title?: string;
}

/** Default `maxNodes`. */
export const defaultMaxNodes = 300;

/** The graph has more nodes than `maxNodes`; the message is one line saying what to do. */
export class GraphTooLargeError extends Error {
  override readonly name = 'GraphTooLargeError';
  constructor(
    readonly nodes: number,
    readonly limit: number,
  ) {
    super(
      `the state graph has ${nodes} nodes, more than the limit of ${limit}; ` +
        'draw one request’s lifecycle with --project <rid>, or use a smaller scenario',
    );
  }
}

/** Region abbreviations in label order: prefill, transfer, decode, router. */
const regionOrder = [
  ['P', 'prefill'],
  ['T', 'transfer'],
  ['D', 'decode'],
  ['R', 'router'],
] as const;

// Graphviz sizes boxes with its own metrics, which it has for Helvetica, not for system-ui.
const font = 'Helvetica,Arial,sans-serif';
const red = '#b42318';
const blue = '#1f5fbf';

function regionsOf(s: ServingState, rid: string): string {
  return regionOrder.map(([k, region]) => `${k}:${regionPath(s, rid, region)}`).join(' ');
}

/** A DOT string of several lines, each escaped with `dotString`, joined by `sep` (`\l`, `\n`). */
function dotLines(lines: readonly string[], sep: '\\l' | '\\n'): string {
  const body = lines.map((l) => dotString(l).slice(1, -1)).join(sep);
  return `"${body}${sep === '\\l' ? sep : ''}"`;
}

interface Node {
  readonly id: string;
  readonly lines: readonly string[];
  readonly vertices: readonly number[];
}

interface Arc {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly onPath: boolean;
}

/** The first edge from each path vertex to the next: `from:index` keys of edges on the path. */
function pathEdges(graph: StateGraph, path: readonly number[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < path.length; i++) {
    const from = path[i] ?? -1;
    const k = (graph.edges[from] ?? []).findIndex((e) => e.to === path[i + 1]);
    if (k >= 0) out.add(`${from}:${k}`);
  }
  return out;
}

/** Nodes and arcs: one node per vertex, or per distinct projected tuple when `project` is set. */
function layout(graph: StateGraph, options: StateSpaceOptions): { nodes: Node[]; arcs: Arc[] } {
  const onPath = pathEdges(graph, options.path ?? []);
  const project = options.project;
  const keyOf = (v: number): string => {
    const s = graph.states[v];
    if (!s) return '';
    return project === undefined ? String(v) : regionsOf(s, project);
  };
  const ids = new Map<string, number>();
  const members: number[][] = [];
  graph.states.forEach((_, v) => {
    const key = keyOf(v);
    const id = ids.get(key) ?? ids.size;
    if (!ids.has(key)) {
      ids.set(key, id);
      members.push([]);
    }
    members[id]?.push(v);
  });
  const nodes = [...ids.entries()].map(([key, id]): Node => {
    const vertices = members[id] ?? [];
    const s = graph.states[vertices[0] ?? 0];
    const lines =
      project === undefined
        ? s
          ? requestIds(s).map((rid) => `${rid} ${regionsOf(s, rid)}`)
          : []
        : [...key.split(' '), `${vertices.length} state(s)`];
    return { id: `n${id}`, lines, vertices };
  });
  const arcs = new Map<string, Arc>();
  graph.edges.forEach((out, v) => {
    out.forEach((e, k) => {
      const from = `n${ids.get(keyOf(v))}`;
      const to = `n${ids.get(keyOf(e.to))}`;
      // Projected, another request's step that leaves this one where it was is dropped; the
      // request's own step that changes only data (a decode step reading pages) stays a loop.
      if (project !== undefined && from === to && e.event.rid !== project) return;
      const label =
        project === undefined || e.event.rid !== project
          ? `${e.event.type} ${e.event.rid}`
          : e.event.type;
      const key = project === undefined ? `${v}:${k}` : `${from} ${to} ${label}`;
      const was = arcs.get(key);
      const highlighted = onPath.has(`${v}:${k}`) || (was?.onPath ?? false);
      arcs.set(key, { from, to, label, onPath: highlighted });
    });
  });
  return { nodes, arcs: [...arcs.values()] };
}

/**
 * DOT text of `graph`, deterministic for a given graph and options. Node `n0` holds vertex 0 and
 * is marked initial (double border, entry arrow). Throws `GraphTooLargeError` when the graph,
 * after projection, has more than `maxNodes` nodes, and `RangeError` for a `project` request id
 * the graph does not have.
 */
export function toStateSpaceDot(graph: StateGraph, options: StateSpaceOptions = {}): string {
  const first = graph.states[0];
  if (options.project !== undefined && first && !requestIds(first).includes(options.project)) {
    const accepted = requestIds(first).join(', ');
    throw new RangeError(`unknown request id "${options.project}"; accepted: ${accepted}`);
  }
  const { nodes, arcs } = layout(graph, options);
  const limit = options.maxNodes ?? defaultMaxNodes;
  if (nodes.length > limit) throw new GraphTooLargeError(nodes.length, limit);
  const violating = options.violating ?? new Set<number>();
  const title = [options.title ?? 'reachable states'];
  if (options.project !== undefined) title.push(`projected onto request ${options.project}`);
  if (violating.size > 0 || (options.path?.length ?? 0) > 1) {
    title.push('red: violating states; blue: shortest path to the first one');
  }
  const out = [
    `digraph ${dotString(options.title ?? 'reachable states')} {`,
    `  graph [label=${dotLines(title, '\\n')}, labelloc=t, fontname=${dotString(font)}];`,
    `  node [shape=box, style=rounded, fontname=${dotString(font)}, fontsize=10];`,
    `  edge [fontname=${dotString(font)}, fontsize=9];`,
    '  __start [shape=point, width=0.12, label=""];',
    '  __start -> n0;',
  ];
  for (const n of nodes) {
    const attrs = [`label=${dotLines(n.lines, '\\l')}`];
    if (n.vertices.includes(0)) attrs.push('peripheries=2');
    if (n.vertices.some((v) => violating.has(v))) {
      attrs.push('style="rounded,filled"', `fillcolor="#f8c4c0"`, `color="${red}"`);
    }
    out.push(`  ${n.id} [${attrs.join(', ')}];`);
  }
  for (const a of arcs) {
    const attrs = [`label=${dotString(a.label)}`];
    if (a.onPath)
      attrs.push(`color="${blue}"`, `fontcolor="${blue}"`, 'penwidth=2.5', 'style=bold');
    out.push(`  ${a.from} -> ${a.to} [${attrs.join(', ')}];`);
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}
