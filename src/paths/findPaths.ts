/**
 * The structural path check: can a request that was rejected ever reach decoding? It reads the
 * statechart of one request (regions router, prefill, transfer, decode) under one variant with
 * every data guard left open, so a missing path holds for every scenario, not for one. A path is
 * a simple path of the product graph (`productGraph.ts`): the step that enters a from-state,
 * then steps up to the first configuration in a to-state.
 */

import type { Variant } from '../../machines/variants.ts';
import { didYouMean } from '../didYouMean.ts';
import { type PathStep, type ProductGraph, productGraph } from './productGraph.ts';
import {
  type Chart,
  type ChartNode,
  type Config,
  isActive,
  localPath,
  statePath,
} from './statechart.ts';

export type { PathMove, PathStep } from './productGraph.ts';

/** A simple path from the step that enters `from` to the first configuration where `to` holds. */
export interface LifecyclePath {
  /** The from-state (`region.path`) this path enters in its first step. */
  readonly from: string;
  /** The to-state (`region.path`) its last configuration is in. */
  readonly to: string;
  /**
   * The configuration the path starts from, before its first step: each region's state
   * (`region` → its path inside the region), in `requestRegions` order.
   */
  readonly start: Readonly<Record<string, string>>;
  readonly steps: readonly PathStep[];
}

/** What `findPaths` found for one variant. */
export interface PathsReport {
  readonly variant: string;
  /** The from-states (`region.path`). */
  readonly from: readonly string[];
  /** The to-states (`region.path`). */
  readonly to: readonly string[];
  /** `a rejected state` for the default from-states, else the states joined by `or`. */
  readonly fromLabel: string;
  /** `a decoding state` for the default to-states, else the states joined by `or`. */
  readonly toLabel: string;
  /** Configurations of the product graph reachable from the initial one. */
  readonly configurations: number;
  /** Shortest first, then by their events; at most `maxPaths`. */
  readonly paths: readonly LifecyclePath[];
  /** True when more paths may exist than were returned. */
  readonly truncated: boolean;
}

/** Options of `findPaths`. */
export interface FindPathsOptions {
  /** From-states as `region.path`. @default every state node tagged `rejected` */
  readonly from?: readonly string[];
  /** To-states as `region.path`. @default every state node tagged `decoding` */
  readonly to?: readonly string[];
  /** The most paths to return. @default 200 */
  readonly maxPaths?: number;
}

/** A `from`/`to` state path that names no state node of a request's regions. */
export class UnknownStateError extends Error {
  /** `path` is the bad state path; `accepted` lists every valid one. */
  constructor(
    readonly path: string,
    readonly accepted: readonly string[],
  ) {
    super(`unknown state "${path}"; ${didYouMean(path, accepted, 'accepted states')}`);
    this.name = 'UnknownStateError';
  }
}

/** A path under construction: the configurations it visited, last one last. */
interface PartialPath {
  readonly from: ChartNode;
  readonly visited: readonly string[];
  readonly steps: readonly PathStep[];
}

function select(chart: Chart, paths: readonly string[] | undefined, tag: string): ChartNode[] {
  if (!paths) return [...chart.states.values()].filter((n) => n.tags.includes(tag));
  return paths.map((p) => {
    const node = chart.states.get(p);
    if (!node) throw new UnknownStateError(p, [...chart.states.keys()]);
    return node;
  });
}

/** Keys of the configurations from which one in `goal` is reachable. */
function coReachable(graph: ProductGraph, goal: ReadonlySet<string>): Set<string> {
  const preds = new Map<string, string[]>();
  for (const [key, out] of graph.edges)
    for (const e of out) preds.set(e.target, [...(preds.get(e.target) ?? []), key]);
  const seen = new Set(goal);
  for (const key of seen) for (const p of preds.get(key) ?? []) seen.add(p);
  return seen;
}

/** Paths of one step that enter `from`: edges from a configuration outside it to one inside. */
function entries(graph: ProductGraph, from: ChartNode): PartialPath[] {
  const inside = (key: string) => isActive(graph.configs.get(key) ?? [], from);
  const out: PartialPath[] = inside(graph.initial)
    ? [{ from, visited: [graph.initial], steps: [] }]
    : [];
  for (const [key, edges] of graph.edges) {
    if (inside(key)) continue;
    for (const e of edges.filter((x) => inside(x.target)))
      out.push({ from, visited: [key, e.target], steps: [{ event: e.event, moves: e.moves }] });
  }
  return out;
}

