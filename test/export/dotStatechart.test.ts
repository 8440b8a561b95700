/**
 * Graphviz DOT text of the statecharts: every edge of the chart drawn once, split by a node
 * carrying its label, and the drawing rules below. What the charts contain is pinned once, as a projection of the chart
 * (`statechart.test.ts`); here only how DOT draws it.
 */
import { variantNamed } from '../../machines/variants.ts';
import { toDot, wrapLine } from '../../src/export/dotStatechart.ts';
import { chartGraph, chartNames } from '../../src/export/statechart.ts';

const lineWith = (text: string, part: string) => text.split('\n').find((l) => l.includes(part));

/** The statement declaring the label node of the edge at `index`. */
const labelOf = (text: string, index: number) => lineWith(text, `"l:${index}" [`) ?? '';
/** The two halves of the edge at `index`: into its label node, and out of it. */
const halvesOf = (text: string, index: number) =>
  text.split('\n').filter((l) => l.includes(`-> "l:${index}" [`) || l.includes(`"l:${index}" ->`));
const indexOf = (
  chart: ReturnType<typeof chartGraph>,
  source: string,
  target: string,
  event: string,
) => chart.edges.findIndex((e) => e.source === source && e.target === target && e.event === event);

describe('toDot', () => {
  it.each(chartNames)(
    'draws each edge of %s once, split by a label node naming its event',
    (name) => {
      const chart = chartGraph(name, variantNamed('fixed'));
      const text = toDot(chart);
      const labels = text.split('\n').filter((l) => /^\s*"l:\d+" \[/.test(l));
      expect(labels).toHaveLength(chart.edges.length);
      chart.edges.forEach((e, i) => {
        expect(labelOf(text, i), `${e.source} → ${e.target}`).toContain(`label="${e.event}`);
        const [into, out] = halvesOf(text, i);
        expect(into).toContain('arrowhead=none');
        expect(out).not.toContain('arrowhead');
      });
    },
  );

  it('names one font, Arial, that Graphviz measures: never a list', () => {
    const text = toDot(chartGraph('request', variantNamed('incident-2026')));
    const fonts = new Set(text.match(/fontname="[^"]*"/g));
    expect([...fonts]).toEqual(['fontname="Arial"']);
  });

  it('gives every label node a width that holds its longest line', () => {
    const text = toDot(chartGraph('prefill'));
    const line = labelOf(text, 0);
    expect(line).toMatch(/shape=none/);
    expect(Number(/width=([\d.]+)/.exec(line)?.[1])).toBeGreaterThan(1);
  });

  it('breaks a long guard after && onto lines of at most 44 characters', () => {
    expect(
      wrapLine('[prefillErrorsEnabled && in transfer.transferring && errorReleasesKvImmediately]'),
    ).toEqual([
      '[prefillErrorsEnabled &&',
      'in transfer.transferring &&',
      'errorReleasesKvImmediately]',
    ]);
    expect(wrapLine('/ swapForPlaceholder, raise SENDER_CREATED')).toEqual([
      '/ swapForPlaceholder, raise SENDER_CREATED',
    ]);
  });

  it('draws compound states as clusters and regions as dashed clusters', () => {
    const text = toDot(chartGraph('request'));
    expect(text).toMatch(/graph \[compound=true,/);
    expect(text).toContain('subgraph "cluster:prefill.placeholder" {');
    expect(lineWith(text, 'label="prefill", style="rounded,dashed"')).toBeDefined();
    expect(lineWith(text, 'label="placeholder", style=rounded')).toBeDefined();
    expect(text).toContain('"a:prefill.placeholder" [shape=point, style=invis');
  });

  it('ends edges into a compound state at its border with lhead', () => {
    const chart = chartGraph('prefill');
    const text = toDot(chart);
    const i = indexOf(chart, 'received', 'placeholder', 'PREFILL_INTAKE');
    expect(lineWith(text, `"l:${i}" -> "a:placeholder"`)).toContain('lhead="cluster:placeholder"');
    expect(lineWith(text, `"s:received" -> "l:${i}"`)).not.toContain('lhead');
    expect(labelOf(text, i)).toContain(
      'label="PREFILL_INTAKE\\n[prefillSchedulerRejects]\\n/ swapForPlaceholder, raise SENDER_CREATED"',
    );
  });

  it('puts a label node in the innermost cluster holding both ends of its edge', () => {
    const chart = chartGraph('prefill');
    const text = toDot(chart).split('\n');
    const within = (cluster: string, index: number) => {
      const open = text.findIndex((l) => l.includes(`subgraph "cluster:${cluster}" {`));
      const depth = /^\s*/.exec(text[open] ?? '')?.[0].length ?? 0;
      const close = text.findIndex((l, j) => j > open && l === `${' '.repeat(depth)}}`);
      return text.slice(open, close).some((l) => l.includes(`"l:${index}" [`));
    };
    expect(
      within('admitted', indexOf(chart, 'admitted.waiting', 'admitted.chunked', 'PREFILL_FORWARD')),
    ).toBe(true);
    expect(
      within(
        'admitted',
        indexOf(chart, 'admitted.inflight', 'admitted.inflight', 'REQUEST_ABORTED'),
      ),
    ).toBe(true);
    expect(
      within('admitted', indexOf(chart, 'admitted.inflight', 'done.finished', 'PREFILL_RELEASE')),
    ).toBe(false);
  });

  it('draws rejected states red and final states with a double border', () => {
    const text = toDot(chartGraph('prefill'));
    expect(lineWith(text, '"s:done.retired" [')).toMatch(/color="#c62828".*peripheries=2/);
    expect(lineWith(text, '"s:done.finished" [')).toContain('peripheries=2');
    expect(lineWith(text, 'label="placeholder"')).toContain('color="#c62828"');
  });

  it('draws disabled edges dashed grey with a note, or leaves them out', () => {
    const fixed = chartGraph('prefill', variantNamed('fixed'));
    const i = indexOf(fixed, 'received', 'placeholder', 'PREFILL_INTAKE');
    const text = toDot(fixed);
    expect(labelOf(text, i)).toContain('\\n(disabled by variant)"');
    expect(labelOf(text, i)).toContain('fontcolor=grey55');
    for (const half of halvesOf(text, i)) expect(half).toMatch(/style=dashed, color=grey55/);
    expect(toDot(fixed, { hideDisabled: true })).not.toContain(`"l:${i}"`);
    const incident = toDot(chartGraph('prefill', variantNamed('incident-2026')));
    expect(labelOf(incident, i)).not.toContain('disabled');
    expect(halvesOf(incident, i).join('\n')).not.toContain('dashed');
  });

  it('has a legend drawn as the edges are: each look drawn once, with its count', () => {
    const chart = chartGraph('prefill', variantNamed('fixed'));
    const text = toDot(chart);
    const looks = (lines: readonly string[]) =>
      lines.map(
        (l) =>
          /\[(.*)\];$/
            .exec(l)?.[1]
            ?.replace(/(ltail|lhead)="[^"]*", |arrowhead=none, |, minlen=2/g, '') ?? '',
      );
    const edges = text.split('\n').filter((l) => /-> "s:|-> "a:/.test(l) && l.includes('"l:'));
    const legend = text.split('\n').filter((l) => /"k:\d+:a" -> "k:\d+:b"/.test(l));
    expect(new Set(looks(legend))).toEqual(new Set(looks(edges)));
    expect(legend).toHaveLength(new Set(looks(edges)).size);
    expect(text).toContain('label="event raised by another region (');
    expect(text).toContain('label="disabled by the variant (');
    expect(text).toContain('label="leaves a state no run enters (');
    const dotted = chart.edges.filter((e) => e.unreachable && !e.disabled).length;
    expect(text).toContain(`label="leaves a state no run enters (${dotted})"`);
  });

  it('has no legend when every edge looks the same', () => {
    expect(toDot(chartGraph('page'))).not.toContain('cluster:legend');
  });

  it('takes a title and is deterministic', () => {
    const chart = chartGraph('page');
    expect(toDot(chart, { title: 'One KV page' })).toContain('label="One KV page"');
    expect(toDot(chart)).toBe(toDot(chartGraph('page')));
  });
});
