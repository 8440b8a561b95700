/**
 * What a variant's switches leave of a statechart, decided edge by edge and state by state
 * without a scenario: every data guard and every `stateIn` test is left open (either value), only
 * the switches have a value. Both answers err on the side of "can happen", so `disabled` and
 * `unreachable` are proofs that something cannot happen, never guesses.
 */
import { compileGuard, firing, type Guard } from '../paths/guards.ts';
import type { Chart, ChartTransition } from '../paths/statechart.ts';
import type { ChartEdge, ChartStateNode } from './chartGraph.ts';

/** `stateIn` tests become open data atoms: a single edge is judged in no configuration. */
function openStateTests(g: Guard): Guard {
  if (g.op === 'in') return { op: 'atom', key: `stateIn#${g.node.id}` };
  if (g.op === 'const' || g.op === 'atom') return g;
  return { op: g.op, args: g.args.map(openStateTests) };
}

/**
 * Indices of `transitions` (one state's candidates for one event, in document order) that can
 * fire under `chart.variant`. XState takes the first candidate whose guard is true, so a
 * candidate can fire only under some assignment of the open guards that makes its guard true and
 * every earlier guard false; one data guard tested twice keeps one value (`firing` case-splits).
 */
export function firableTransitions(
  transitions: readonly ChartTransition[],
  chart: Chart,
): number[] {
  const candidates = transitions.map((t, index) => ({
    index,
    guard: openStateTests(compileGuard(t.guard, chart)),
  }));
  return firing(candidates, []).flatMap((c) => (c ? [c.index] : []));
}

/**
 * Ids of the states that some run can enter, when the run starts at `root` and takes only edges
 * that are not disabled. Entering a state by default enters its initial child (every child of a
 * parallel state); entering a target enters it by default, its ancestors, and by default the
 * other regions of any parallel ancestor. Guards are open, so this over-approximates.
 */
export function reachableStates(
  nodes: readonly ChartStateNode[],
  edges: readonly ChartEdge[],
  root: string,
): Set<string> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const active = new Set<string>();
  const byDefault = new Set<string>();
  const enterByDefault = (id: string): void => {
    const node = byId.get(id);
    if (!node || byDefault.has(id)) return;
    byDefault.add(id);
    active.add(id);
    if (node.kind === 'parallel') node.children.forEach(enterByDefault);
    else if (node.initial !== undefined) enterByDefault(node.initial);
  };
  const enterTarget = (id: string): void => {
    enterByDefault(id);
    let child = id;
    for (let up = byId.get(id)?.parent; up !== undefined; up = byId.get(up)?.parent) {
      active.add(up);
      const parent = byId.get(up);
      if (parent?.kind === 'parallel')
        for (const region of parent.children) if (region !== child) enterByDefault(region);
      child = up;
    }
  };
  enterByDefault(root);
  let before = -1;
  while (active.size !== before) {
    before = active.size;
    for (const e of edges)
      if (!e.disabled && !e.targetless && active.has(e.source)) enterTarget(e.target);
  }
  return active;
}
