/**
 * The statecharts kvcheck draws, read from the machines as plain `ChartGraph` data: one request's
 * four regions together (`request`), each region alone, and one KV page (`page`). The serving
 * charts come from the composed machine built for a one-request scenario (`chartOf`), so they are
 * exactly what the checker runs; only their shape and guards are read, never their data.
 */
import type { InternalEvent } from '../../machines/events.ts';
import { pageMachine } from '../../machines/pageMachine.ts';
import { notify, requestRegions } from '../../machines/regionIds.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import {
  type Chart,
  type ChartNode,
  type ChartOptions,
  type ChartTransition,
  chartOf,
  descendants,
  rootNode,
  statePath,
} from '../paths/statechart.ts';
import type { ChartEdge, ChartGraph, ChartNodeKind, ChartStateNode } from './chartGraph.ts';
import { firableTransitions, reachableStates } from './chartReach.ts';
import { guardText } from './guardText.ts';

/** Names of the statecharts, in the order `--all` draws them. */
export const chartNames = ['request', 'prefill', 'decode', 'transfer', 'router', 'page'] as const;

/** One of the statecharts kvcheck draws. */
export type ChartName = (typeof chartNames)[number];

/** Events one region raises for another within a step (`InternalEvent`), checked exhaustive. */
const internalEvents = {
  SENDER_CREATED: true,
  METADATA_SENT: true,
  KV_CHUNK_SENT: true,
  SENDER_ABORTED: true,
  RECEIVER_ABORTED: true,
  REQUEST_ABORTED: true,
} as const satisfies Record<InternalEvent['type'], true>;

/** The action that raises an internal event (`notify`), by its name in `servingSetup`. */
const raiseAction = notify('r', 'SENDER_CREATED').type;

/** Where a chart is read from: its root state node and the chart its guards compile against. */
interface Source {
  readonly root: ChartNode;
  readonly chart: Chart;
  /** How a `stateIn` target reads in guard text (`transfer.success`). */
  readonly stateName: (node: ChartNode) => string;
}

function sourceOf(name: ChartName, variant: Variant, options: ChartOptions): Source {
  if (name === 'page') {
    const root = rootNode(pageMachine);
    const byId = new Map([root, ...descendants(root)].map((n) => [n.id, n]));
    const chart: Chart = { variant, regions: [], byId, states: new Map() };
    return { root, chart, stateName: (n) => n.path.join('.') };
  }
  const chart = chartOf(variant, options);
  const root =
    name === 'request' ? chart.regions[0]?.parent : chart.regions[requestRegions.indexOf(name)];
  if (!root) throw new Error(`statechart: the composed machine has no ${name} chart`);
  return { root, chart, stateName: statePath };
}

function kindOf(node: ChartNode): ChartNodeKind {
  if (node.type === 'history') throw new Error(`statechart: history state ${node.id} not drawn`);
  return node.type;
}

/** An action's name; a `notify` action reads `raise EVENT`. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  const { type, params } = action as { type?: unknown; params?: { event?: unknown } };
  if (type === raiseAction && typeof params?.event === 'string') return `raise ${params.event}`;
  if (typeof type === 'string') return type;
  return typeof action === 'function' && action.name ? action.name : 'anonymous';
}

/** Builds the chart's nodes and edges; `variant` given: marks what its switches rule out. */
class ChartReader {
  readonly nodes: ChartStateNode[] = [];
  readonly edges: ChartEdge[] = [];

  constructor(
    private readonly name: ChartName,
    private readonly source: Source,
    private readonly judge: boolean,
  ) {}

  id(node: ChartNode): string {
    const { root } = this.source;
    if (node === root) return this.name;
    if (node.path.slice(0, root.path.length).join('.') !== root.path.join('.'))
      throw new Error(`statechart: ${node.id} lies outside the ${this.name} chart`);
    return node.path.slice(root.path.length).join('.');
  }

  read(node: ChartNode): void {
    const children = Object.values(node.states);
    const initial = node.type === 'compound' ? node.initial?.target[0] : undefined;
    const entry = node.entry.map(actionName);
    this.nodes.push({
      id: this.id(node),
      key: node === this.source.root ? this.name : node.key,
      kind: kindOf(node),
      tags: [...node.tags],
      ...(initial ? { initial: this.id(initial) } : {}),
      children: children.map((c) => this.id(c)),
      ...(node === this.source.root || !node.parent ? {} : { parent: this.id(node.parent) }),
      ...(entry.length > 0 ? { entry } : {}),
    });
    if (node.eventless) throw new Error(`statechart: eventless transitions on ${node.id}`);
    for (const [event, transitions] of node.transitions) this.readEvent(node, event, transitions);
    for (const child of children) this.read(child);
  }

  readEvent(node: ChartNode, event: string, transitions: readonly ChartTransition[]): void {
    const firable = this.judge ? firableTransitions(transitions, this.source.chart) : undefined;
    transitions.forEach((t, i) => {
      const [target, ...more] = t.target ?? [];
      if (more.length > 0) throw new Error(`statechart: ${node.id} has a multi-target ${event}`);
      const guard = guardText(t.guard, (id) => this.stateName(id));
      this.edges.push({
        source: this.id(node),
        target: this.id(target ?? node),
        event,
        internal: Object.hasOwn(internalEvents, event),
        targetless: target === undefined,
        ...(guard === undefined ? {} : { guard }),
        actions: t.actions.map(actionName),
        disabled: firable !== undefined && !firable.includes(i),
      });
    });
  }

  stateName(id: string): string {
    const node = this.source.chart.byId.get(id);
    return node ? this.source.stateName(node) : id;
  }
}

/**
 * The statechart `machine` as plain data. Node ids are dot paths from the chart's root (`received`,
 * `placeholder.waiting`; in `request`: `prefill.placeholder.waiting`); the root's id and key are
 * the chart's name. Nodes and edges are in document order.
 *
 * Without `variant` nothing is marked. With it, an edge is `disabled` when it can never fire
 * whatever the data and the other regions' states: among its source state's transitions for its
 * event (document order, first true guard wins), no assignment of the data guards and `stateIn`
 * tests makes its guard true and every earlier guard false, once the switches have the variant's
 * values (`transferFaultsEnabled` counts as on: a fault is possible in any deployment). Only the
 * source's own list is read: a transition of a compound state that its descendants always
 * pre-empt stays enabled (these machines have none). Then states no run can enter, and edges
 * leaving them, are marked `unreachable`.
 *
 * `options` reads the serving charts in a transfer mode (push unless given) and, with a variant,
 * takes the fault guards in `options.faultsOff` as false: the chart as scenarios that switch those
 * mechanisms off can run it.
 */
export function chartGraph(
  machine: ChartName,
  variant?: Variant,
  options: ChartOptions = {},
): ChartGraph {
  const structural = variant ?? variants[0];
  if (!structural) throw new Error('statechart: no built-in variant to read the machines with');
  const source = sourceOf(machine, structural, options);
  const reader = new ChartReader(machine, source, variant !== undefined);
  reader.read(source.root);
  const chart = { name: machine, root: machine, nodes: reader.nodes, edges: reader.edges };
  if (!variant) return chart;
  const reachable = reachableStates(chart.nodes, chart.edges, chart.root);
  return {
    ...chart,
    variant: variant.name,
    nodes: chart.nodes.map((n) => ({ ...n, unreachable: !reachable.has(n.id) })),
    edges: chart.edges.map((e) => ({ ...e, unreachable: !reachable.has(e.source) })),
  };
}
