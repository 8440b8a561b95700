/**
 * The page statechart is the specification of one page; the composed system keeps pages as pool
 * data. Every transition of every built-in scenario's state space is replayed page by page
 * through `pageMachine`: the pool's owner and last writer must match the machine's, and no page
 * may be written by a request that does not hold it.
 */
import { initialTransition, transition } from 'xstate';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import { type PageEvent, pageMachine } from '../../machines/pageMachine.ts';
import { findVariant } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { shortestPathTree, stateGraphOf } from '../../src/checker/stateGraph.ts';

type PageSnapshot = ReturnType<typeof initialTransition<typeof pageMachine>>[0];

function pageEvents(a: PagePool, b: PagePool, page: number): PageEvent[] {
  const events: PageEvent[] = [];
  const was = a.owner[page] ?? null;
  const now = b.owner[page] ?? null;
  if (was === null && now !== null) events.push({ type: 'ALLOCATE', rid: now });
  for (let off = 0; off < b.pageSize; off++) {
    const slot = page * b.pageSize + off;
    const w = b.writer[slot] ?? null;
    if (w !== null && w !== (a.writer[slot] ?? null)) events.push({ type: 'WRITE', rid: w });
  }
  if (was !== null && now === null) events.push({ type: 'FREE' });
  return events;
}

function step(snapshot: PageSnapshot, events: readonly PageEvent[]): PageSnapshot {
  let s = snapshot;
  for (const e of events) s = transition(pageMachine, s, e)[0];
  return s;
}

describe.each([
  [incident, 'incident-2026'],
  [happy, 'fixed'],
] as const)('pages of %s under %s', (scenario, variantName) => {
  it('follow the page statechart on every transition', () => {
    const v = findVariant(variantName);
    if (!v) throw new Error(variantName);
    const graph = stateGraphOf(scenario, v);
    const tree = shortestPathTree(graph);
    const [fresh] = initialTransition(pageMachine);
    const pools = ['prefillPool', 'decodePool'] as const;
    const pagesAt = new Map<number, PageSnapshot[][]>();
    const first = graph.states[0];
    const initial = first ? decodeContext(first.context) : undefined;
    pagesAt.set(
      0,
      pools.map((pool) => initial?.[pool].owner.map(() => fresh) ?? []),
    );
    let checked = 0;
    const mismatches: string[] = [];
    for (const from of tree.order) {
      const sourceState = graph.states[from];
      const pages = pagesAt.get(from);
      if (!sourceState || !pages) throw new Error(`vertex ${from} not reached`);
      const source = decodeContext(sourceState.context);
      for (const edge of graph.edges[from] ?? []) {
        const targetState = graph.states[edge.to];
        if (!targetState) throw new Error(`vertex ${edge.to} missing`);
        const target = decodeContext(targetState.context);
        const next = pools.map((pool, i) =>
          (pages[i] ?? []).map((snap, page) =>
            step(snap, pageEvents(source[pool], target[pool], page)),
          ),
        );
        pools.forEach((pool, i) => {
          next[i]?.forEach((snap, page) => {
            const owner = target[pool].owner[page] ?? null;
            const writer = target[pool].writer[page] ?? null;
            if (
              snap.value === 'writtenAfterFree' ||
              snap.context.owner !== owner ||
              snap.context.lastWriter !== writer
            ) {
              mismatches.push(`${pool} page ${page} after ${edge.event.type} ${edge.event.rid}`);
            }
          });
        });
        if (tree.parent[edge.to]?.from === from && !pagesAt.has(edge.to))
          pagesAt.set(edge.to, next);
        checked++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(graph.edges.reduce((n, out) => n + out.length, 0));
  });
});
