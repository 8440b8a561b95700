/**
 * Statechart coverage: which states and transitions of one request's lifecycle an exploration
 * visited, matched from the Outcome's lifecycle moves against the chart's structure.
 *
 * What no run visited falls in two kinds. A state or transition of a mechanism the scenarios
 * switched off (a fault option off in every scenario, a transfer mode none of them uses, a
 * variant's switch) could not happen in these runs: it is listed as not exercised, naming the
 * mechanism, and is no finding. One that some scenario's mechanisms allow and no run took is a
 * finding: a dead branch, or a scenario too small to reach it.
 */

import type { Scenario, TransferMode } from '../../machines/scenario.ts';
import {
  type FaultGuard,
  faultGuards,
  faultPossible,
  switchGuards,
} from '../../machines/servingSetup.ts';
import type { Variant } from '../../machines/variants.ts';
import type { LifecycleMove } from '../checker/outcome.ts';
import { switchValue } from '../paths/guards.ts';
import type { ChartEdge, ChartGraph } from './chartGraph.ts';
import { reachableStates } from './chartReach.ts';
import { chartGraph } from './statechart.ts';

/** A state or transition no run visited because a mechanism was off, and that mechanism. */
export interface Unexercised {
  /** The state id (`prefill.done.clientError`) or transition label (`edgeLabel`). */
  readonly item: string;
  /** The mechanism, in words: `client aborts (clientAborts off in every scenario)`. */
  readonly mechanism: string;
}

/** Coverage of one region of the request chart. */
export interface RegionCoverage {
  readonly region: string;
  readonly states: {
    readonly visited: number;
    /** States some scenario's mechanisms let a run enter. */
    readonly total: number;
    /** States some scenario allows and no run entered: findings. */
    readonly missed: string[];
    /** States of mechanisms switched off in every scenario. */
    readonly off: Unexercised[];
  };
  readonly transitions: {
    readonly taken: number;
    /** Transitions some scenario's mechanisms let a run take. */
    readonly total: number;
    /** Transitions some scenario allows and no run took: findings. */
    readonly missed: string[];
    /** Transitions of mechanisms switched off in every scenario. */
    readonly off: Unexercised[];
  };
}

/** What one scenario runs of the optional mechanisms: its transfer mode, its faults that are off. */
export interface ScenarioMechanisms {
  readonly transfer: TransferMode;
  /** The fault guards the scenario makes false, in `faultGuards` order. */
  readonly off: readonly FaultGuard[];
}

/** The request chart of one variant in `transfer` mode with the fault guards `off` false. */
export type ChartFor = (transfer: TransferMode, off: readonly FaultGuard[]) => ChartGraph;

const transferModes: readonly TransferMode[] = ['push', 'pull'];

/** Each fault guard's scenario option, as a reader finds it in a scenario file. */
const faultNames: Readonly<Record<FaultGuard, string>> = {
  transferFaultsEnabled: 'transfer faults (transferFaults off',
  clientAbortsEnabled: 'client aborts (clientAborts off',
  lateWritesEnabled: 'late writes (lateWrites off and push transfer',
  prefillErrorsEnabled: 'prefill errors (prefillErrors off',
};

