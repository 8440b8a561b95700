/**
 * Checks one scenario under one variant: explores the state space, evaluates every selected
 * property (state properties on every state, terminal ones where nothing can move) and every
 * witness, and returns the shortest counterexample for each violated property.
 */

import { properties } from '../../invariants/index.ts';
import type { Property } from '../../invariants/property.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import type { LifecycleMove, PropertyResult, ScenarioResult, Trace, Verdict } from './outcome.ts';
import { witnessResultsOf } from './outcome.ts';
import {
  type ExploreLimits,
  exploreMachine,
  type StateGraph,
  shortestPathTree,
} from './stateGraph.ts';
import { regionSnapshot, traceFrom } from './stepChanges.ts';

/** What to check and how far to look. */
export interface CheckOptions extends ExploreLimits {
  /** Property names to check. @default every property */
  readonly properties?: readonly string[];
  /** Witnesses the scenario must reach for a pass to count. @default none */
  readonly requiredWitnesses?: readonly string[];
}

type Tree = ReturnType<typeof shortestPathTree>;

function traceTo(graph: StateGraph, tree: Tree, target: number, message: string): Trace {
  const path: { event: ExternalEvent; state: ServingState }[] = [];
  for (let v = target; v !== 0; ) {
    const edge = tree.parent[v];
    const state = graph.states[v];
    if (!edge || !state) break;
    path.push({ event: edge.event, state });
    v = edge.from;
  }
  return traceFrom(graph.states[0] as ServingState, path.reverse(), message);
}

function firstViolation(
  graph: StateGraph,
  tree: Tree,
  prop: Property,
): { vertex: number; message: string } | null {
  for (const v of tree.order) {
    if (prop.kind === 'terminal') {
      const terminal = graph.expanded[v] === true && (graph.edges[v]?.length ?? 0) === 0;
      if (!terminal) continue;
    }
    const message = prop.explain(graph.states[v] as ServingState);
    if (message !== null) return { vertex: v, message };
  }
  return null;
}

/** Distinct lifecycle moves: for each edge, the moving request's regions before and after. */
function lifecycleMoves(graph: StateGraph): LifecycleMove[] {
  const moves = new Map<string, LifecycleMove>();
  graph.edges.forEach((out, from) => {
    const source = graph.states[from];
    if (!source) return;
    const before = regionSnapshot(source);
    for (const e of out) {
      const target = graph.states[e.to];
      if (!target) continue;
      const move = {
        event: e.event.type,
        before: before[e.event.rid] ?? {},
        after: regionSnapshot(target)[e.event.rid] ?? {},
      };
      moves.set(JSON.stringify(move), move);
    }
  });
  return [...moves.keys()].sort().map((k) => moves.get(k) as LifecycleMove);
}

/** Checks `scenario` under `variant`; see `CheckOptions` for the defaults. */
export function checkScenario(
  scenario: Scenario,
  variant: Variant,
  options: CheckOptions = {},
): ScenarioResult {
  return checkMachine(createServingMachine(scenario, variant), scenario, variant.name, options);
}

/**
 * Checks a composed machine built for `scenario`, reported under `variantName`. Use it to check
 * a machine whose implementations were replaced with `machine.provide` (a seeded bug).
 */
export function checkMachine(
  machine: ServingMachine,
  scenario: Scenario,
  variantName: string,
  options: CheckOptions = {},
): ScenarioResult {
  const started = performance.now();
  const graph = exploreMachine(machine, scenario, options);
  const tree = shortestPathTree(graph);
  const names = options.properties ?? Object.keys(properties);
  const complete = graph.bound === undefined;
  const propertyResults: PropertyResult[] = names.map((name) => {
    const prop = properties[name];
    if (!prop) throw new Error(`unknown property ${name}`);
    const found = firstViolation(graph, tree, prop);
    if (found) {
      return {
        name,
        statement: prop.statement,
        status: 'violated',
        trace: traceTo(graph, tree, found.vertex, found.message),
      };
    }
    return { name, statement: prop.statement, status: complete ? 'holds' : 'unknown' };
  });
  const witnessResults = witnessResultsOf(
    (_, w) => graph.states.some((s) => w(s)),
    options.requiredWitnesses,
  );
  const transitions = graph.edges.reduce((n, out) => n + out.length, 0);
  const depth = tree.order.reduce((d, v) => Math.max(d, tree.depth[v] ?? 0), 0);
  const status: Verdict = propertyResults.some((p) => p.status === 'violated')
    ? 'violation'
    : complete
      ? 'ok'
      : 'incomplete';
  const result: ScenarioResult = {
    scenario: scenario.name,
    variant: variantName,
    status,
    stats: {
      states: graph.states.length,
      transitions,
      depth,
      ms: Math.round(performance.now() - started),
    },
    properties: propertyResults,
    witnesses: witnessResults,
    coverage: lifecycleMoves(graph),
  };
  return graph.bound ? { ...result, bound: graph.bound } : result;
}
