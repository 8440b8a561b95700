/**
 * The statecharts as `ChartGraph` data: their shape, guard and action text, and what each
 * variant's switches rule out. The marks are checked against the structural product graph of
 * `src/paths`: every step it takes is a live edge (sound), and the live edges it never takes are
 * exactly the known-dead ones (near exact).
 */
import { variantNamed, variants } from '../../machines/variants.ts';
import type { ChartEdge, ChartGraph } from '../../src/export/chartGraph.ts';
import { chartGraph, chartNames } from '../../src/export/statechart.ts';
import { productGraph } from '../../src/paths/productGraph.ts';

function edge(chart: ChartGraph, source: string, target: string, event?: string): ChartEdge {
  const found = chart.edges.filter(
    (e) => e.source === source && e.target === target && (!event || e.event === event),
  );
  if (found.length !== 1) throw new Error(`${found.length} edges ${source} → ${target}`);
  return found[0] as ChartEdge;
}

const under = (path: string, node: string) => path === node || path.startsWith(`${node}.`);
const live = (e: ChartEdge) => !e.disabled && !e.unreachable;

describe('chartGraph', () => {
  it.each([
    ...chartNames.map((n) => [n, undefined] as const),
    ['request', 'incident-2026'] as const,
    ['request', 'fixed'] as const,
  ])('pins the states and transitions of %s (variant %s)', (name, variant) => {
    const chart = chartGraph(name, variant === undefined ? undefined : variantNamed(variant));
    const states = chart.nodes.map(
      (n) => `${n.id} (${n.kind}${n.tags.length ? `; ${n.tags.join(', ')}` : ''})`,
    );
    const transitions = chart.edges.map(
      (e) =>
        `${e.source} -> ${e.target}: ${e.event}${e.guard ? ` [${e.guard}]` : ''}${
          e.actions.length ? ` / ${e.actions.join(', ')}` : ''
        }${e.disabled ? ' (disabled)' : ''}`,
    );
    expect({ states, transitions }).toMatchSnapshot();
  });

  it.each(chartNames)('builds %s as a consistent tree with edges between its states', (name) => {
    const chart = chartGraph(name);
    const ids = chart.nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(chart.root).toBe(name);
    for (const n of chart.nodes) {
      for (const c of n.children) expect(chart.nodes.find((m) => m.id === c)?.parent).toBe(n.id);
      if (n.initial !== undefined) expect(n.children).toContain(n.initial);
    }
    for (const e of chart.edges) {
      expect(ids).toContain(e.source);
      expect(ids).toContain(e.target);
      expect(e.disabled).toBe(false); // no variant: nothing is marked
      expect(e.unreachable).toBeUndefined();
    }
  });

  it('nests one request as four parallel regions whose ids are paths from the region', () => {
    const chart = chartGraph('request');
    expect(chart.nodes[0]).toMatchObject({ id: 'request', kind: 'parallel' });
    expect(chart.nodes[0]?.children).toEqual(['router', 'prefill', 'transfer', 'decode']);
    expect(chart.nodes.map((n) => n.id)).toContain('prefill.placeholder.waiting');
    expect(chartGraph('prefill').nodes.map((n) => n.id)).toContain('placeholder.waiting');
  });

  it('gives prefill a placeholder composite tagged rejected, and final done states', () => {
    const chart = chartGraph('prefill');
    const placeholder = chart.nodes.find((n) => n.id === 'placeholder');
    expect(placeholder).toMatchObject({ kind: 'compound', tags: ['rejected'] });
    expect(placeholder?.initial).toBe('placeholder.bootstrapping');
    const finals = chart.nodes.filter((n) => n.kind === 'final').map((n) => n.id);
    expect(finals).toEqual([
      'done.clientError',
      'done.retired',
      'done.finished',
      'done.failed',
      'done.aborted',
    ]);
  });

  it('writes guards without the request filter, with && ! and in', () => {
    const prefill = chartGraph('prefill');
    expect(edge(prefill, 'received', 'done.retired').guard).toBe(
      'prefillSchedulerRejects && admissionRetire',
    );
    expect(edge(prefill, 'received', 'admitted').guard).toBeUndefined();
    expect(edge(prefill, 'admitted.inflight', 'done.finished').guard).toBe('in transfer.success');
    const decode = chartGraph('decode');
    expect(edge(decode, 'admitted.preallocPending', 'done.failed', 'TIMEOUT').guard).toBe(
      'in prefill.done && !in transfer.success && !in transfer.failed && !in transfer.draining && !decodeWaitsForeverForKv',
    );
  });

  it('names actions, raised events as raise EVENT, and marks internal events', () => {
    const prefill = chartGraph('prefill');
    expect(edge(prefill, 'received', 'placeholder').actions).toEqual([
      'swapForPlaceholder',
      'raise SENDER_CREATED',
    ]);
    const transfer = chartGraph('transfer');
    const internal = transfer.edges.filter((e) => e.internal).map((e) => e.event);
    expect(new Set(internal)).toEqual(
      new Set([
        'SENDER_CREATED',
        'METADATA_SENT',
        'KV_CHUNK_SENT',
        'SENDER_ABORTED',
        'RECEIVER_ABORTED',
      ]),
    );
    expect(transfer.edges.find((e) => e.event === 'TRANSFER_FAIL')?.internal).toBe(false);
    expect(transfer.nodes.find((n) => n.id === 'bootstrapping')?.entry).toEqual(['recordPoll']);
  });

  it('keeps targetless transitions as self-loops', () => {
    const step = edge(chartGraph('decode'), 'admitted.running', 'admitted.running');
    expect(step).toMatchObject({ event: 'DECODE_STEP', targetless: true });
    expect(chartGraph('page').edges.filter((e) => e.targetless)).toHaveLength(1);
  });
});