/** `s`'s transfer mode and the fault guards it makes false (see `faultGuards`). */
export function scenarioMechanisms(s: Scenario): ScenarioMechanisms {
  return { transfer: s.transfer ?? 'push', off: faultGuards.filter((f) => !faultPossible(s, f)) };
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

const keysOf = new WeakMap<ChartGraph, ReadonlyMap<ChartEdge, string>>();

/**
 * Each edge's identity across charts read in different modes or with different faults off: its
 * label and how many edges of the chart before it share that label (the region factories write
 * a mode's transitions in the same order, guards aside).
 */
function edgeKeys(chart: ChartGraph): ReadonlyMap<ChartEdge, string> {
  const known = keysOf.get(chart);
  if (known) return known;
  const count = new Map<string, number>();
  const keys = new Map(
    chart.edges.map((e) => {
      const label = edgeLabel(e);
      const n = count.get(label) ?? 0;
      count.set(label, n + 1);
      return [e, `${label}#${n}`];
    }),
  );
  keysOf.set(chart, keys);
  return keys;
}

/** How an edge of `chart` reads in a list: its label, and its guard when another shares the label. */
function itemLabel(e: ChartEdge, chart: ChartGraph): string {
  const label = edgeLabel(e);
  const twins = chart.edges.filter((x) => edgeLabel(x) === label).length;
  return twins > 1 ? `${label} if ${e.guard ?? 'true'}` : label;
}

/**
 * What of a chart some run can reach: its states' ids, and the keys of the edges that can fire
 * (`label#n`: the edge's `edgeLabel`, n the number of edges before it with the same label).
 */
interface Live {
  readonly states: ReadonlySet<string>;
  readonly edges: ReadonlySet<string>;
}

/** The events that `raise` actions of `actions` raise. */
function raisedBy(actions: readonly string[]): string[] {
  return actions.flatMap((a) => (a.startsWith('raise ') ? [a.slice('raise '.length)] : []));
}

/**
 * What of `chart` can happen: states entered from the root by edges that can fire, an edge able
 * to fire when it is not disabled, its source can be entered, and, for an event another region
 * raises (`internal`), some edge that can fire or some state that can be entered raises it.
 * Computed to a fixed point; like `reachableStates`, it errs on the side of "can happen".
 */
export function liveParts(chart: ChartGraph): Live {
  let dead = new Set(chart.edges.filter((e) => e.disabled));
  for (;;) {
    const open = chart.edges.map((e) => (dead.has(e) ? { ...e, disabled: true } : e));
    const states = reachableStates(chart.nodes, open, chart.root);
    const raised = new Set(
      [
        ...chart.edges.filter((e) => !dead.has(e) && states.has(e.source)),
        ...chart.nodes.filter((n) => states.has(n.id)).map((n) => ({ actions: n.entry ?? [] })),
      ].flatMap((x) => raisedBy(x.actions)),
    );
    const next = new Set(
      chart.edges.filter(
        (e) => e.disabled || !states.has(e.source) || (e.internal && !raised.has(e.event)),
      ),
    );
    if (next.size === dead.size) {
      const keys = edgeKeys(chart);
      const edges = chart.edges.filter((e) => !next.has(e)).map((e) => keys.get(e) ?? '');
      return { states, edges: new Set(edges) };
    }
    dead = next;
  }
}

/** Switch guards named in `guard`, each with whether it appears negated (`!name`). */
function switchesIn(
  guard: string | undefined,
): { name: (typeof switchGuards)[number]; negated: boolean }[] {
  if (guard === undefined) return [];
  return switchGuards.flatMap((name) => {
    const m = new RegExp(`(!?)\\b${name}\\b`).exec(guard);
    return m ? [{ name, negated: m[1] === '!' }] : [];
  });
}

/**
 * Why `variant`'s switches disable `e` of `chart`: the switches that make its own guard false,
 * else those that make an earlier transition of its source for its event certain.
 */
function switchReason(e: ChartEdge, chart: ChartGraph, variant: Variant): string {
  const value = (name: (typeof switchGuards)[number]) => switchValue(name, variant);
  const own = switchesIn(e.guard).filter((s) => value(s.name) === s.negated);
  const before = chart.edges.slice(0, chart.edges.indexOf(e));
  const earlier = before
    .filter((x) => x.source === e.source && x.event === e.event)
    .flatMap((x) => switchesIn(x.guard).filter((s) => value(s.name) !== s.negated));
  const named = (own.length > 0 ? own : earlier).map(
    (s) => `${s.name} ${value(s.name) ? 'on' : 'off'}`,
  );
  const unique = [...new Set(named)];
  if (unique.length > 0) return `switch ${unique.join(', ')} in ${variant.name}`;
  // The chart is read for a request with a bootstrap room of its own (see `paths/guards.ts`).
  const rooms = /\broom(Held|Succeeded|Failed)\b/.test(e.guard ?? '');
  return rooms
    ? 'shared bootstrap rooms (the chart gives each request a room of its own)'
    : `ruled out by ${variant.name}’s switches`;
}

/** The faults `scenarios` of `mode` all switch off, in `faultGuards` order. */
function offInAll(scenarios: readonly ScenarioMechanisms[], mode: TransferMode): FaultGuard[] {
  const of = scenarios.filter((s) => s.transfer === mode);
  return faultGuards.filter((f) => of.length > 0 && of.every((s) => s.off.includes(f)));
}

/** The faults `off` in words, `and`-joined: `client aborts (clientAborts off in every scenario)`. */
function faultsText(off: readonly FaultGuard[]): string {
  return off.map((f) => `${faultNames[f]} in every scenario)`).join(' and ');
}

/** The charts coverage reads for one variant, each read once. */
interface Charts {
  /** Per transfer mode, the chart with every fault possible. */
  readonly full: ReadonlyMap<TransferMode, ChartGraph>;
  readonly live: (transfer: TransferMode, off: readonly FaultGuard[]) => Live;
}

function chartsOf(chartFor: ChartFor): Charts {
  const cache = new Map<string, Live>();
  const full = new Map(transferModes.map((m) => [m, chartFor(m, [])]));
  const live = (transfer: TransferMode, off: readonly FaultGuard[]): Live => {
    const key = `${transfer}|${off.join(',')}`;
    const known = cache.get(key);
    if (known) return known;
    const chart = off.length === 0 ? full.get(transfer) : undefined;
    const parts = liveParts(chart ?? chartFor(transfer, off));
    cache.set(key, parts);
    return parts;
  };
  return { full, live };
}

/** An item of the union of the modes' charts: how to find it in one chart's live parts. */
interface Item {
  readonly label: string;
  /** The modes whose chart has it. */
  readonly modes: readonly TransferMode[];
  readonly liveIn: (live: Live) => boolean;
  /** Why the variant's switches rule it out in `chart` (only asked when they do). */
  readonly switchReason: (chart: ChartGraph) => string;
}

/**
 * Why no scenario could exercise `item`: a transfer mode no scenario uses, the variant's
 * switches, or the fault mechanisms every scenario of its modes switches off.
 */
function offReason(item: Item, charts: Charts, scenarios: readonly ScenarioMechanisms[]): string {
  const used = item.modes.filter((m) => scenarios.some((s) => s.transfer === m));
  if (used.length === 0) {
    const [mode] = item.modes;
    return `${mode} transfer (no scenario ${mode === 'pull' ? 'pulls' : 'pushes'})`;
  }
  const possible = used.filter((m) => item.liveIn(charts.live(m, [])));
  if (possible.length === 0) {
    const chart = charts.full.get(used[0] ?? 'push');
    return chart ? item.switchReason(chart) : 'ruled out by the variant’s switches';
  }
  const blamed = faultGuards.filter((f) =>
    possible.some((m) => offInAll(scenarios, m).includes(f) && !item.liveIn(charts.live(m, [f]))),
  );
  const together = faultGuards.filter((f) =>
    possible.some((m) => offInAll(scenarios, m).includes(f)),
  );
  if (blamed.length > 0 || together.length > 0)
    return faultsText(blamed.length > 0 ? blamed : together);
  const some = faultGuards.filter((f) => scenarios.some((s) => s.off.includes(f)));
  return `${some.map((f) => `${faultNames[f]})`).join(', ')}: each scenario switches one of them off`;
}