/** A configuration as `region` → the region's state path (`placeholder.bootstrapping`). */
function regionStates(config: Config): Record<string, string> {
  return Object.fromEntries(config.map((leaf) => [leaf.path[1] ?? '', localPath(leaf)]));
}

/** Orders paths by length, then by their events, then by everything else. */
function byLengthThenEvents(a: LifecyclePath, b: LifecyclePath): number {
  const keys = (p: LifecyclePath) => [
    p.steps.map((s) => s.event).join(' '),
    p.from,
    p.to,
    JSON.stringify(p.steps),
  ];
  const [ka, kb] = [keys(a), keys(b)];
  const i = ka.findIndex((k, j) => k !== kb[j]);
  const order = i < 0 ? 0 : (ka[i] ?? '') < (kb[i] ?? '') ? -1 : 1;
  return a.steps.length - b.steps.length || order;
}

/** Extends `p` by every edge to a configuration it has not visited that can still reach a goal. */
function extend(graph: ProductGraph, p: PartialPath, live: ReadonlySet<string>): PartialPath[] {
  const last = p.visited.at(-1) ?? '';
  return (graph.edges.get(last) ?? [])
    .filter((e) => live.has(e.target) && !p.visited.includes(e.target))
    .map((e) => ({
      from: p.from,
      visited: [...p.visited, e.target],
      steps: [...p.steps, { event: e.event, moves: e.moves }],
    }));
}

/**
 * Every simple path (no configuration twice) that enters a from-state and stops at the first
 * configuration in a to-state. Breadth first by length, so a cap keeps the shortest; partial
 * paths that can no longer reach a to-state are dropped. Paths with the same steps count once.
 */
function simplePaths(graph: ProductGraph, from: ChartNode[], to: ChartNode[], maxPaths: number) {
  const reached = (key: string) => to.find((n) => isActive(graph.configs.get(key) ?? [], n));
  const live = coReachable(graph, new Set([...graph.configs.keys()].filter(reached)));
  const found = new Map<string, LifecyclePath>();
  let frontier = from
    .flatMap((f) => entries(graph, f))
    .filter((p) => live.has(p.visited.at(-1) ?? ''));
  while (frontier.length > 0 && found.size <= maxPaths) {
    const done: LifecyclePath[] = [];
    const next: PartialPath[] = [];
    for (const p of frontier) {
      const goal = reached(p.visited.at(-1) ?? '');
      if (!goal) {
        next.push(...extend(graph, p, live));
        continue;
      }
      const start = regionStates(graph.configs.get(p.visited[0] ?? '') ?? []);
      done.push({ from: statePath(p.from), to: statePath(goal), start, steps: p.steps });
    }
    for (const path of done.sort(byLengthThenEvents)) {
      const key = JSON.stringify(path.steps);
      if (!found.has(key)) found.set(key, path);
    }
    frontier = next;
  }
  const paths = [...found.values()];
  return {
    paths: paths.slice(0, maxPaths),
    truncated: paths.length > maxPaths || frontier.length > 0,
  };
}

const label = (nodes: ChartNode[], custom: readonly string[] | undefined, fallback: string) =>
  custom ? nodes.map(statePath).join(' or ') : fallback;

/**
 * The paths in `variant`'s statechart from a from-state to a to-state (by default: from a state
 * tagged `rejected` to one tagged `decoding`), over the product of one request's four regions
 * with every data guard open. Throws `UnknownStateError` for a state path that names no state.
 */
export function findPaths(variant: Variant, options: FindPathsOptions = {}): PathsReport {
  const maxPaths = options.maxPaths ?? 200;
  if (!Number.isInteger(maxPaths) || maxPaths < 0)
    throw new RangeError(`maxPaths must be a non-negative integer, got ${maxPaths}`);
  const graph = productGraph(variant);
  const from = select(graph.chart, options.from, 'rejected');
  const to = select(graph.chart, options.to, 'decoding');
  return {
    variant: variant.name,
    from: from.map(statePath),
    to: to.map(statePath),
    fromLabel: label(from, options.from, 'a rejected state'),
    toLabel: label(to, options.to, 'a decoding state'),
    configurations: graph.configs.size,
    ...simplePaths(graph, from, to, maxPaths),
  };
}
