/**
 * The difference two variants make to one chart: which transitions only one of them can take,
 * and the DOT drawing of it.
 */
import { variantNamed } from '../../machines/variants.ts';
import { diffCharts, diffColours, toDotDiff } from '../../src/export/chartDiff.ts';
import { chartGraph } from '../../src/export/statechart.ts';

const request = (name: string) => chartGraph('request', variantNamed(name));

describe('diffCharts', () => {
  const d = diffCharts(request('incident-2026'), request('fixed'));
  const names = (list: typeof d.onlyInA) => list.map((c) => c.name);

  it('names the placeholder path that only incident-2026 has, up to SEND_KV', () => {
    expect(names(d.onlyInA)).toEqual(
      expect.arrayContaining([
        'prefill.received → prefill.placeholder on PREFILL_INTAKE [prefillSchedulerRejects]',
        'prefill.placeholder.waiting → prefill.placeholder.forwarded on PREFILL_FORWARD [prefillFits]',
        'prefill.placeholder.forwarded → prefill.placeholder.inflight on SEND_KV',
        'decode.received → decode.placeholder on DECODE_INTAKE [decodeSchedulerRejects]',
        'decode.placeholder.awaitingKv → decode.done.aborted on DECODE_COMMIT [in transfer.success || roomSucceeded]',
      ]),
    );
    expect(
      d.onlyInA.every(
        (c) => c.edge.source.includes('placeholder') || c.edge.target.includes('placeholder'),
      ),
    ).toBe(true);
    expect(d.onlyInA.find((c) => c.edge.target === 'prefill.placeholder')?.absentBecause).toBe(
      'disabled',
    );
    expect(d.onlyInA.find((c) => c.edge.event === 'PREFILL_FORWARD')?.absentBecause).toBe(
      'unreachable',
    );
  });

  it('names the admission retire edges that only fixed has', () => {
    expect(names(d.onlyInB)).toEqual([
      'prefill.received → prefill.done.retired on PREFILL_INTAKE [prefillSchedulerRejects && admissionRetire]',
      'prefill.admitted.forwarded → prefill.done.aborted on SEND_KV [clientAborted && retireAbortedResult]',
      'decode.received → decode.done.retired on DECODE_INTAKE [decodeSchedulerRejects && admissionRetire]',
    ]);
  });

  it('is symmetric, and empty for a variant against itself', () => {
    const back = diffCharts(request('fixed'), request('incident-2026'));
    expect(names(back.onlyInA)).toEqual(names(d.onlyInB));
    expect(names(back.onlyInB)).toEqual(names(d.onlyInA));
    const same = diffCharts(request('fixed'), request('fixed'));
    expect([same.onlyInA, same.onlyInB]).toEqual([[], []]);
  });

  it('refuses charts of different machines or without a variant', () => {
    expect(() =>
      diffCharts(request('fixed'), chartGraph('prefill', variantNamed('fixed'))),
    ).toThrow(/different machines/);
    expect(() => diffCharts(chartGraph('request'), request('fixed'))).toThrow(/without a variant/);
  });
});

describe('toDotDiff', () => {
  const [a, b] = [request('incident-2026'), request('fixed')];
  const dot = toDotDiff(a, b);
  const lineWith = (part: string) => dot.split('\n').find((l) => l.includes(part)) ?? '';
  const at = (source: string, target: string) =>
    b.edges.findIndex((e) => e.source === source && e.target === target);

  it('draws the fixed chart with the edges only incident-2026 has in one colour', () => {
    const i = at('prefill.received', 'prefill.placeholder');
    expect(lineWith(`"s:prefill.received" -> "l:${i}"`)).toContain(
      `color="${diffColours.onlyInA}"`,
    );
    expect(lineWith(`"l:${i}" [`)).toContain('\\nonly in incident-2026"');
  });

  it('and the edges only fixed has in another, with a legend drawn as the edges are', () => {
    const i = at('prefill.received', 'prefill.done.retired');
    expect(lineWith(`"l:${i}" -> "s:prefill.done.retired"`)).toContain(
      `color="${diffColours.onlyInB}"`,
    );
    expect(dot).toContain('subgraph "cluster:legend"');
    // 21: the placeholder path's edges, including both sides' TIMEOUT out of a placeholder
    // bootstrap, which fixed never reaches (it retires rejected prompts at admission); 3 of
    // them fixed disables (dashed), 18 leave a state it never enters (dotted).
    expect(dot).toContain('label="only in incident-2026; disabled in fixed (3)"');
    expect(dot).toContain('label="only in incident-2026; unreachable in fixed (18)"');
    expect(lineWith('"k:5:a" -> "k:5:b"')).toContain(
      `style=dashed, penwidth=2, color="${diffColours.onlyInA}"`,
    );
    expect(lineWith('"k:6:a" -> "k:6:b"')).toContain(
      `style=dotted, penwidth=2, color="${diffColours.onlyInA}"`,
    );
    expect(dot).toContain('label="only in fixed (3)"');
    expect(dot).toContain('label="request: fixed, compared with incident-2026"');
  });
});