/** The union of the modes' charts: values by key, the first seen of each key, in order. */
function union<T>(lists: readonly (readonly { key: string; value: T }[])[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const list of lists) for (const x of list) if (!out.has(x.key)) out.set(x.key, x.value);
  return out;
}

/**
 * Coverage per region of one variant's request chart by `moves` (the union of several runs'
 * `coverage`), the runs being of `scenarios`. The chart is the union of the transfer modes'
 * charts (`chartFor(mode, [])`). A state or transition that some scenario's mechanisms allow
 * (`chartFor(its mode, its faults off)`, then `liveParts`) counts in the totals, and is a finding
 * when no move visited it; one that none allows is listed in `off` with the mechanism that rules
 * it out, and is no finding.
 */
export function classifyCoverage(
  chartFor: ChartFor,
  variant: Variant,
  scenarios: readonly ScenarioMechanisms[],
  moves: readonly LifecycleMove[],
): RegionCoverage[] {
  const charts = chartsOf(chartFor);
  const fulls = transferModes.flatMap((m) => {
    const c = charts.full.get(m);
    return c ? [{ mode: m, chart: c }] : [];
  });
  const root = fulls[0]?.chart.root ?? 'request';
  const nodes = union(fulls.map((f) => f.chart.nodes.map((n) => ({ key: n.id, value: n }))));
  const edges = union(
    fulls.map(({ chart }) => {
      const keys = edgeKeys(chart);
      return chart.edges.map((e) => ({
        key: keys.get(e) ?? '',
        value: { edge: e, label: itemLabel(e, chart) },
      }));
    }),
  );
  const modesHaving = (has: (c: ChartGraph) => boolean) =>
    fulls.filter((f) => has(f.chart)).map((f) => f.mode);
  const edgeIn = (key: string, c: ChartGraph) => [...edgeKeys(c)].find(([, k]) => k === key)?.[0];
  const lives = scenarios.map((s) => charts.live(s.transfer, s.off));
  const visited = new Set<string>();
  const regions = [...nodes.values()].filter((n) => n.parent === root).map((n) => n.key);
  for (const m of moves) {
    for (const r of regions) {
      for (const p of [m.before[r], m.after[r]]) if (p !== undefined) visited.add(full(r, p));
    }
  }
  const seen = (id: string) => [...visited].some((v) => under(v, id));
  const stateItem = (id: string): Item => ({
    label: id,
    modes: modesHaving((c) => c.nodes.some((n) => n.id === id)),
    liveIn: (live) => live.states.has(id),
    switchReason: () => `unreachable under ${variant.name}’s switches`,
  });
  const edgeItem = (key: string, label: string): Item => ({
    label,
    modes: modesHaving((c) => edgeIn(key, c) !== undefined),
    liveIn: (live) => live.edges.has(key),
    switchReason: (chart) => {
      const mine = edgeIn(key, chart);
      return mine?.disabled
        ? switchReason(mine, chart, variant)
        : `unreachable under ${variant.name}’s switches`;
    },
  });
  const offOf = (item: Item): Unexercised => ({
    item: item.label,
    mechanism: offReason(item, charts, scenarios),
  });
  return regions.map((region) => {
    const mine = (id: string) => id.startsWith(`${region}.`);
    const ids = [...nodes.keys()].filter(mine);
    // What a run visited was possible, whatever the structural reading says.
    const stateLive = ids.filter((id) => seen(id) || lives.some((l) => l.states.has(id)));
    const es = [...edges].filter(([, x]) => mine(x.edge.source));
    const takenBy = ([, x]: (typeof es)[number]) => moves.some((m) => moveTakes(m, x.edge));
    const possible = es.filter((x) => lives.some((l) => l.edges.has(x[0])));
    // A move names no guard: one taken with no possible twin (same label) was possible after all.
    const twinPossible = ([, x]: (typeof es)[number]) =>
      possible.some(([, y]) => edgeLabel(y.edge) === edgeLabel(x.edge));
    const edgeLive = es.filter((x) => possible.includes(x) || (takenBy(x) && !twinPossible(x)));
    const taken = edgeLive.filter(takenBy);
    return {
      region,
      states: {
        visited: stateLive.filter(seen).length,
        total: stateLive.length,
        missed: stateLive.filter((id) => !seen(id)),
        off: ids.filter((id) => !stateLive.includes(id)).map((id) => offOf(stateItem(id))),
      },
      transitions: {
        taken: taken.length,
        total: edgeLive.length,
        missed: edgeLive.filter((x) => !taken.includes(x)).map(([, x]) => x.label),
        off: es
          .filter((x) => !edgeLive.includes(x))
          .map(([key, x]) => offOf(edgeItem(key, x.label))),
      },
    };
  });
}

/**
 * Coverage per region of `variant`'s request chart by `moves`, the runs being of `scenarios`:
 * `classifyCoverage` over the charts `chartGraph` reads for the variant.
 */
export function regionCoverage(
  variant: Variant,
  scenarios: readonly Scenario[],
  moves: readonly LifecycleMove[],
): RegionCoverage[] {
  const chartFor: ChartFor = (transfer, off) =>
    chartGraph('request', variant, { transfer, faultsOff: off });
  return classifyCoverage(chartFor, variant, scenarios.map(scenarioMechanisms), moves);
}

/**
 * The items of `off` grouped by mechanism, mechanisms in first-seen order: what the report
 * lists under "not exercised: mechanism off in these scenarios".
 */
export function offByMechanism(
  off: readonly Unexercised[],
): { mechanism: string; items: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const u of off) groups.set(u.mechanism, [...(groups.get(u.mechanism) ?? []), u.item]);
  return [...groups].map(([mechanism, items]) => ({ mechanism, items }));
}
