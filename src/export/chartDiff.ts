/**
 * What separates two variants in one statechart: the transitions one of them can take and the
 * other cannot. A transition counts as present in a variant when it is neither disabled nor
 * leaving an unreachable state there; so under `fixed` the whole placeholder path that
 * `incident-2026` takes (`received → placeholder`, then up to `SEND_KV`) is absent, not only its
 * first edge.
 */
import type { ChartEdge, ChartGraph } from './chartGraph.ts';
import { type EdgeHighlight, toDot } from './dotStatechart.ts';

/** Why an edge present in one variant is absent from the other. */
export type AbsentBecause = 'disabled' | 'unreachable';

/** One edge present in one variant's chart and absent from the other's. */
export interface EdgeChange {
  /** `source → target on EVENT [guard]`, ids as in the chart. */
  readonly name: string;
  /** Index of the edge in both charts' `edges` (they have the same structure). */
  readonly index: number;
  readonly edge: ChartEdge;
  /** Why the other variant cannot take it. */
  readonly absentBecause: AbsentBecause;
}

/** The edges only one of two variants can take, in document order. */
export interface ChartDiff {
  readonly chart: string;
  readonly a: string;
  readonly b: string;
  readonly onlyInA: readonly EdgeChange[];
  readonly onlyInB: readonly EdgeChange[];
}

/** Colours of the two kinds of difference. */
export const diffColours = { onlyInA: '#d62728', onlyInB: '#2ca02c' } as const;

/** `source → target on EVENT [guard]` (`↺` for a targetless edge). */
export function edgeName(e: ChartEdge): string {
  const to = e.targetless ? '↺' : `→ ${e.target}`;
  return `${e.source} ${to} on ${e.event}${e.guard === undefined ? '' : ` [${e.guard}]`}`;
}

const present = (e: ChartEdge) => !e.disabled && !e.unreachable;
const shape = (e: ChartEdge) => `${e.source}|${e.target}|${e.event}|${e.guard ?? ''}`;

function variantOf(chart: ChartGraph): string {
  if (chart.variant === undefined)
    throw new Error(`chart diff: chart ${chart.name} was built without a variant`);
  return chart.variant;
}

function changes(from: ChartGraph, to: ChartGraph): EdgeChange[] {
  return from.edges.flatMap((edge, index) => {
    const other = to.edges[index];
    if (!other || !present(edge) || present(other)) return [];
    const absentBecause: AbsentBecause = other.disabled ? 'disabled' : 'unreachable';
    return [{ name: edgeName(edge), index, edge, absentBecause }];
  });
}

/**
 * The edges of chart `a` that `b` cannot take, and those of `b` that `a` cannot take. Both must
 * be the same machine built for a variant each; throws otherwise (different names or shapes).
 */
export function diffCharts(a: ChartGraph, b: ChartGraph): ChartDiff {
  const [va, vb] = [variantOf(a), variantOf(b)];
  const sameShape =
    a.name === b.name &&
    a.edges.length === b.edges.length &&
    a.edges.every((e, i) => b.edges[i] !== undefined && shape(e) === shape(b.edges[i]));
  if (!sameShape) throw new Error(`chart diff: ${a.name} and ${b.name} are different machines`);
  return { chart: a.name, a: va, b: vb, onlyInA: changes(a, b), onlyInB: changes(b, a) };
}

/**
 * Chart `b` as DOT with the difference to `a` drawn on it: edges only `a` can take in red, edges
 * only `b` can take in green (each with a note naming its variant), all other edges as `toDot`
 * draws them; the legend gives each look its count. Throws as `diffCharts` does.
 */
export function toDotDiff(a: ChartGraph, b: ChartGraph): string {
  const d = diffCharts(a, b);
  const highlight = new Map<number, EdgeHighlight>([
    ...d.onlyInA.map((c): [number, EdgeHighlight] => [
      c.index,
      { color: diffColours.onlyInA, note: `only in ${d.a}` },
    ]),
    ...d.onlyInB.map((c): [number, EdgeHighlight] => [
      c.index,
      { color: diffColours.onlyInB, note: `only in ${d.b}` },
    ]),
  ]);
  const title = `${d.chart}: ${d.b}, compared with ${d.a}`;
  return toDot(b, { title, highlight });
}
