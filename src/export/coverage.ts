/**
 * Statechart coverage: which states and transitions of one request's lifecycle an exploration
 * visited, matched from the Outcome's lifecycle moves against the chart's structure. A transition
 * that no run took is a finding: a dead branch, or a scenario too small to reach it.
 */
import type { LifecycleMove } from '../checker/outcome.ts';
import type { ChartEdge, ChartGraph } from './chartGraph.ts';

/** Coverage of one region of the request chart. */
export interface RegionCoverage {
  readonly region: string;
  readonly states: { readonly visited: number; readonly total: number; readonly missed: string[] };
  readonly transitions: {
    readonly taken: number;
    /** Transitions the variant can take (disabled or structurally unreachable ones not counted). */
    readonly total: number;
    readonly missed: string[];
  };
}

function under(path: string, node: string): boolean {
  return path === node || path.startsWith(`${node}.`);
}

function full(region: string, path: string | undefined): string {
  return path === undefined ? '' : `${region}.${path}`;
}

/** How an edge reads in a coverage list: `prefill: received → placeholder on PREFILL_INTAKE`. */
export function edgeLabel(e: ChartEdge): string {
  const region = e.source.split('.')[0] ?? '';
  const strip = (id: string) => id.slice(region.length + 1) || id;
  const arrow = e.targetless ? '↺' : `→ ${strip(e.target)}`;
  return `${region}: ${strip(e.source)} ${arrow} on ${e.event}`;
}

/** Whether `move` takes chart edge `e` (ids of the request chart: `prefill.placeholder`). */
export function moveTakes(move: LifecycleMove, e: ChartEdge): boolean {
  const region = e.source.split('.')[0] ?? '';
  const before = full(region, move.before[region]);
  const after = full(region, move.after[region]);
  if (!under(before, e.source)) return false;
  if (e.targetless) return before === after && move.event === e.event;
  return before !== after && under(after, e.target) && (e.internal || move.event === e.event);
}

/**
 * Coverage per region of `chart` (the `request` chart, node ids `region.path`) by `moves`
 * (the union of several runs' `coverage`). States and edges the variant's switches make
 * unreachable, and disabled edges, are left out of the totals.
 */
export function regionCoverage(
  chart: ChartGraph,
  moves: readonly LifecycleMove[],
): RegionCoverage[] {
  const regions = chart.nodes.filter((n) => n.parent === chart.root).map((n) => n.key);
  const visited = new Set<string>();
  for (const m of moves) {
    for (const r of regions) {
      for (const p of [m.before[r], m.after[r]]) {
        if (p !== undefined) visited.add(full(r, p));
      }
    }
  }
  return regions.map((region) => {
    const nodes = chart.nodes.filter((n) => n.id.startsWith(`${region}.`) && !n.unreachable);
    const seen = (id: string) => [...visited].some((v) => under(v, id));
    const edges = chart.edges.filter(
      (e) => !e.disabled && !e.unreachable && e.source.startsWith(`${region}.`),
    );
    const taken = edges.filter((e) => moves.some((m) => moveTakes(m, e)));
    return {
      region,
      states: {
        visited: nodes.filter((n) => seen(n.id)).length,
        total: nodes.length,
        missed: nodes.filter((n) => !seen(n.id)).map((n) => n.id),
      },
      transitions: {
        taken: taken.length,
        total: edges.length,
        missed: edges.filter((e) => !taken.includes(e)).map(edgeLabel),
      },
    };
  });
}
