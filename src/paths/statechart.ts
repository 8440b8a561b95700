/**
 * The statechart of one request, read from the composed machine: its four regions (router,
 * prefill, transfer, decode) as plain state nodes, and the configurations of their product.
 * The nodes come from the engine's `readStatechart`, so nothing here reads XState's objects.
 */
import type { AnyStateMachine } from 'xstate';
import { requestRegions } from '../../machines/regionIds.ts';
import type { Scenario, TransferMode } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { FaultGuard } from '../../machines/servingSetup.ts';
import type { Variant } from '../../machines/variants.ts';
import { readStatechart, type StatechartNode, type StatechartTransition } from '../engine/index.ts';

/** A state node of a statechart, as the path check reads it (the engine's plain node). */
export type ChartNode = StatechartNode;

/** A transition of a state node, guard and actions as the config writes them. */
export type ChartTransition = StatechartTransition;

/** One request's statechart under one variant. */
export interface Chart {
  readonly variant: Variant;
  /** The region nodes, in `requestRegions` order. */
  readonly regions: readonly ChartNode[];
  /** Every state node of the machine by id (`serving.r1.prefill.placeholder`). */
  readonly byId: ReadonlyMap<string, ChartNode>;
  /** Every state node inside a region by `region.path`, in document order. */
  readonly states: ReadonlyMap<string, ChartNode>;
  /**
   * Fault guards read as false: the mechanisms a group of scenarios switches off. Absent or
   * empty: every fault guard reads as true, a fault being possible in some deployment.
   */
  readonly faultsOff?: ReadonlySet<FaultGuard>;
  /** The transfer mode the chart was read in (absent: push, the default). */
  readonly transfer?: TransferMode;
}

/** How a chart is read beyond its variant: the transfer mode, and fault mechanisms off. */
export interface ChartOptions {
  /** The transfer mode whose regions are read (absent: `push`). */
  readonly transfer?: TransferMode;
  /** Fault guards to read as false (absent: none; every fault is possible). */
  readonly faultsOff?: readonly FaultGuard[];
}

/** A product configuration: the current leaf of each region, in `requestRegions` order. */
export type Config = readonly ChartNode[];

const rid = 'r1';

/** Any valid one-request scenario: only the statechart's shape is read, never its data. */
const probe: Scenario = {
  name: 'paths-probe',
  description: 'One request, to build the per-request statechart.',
  requests: [{ id: rid, tenant: 'T', promptLen: 1, outputLen: 2 }],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: true,
  prefillChunks: 2,
  clientAborts: true,
  witnesses: [],
};

/** Every state node below `node`, in document order (depth first, parents before children). */
export function descendants(node: ChartNode): ChartNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...descendants(child)]);
}

/**
 * The statechart of one request of the composed machine built for `variant`, in `options`'
 * transfer mode (push unless given), its guards read with `options.faultsOff` false.
 */
export function chartOf(variant: Variant, options: ChartOptions = {}): Chart {
  const scenario: Scenario = options.transfer ? { ...probe, transfer: options.transfer } : probe;
  const root = readStatechart(createServingMachine(scenario, variant));
  const regions = requestRegions.map((r) => {
    const node = root.states[rid]?.states[r];
    if (!node) throw new Error(`paths: the composed machine has no region ${rid}.${r}`);
    return node;
  });
  const byId = new Map([root, ...descendants(root)].map((n) => [n.id, n]));
  const states = new Map(regions.flatMap(descendants).map((n) => [statePath(n), n]));
  const faultsOff = new Set(options.faultsOff ?? []);
  return {
    variant,
    regions,
    byId,
    states,
    ...(faultsOff.size > 0 ? { faultsOff } : {}),
    ...(options.transfer ? { transfer: options.transfer } : {}),
  };
}

/** The root state node of any XState machine (`pageMachine`), as a plain `ChartNode`. */
export function rootNode(machine: AnyStateMachine): ChartNode {
  return readStatechart(machine);
}

/** `region.path` of a state node: `prefill.placeholder.bootstrapping`. */
export function statePath(node: ChartNode): string {
  return node.path.slice(1).join('.');
}

/** The path of a state node inside its region: `placeholder.bootstrapping`. */
export function localPath(node: ChartNode): string {
  return node.path.slice(2).join('.');
}

/** Index of the node's region in `requestRegions`, or -1 above the regions. */
export function regionIndex(node: ChartNode): number {
  return (requestRegions as readonly (string | undefined)[]).indexOf(node.path[1]);
}

/** Whether `node` is `ancestor` or lies below it. */
export function within(node: ChartNode, ancestor: ChartNode): boolean {
  return node === ancestor || (node.parent !== undefined && within(node.parent, ancestor));
}

/** Whether `node` is active in `config`: the current leaf of its region is it or below it. */
export function isActive(config: Config, node: ChartNode): boolean {
  const leaf = config[regionIndex(node)];
  return leaf === undefined || within(leaf, node);
}

/** The leaf entered when `node` is entered: follow `initial` down to an atomic state. */
export function initialLeaf(node: ChartNode): ChartNode {
  const next = node.initial?.target[0];
  return next ? initialLeaf(next) : node;
}

/** A stable key for a configuration. */
export function configKey(config: Config): string {
  return config.map((n) => n.id).join('|');
}
