/**
 * The bug catalogue's fault-only edges: transitions that only a catalogue fault switch enables
 * (`REQUEST_ABORTED [lateResultNotRetired]`). Every built-in variant has the faults off, so its
 * charts would draw these edges greyed out as disabled, in the way of the engine's own paths;
 * diagrams leave them out unless asked for, and a catalogue variant keeps the edge of its own
 * fault, which it enables.
 */
import { switchGuards } from '../../machines/servingSetup.ts';
import type { Variant } from '../../machines/variants.ts';
import {
  type BooleanSwitch,
  fixedVariant,
  switchesChangedFromFixed,
} from '../catalogue/faultVariant.ts';
import { catalogue } from '../catalogue/index.ts';
import type { ChartGraph } from './chartGraph.ts';
import { type ChartName, chartGraph } from './statechart.ts';

/**
 * The fault switches a guard reads by name (`lateResultNotRetired`): each is the switch a
 * catalogue entry turns on, and is in `switchGuards`. In catalogue order, each once.
 */
export const faultSwitchGuards: readonly BooleanSwitch[] = [
  ...new Set(catalogue.flatMap((e) => switchesChangedFromFixed(e.variant))),
].filter((s): s is BooleanSwitch => switchGuards.some((g) => g === s));

function withSwitchOn(variant: Variant, fault: BooleanSwitch): Variant {
  return { ...variant, switches: { ...variant.switches, [fault]: true } };
}

/**
 * Indices in `chartGraph(machine, variant).edges` of the fault-only edges `variant` does not
 * enable: edges its chart disables that turning on one catalogue fault switch, off in
 * `variant`, would enable. Without a variant, read against `fixed` (every fault off), so every
 * fault-only edge is listed. `chart` is that chart when the caller has read it already.
 */
export function faultOnlyEdges(
  machine: ChartName,
  variant?: Variant,
  chart: ChartGraph = chartGraph(machine, variant ?? fixedVariant()),
): ReadonlySet<number> {
  const base = variant ?? fixedVariant();
  const found = new Set<number>();
  for (const fault of faultSwitchGuards) {
    if (base.switches[fault]) continue;
    const faulty = chartGraph(machine, withSwitchOn(base, fault));
    chart.edges.forEach((e, i) => {
      if (e.disabled && faulty.edges[i]?.disabled === false) found.add(i);
    });
  }
  return found;
}

/** `chart` without the edges at the indices in `omit`; nodes unchanged. */
export function withoutEdges(chart: ChartGraph, omit: ReadonlySet<number>): ChartGraph {
  if (omit.size === 0) return chart;
  return { ...chart, edges: chart.edges.filter((_, i) => !omit.has(i)) };
}

/**
 * The chart `machine` as diagrams draw it under `variant` (none: unjudged): without the
 * fault-only edges `variant` does not enable, or with every edge when `faultEdges` is true.
 */
export function drawnChart(
  machine: ChartName,
  variant: Variant | undefined,
  faultEdges = false,
): ChartGraph {
  const chart = chartGraph(machine, variant);
  if (faultEdges) return chart;
  // Without a variant the edges are judged against `fixed`, whose chart is another one.
  const omit = variant ? faultOnlyEdges(machine, variant, chart) : faultOnlyEdges(machine);
  return withoutEdges(chart, omit);
}

/**
 * The charts of `machine` under `a` and `b` as a diff draws them: without the fault-only edges
 * neither variant enables (an edge one of them enables is a difference, and stays), or with
 * every edge when `faultEdges` is true. Both keep the same edges, as `diffCharts` requires.
 */
export function drawnDiffCharts(
  machine: ChartName,
  a: Variant,
  b: Variant,
  faultEdges = false,
): [ChartGraph, ChartGraph] {
  const [ca, cb] = [chartGraph(machine, a), chartGraph(machine, b)];
  if (faultEdges) return [ca, cb];
  const inB = faultOnlyEdges(machine, b, cb);
  const omit = new Set([...faultOnlyEdges(machine, a, ca)].filter((i) => inB.has(i)));
  return [withoutEdges(ca, omit), withoutEdges(cb, omit)];
}
