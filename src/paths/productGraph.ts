/**
 * The product graph of one request's four regions: configurations reachable from the initial
 * one, one step per external event. A step follows XState: every region picks its first enabled
 * transition against the configuration before the event (deepest state first), then each event
 * raised by a `notify` action is processed, in order, against the configuration after the
 * previous one. An open data guard branches the step.
 */
import { externalEventTypes } from '../../machines/events.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import type { Variant } from '../../machines/variants.ts';
import { compileGuard, firing, type Guard } from './guards.ts';
import {
  type Chart,
  type ChartNode,
  type ChartTransition,
  type Config,
  chartOf,
  configKey,
  initialLeaf,
  localPath,
  regionIndex,
  within,
} from './statechart.ts';

/** One region's change of state within a step; paths are relative to the region. */
export interface PathMove {
  readonly region: string;
  readonly from: string;
  readonly to: string;
}

/** One external event and the region moves it caused, its internal events included. */
export interface PathStep {
  readonly event: string;
  readonly moves: readonly PathMove[];
}

/** An edge of the product graph: a step and the key of the configuration it leads to. */
export interface ProductEdge extends PathStep {
  readonly target: string;
}

/** The product graph, keyed by `configKey`; configurations in breadth-first order. */
export interface ProductGraph {
  readonly chart: Chart;
  readonly initial: string;
  readonly configs: ReadonlyMap<string, Config>;
  /** Edges out of each configuration; self-loops are left out. */
  readonly edges: ReadonlyMap<string, readonly ProductEdge[]>;
}

interface Candidate {
  readonly guard: Guard;
  /** The leaf entered; undefined for a targetless transition. */
  readonly target: ChartNode | undefined;
  /** Internal events raised by its `notify` actions. */
  readonly raises: readonly string[];
}

interface Branch {
  readonly config: Config;
  readonly raised: readonly string[];
}

function raisedBy(t: ChartTransition): string[] {
  return t.actions.flatMap(({ type, params }) => {
    const event = (params as { event?: unknown } | undefined)?.event;
    return type === 'notify' && typeof event === 'string' ? [event] : [];
  });
}

/** Transitions of `leaf` and its ancestors up to its region for `event`, deepest first. */
function candidates(leaf: ChartNode, event: string, chart: Chart): Candidate[] {
  const region = chart.regions[regionIndex(leaf)];
  if (!region) throw new Error(`paths: ${leaf.id} is not inside a region`);
  const out: Candidate[] = [];
  for (let n: ChartNode | undefined = leaf; n && within(n, region); n = n.parent) {
    if (n.eventless) throw new Error(`paths: eventless transitions on ${n.id}`);
    for (const t of n.transitions.get(event) ?? []) {
      const target = t.target?.[0];
      if ((t.target?.length ?? 0) > 1 || (target && !within(target, region)))
        throw new Error(`paths: a ${event} transition of ${n.id} leaves its region`);
      const guard = compileGuard(t.guard, chart);
      out.push({ guard, target: target && initialLeaf(target), raises: raisedBy(t) });
    }
  }
  return out;
}

/** One microstep: every region reacts to `event`; guards read `config`, before the event. */
function react(config: Config, event: string, chart: Chart): Branch[] {
  let branches: Branch[] = [{ config, raised: [] }];
  config.forEach((leaf, i) => {
    const options = firing(candidates(leaf, event, chart), config);
    branches = branches.flatMap((b) =>
      options.map((c) => {
        if (!c) return b;
        const next = [...b.config];
        next[i] = c.target ?? leaf;
        return { config: next, raised: [...b.raised, ...c.raises] };
      }),
    );
  });
  return branches;
}

/** A macrostep: the external event, then the raised events in order. */
function step(config: Config, event: string, chart: Chart): Config[] {
  const pending = react(config, event, chart);
  const settled = new Map<string, Config>();
  for (let b = pending.pop(); b; b = pending.pop()) {
    const [next, ...rest] = b.raised;
    if (next === undefined) settled.set(configKey(b.config), b.config);
    else
      for (const r of react(b.config, next, chart))
        pending.push({ config: r.config, raised: [...rest, ...r.raised] });
  }
  return [...settled.values()];
}

function movesOf(from: Config, to: Config): PathMove[] {
  return from.flatMap((leaf, i) => {
    const next = to[i];
    const region = requestRegions[i];
    if (!next || !region || next === leaf) return [];
    return [{ region, from: localPath(leaf), to: localPath(next) }];
  });
}

/** Explores, breadth first, the product graph of one request's regions under `variant`. */
export function productGraph(variant: Variant): ProductGraph {
  const chart = chartOf(variant);
  const first = chart.regions.map(initialLeaf);
  const initial = configKey(first);
  const configs = new Map<string, Config>([[initial, first]]);
  const edges = new Map<string, ProductEdge[]>();
  for (const [key, config] of configs) {
    const out: ProductEdge[] = [];
    for (const event of externalEventTypes) {
      for (const next of step(config, event, chart)) {
        const target = configKey(next);
        if (target === key) continue;
        if (!configs.has(target)) configs.set(target, next);
        out.push({ event, moves: movesOf(config, next), target });
      }
    }
    edges.set(key, out);
  }
  return { chart, initial, configs, edges };
}