describe('what a variant disables', () => {
  it('disables the placeholder entry under fixed, which the retire edge before it pre-empts', () => {
    const fixed = chartGraph('prefill', variantNamed('fixed'));
    expect(edge(fixed, 'received', 'placeholder').disabled).toBe(true);
    // Open data guards ahead of it do not disable the last, unguarded candidate.
    expect(edge(fixed, 'received', 'admitted').disabled).toBe(false);
    expect(edge(fixed, 'received', 'done.clientError').disabled).toBe(false);
    expect(edge(fixed, 'received', 'done.retired').disabled).toBe(false);
  });

  it('keeps the placeholder entry under incident-2026 and disables the admission retire', () => {
    const incident = chartGraph('prefill', variantNamed('incident-2026'));
    expect(edge(incident, 'received', 'placeholder').disabled).toBe(false);
    expect(edge(incident, 'received', 'done.retired', 'PREFILL_INTAKE').disabled).toBe(true);
    expect(edge(incident, 'placeholder.forwarded', 'done.retired').disabled).toBe(true);
    expect(edge(incident, 'placeholder.forwarded', 'placeholder.inflight').disabled).toBe(false);
  });

  it('disables the placeholder SEND_KV once retireAbortedResult always takes it first', () => {
    for (const name of ['fixed', 'retire-only']) {
      const chart = chartGraph('prefill', variantNamed(name));
      expect(edge(chart, 'placeholder.forwarded', 'placeholder.inflight').disabled).toBe(true);
      expect(edge(chart, 'placeholder.forwarded', 'done.retired').disabled).toBe(false);
    }
  });

  it('disables the coverage failure without coverageCheck and the fail-fast reply under decodeOnly', () => {
    // The coverage failure, not the aux room check's (`auxRoomMismatch`) on the same edge.
    const commitFails = (name: string) =>
      chartGraph('decode', variantNamed(name)).edges.find(
        (e) =>
          e.source === 'admitted.awaitingKv' &&
          e.target === 'done.failed' &&
          e.event === 'DECODE_COMMIT' &&
          e.guard?.startsWith('coverageCheck'),
      )?.disabled;
    expect(commitFails('incident-2026')).toBe(true);
    expect(commitFails('coverage-only')).toBe(false);
    for (const v of variants) {
      const [failFast, decodeOnly] = chartGraph('router', v).edges.filter(
        (e) => e.event === 'ROUTER_REPLY',
      );
      expect([failFast?.disabled, decodeOnly?.disabled]).toEqual([true, false]);
    }
  });

  it('marks the placeholder subtrees unreachable under fixed, and only them', () => {
    const fixed = chartGraph('request', variantNamed('fixed'));
    const unreachable = fixed.nodes.filter((n) => n.unreachable).map((n) => n.id);
    // decode.done.aborted is reachable under fixed too: a client abort ends there.
    expect(unreachable.filter((id) => !id.includes('.placeholder'))).toEqual([]);
    expect(unreachable).toContain('prefill.placeholder.forwarded');
    const send = edge(fixed, 'prefill.placeholder.forwarded', 'prefill.placeholder.inflight');
    expect(send).toMatchObject({ disabled: true, unreachable: true });
  });

  it.each(variants.map((v) => v.name))(
    'under %s: every product-graph step is a live edge, and every live edge is taken',
    (name) => {
      const chart = chartGraph('request', variantNamed(name));
      const graph = productGraph(variantNamed(name));
      const taken = new Set<ChartEdge>();
      for (const steps of graph.edges.values()) {
        for (const step of steps) {
          for (const m of step.moves) {
            const [from, to] = [`${m.region}.${m.from}`, `${m.region}.${m.to}`];
            const takes = chart.edges.filter(
              (e) =>
                !e.targetless &&
                under(from, e.source) &&
                under(to, e.target) &&
                (e.internal || e.event === step.event),
            );
            expect(takes.some(live), `${step.event}: ${from} → ${to}`).toBe(true);
            for (const e of takes) taken.add(e);
          }
        }
      }
      // Why this test? It found a dead edge once: decode's TIMEOUT in awaitingKv, whose guard
      // (prefill done, room neither Success nor Failed) cannot hold after the room opened.
      const never = chart.edges.filter((e) => live(e) && !e.targetless && !taken.has(e));
      expect(never.map((e) => `${e.source} ${e.event}`)).toEqual([]);
    },
  );
});
