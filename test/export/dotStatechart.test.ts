/**
 * Graphviz DOT text of the statecharts: every edge of the chart drawn once, with its label, and
 * the drawing rules below. What the charts contain is pinned once, as a projection of the chart
 * (`statechart.test.ts`); here only how DOT draws it.
 */
import { variantNamed } from '../../machines/variants.ts';
import { toDot } from '../../src/export/dotStatechart.ts';
import { chartGraph, chartNames } from '../../src/export/statechart.ts';

const lineWith = (text: string, part: string) => text.split('\n').find((l) => l.includes(part));

describe('toDot', () => {
  it.each(chartNames)('draws each edge of %s once, labelled with its event', (name) => {
    const chart = chartGraph(name, variantNamed('fixed'));
    const edges = toDot(chart)
      .split('\n')
      .filter((l) => / -> /.test(l) && /label=/.test(l));
    expect(edges).toHaveLength(chart.edges.length);
    chart.edges.forEach((e, i) => {
      expect(edges[i], `${e.source} → ${e.target}`).toContain(`label="${e.event}`);
    });
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
    const line = lineWith(toDot(chartGraph('prefill')), '"s:received" -> "a:placeholder"');
    expect(line).toContain('lhead="cluster:placeholder"');
    expect(line).toContain(
      'label="PREFILL_INTAKE\\n[prefillSchedulerRejects]\\n/ swapForPlaceholder, raise SENDER_CREATED"',
    );
  });

  it('draws rejected states red and final states with a double border', () => {
    const text = toDot(chartGraph('prefill'));
    expect(lineWith(text, '"s:done.retired" [')).toMatch(/color="#c62828".*peripheries=2/);
    expect(lineWith(text, '"s:done.finished" [')).toContain('peripheries=2');
    expect(lineWith(text, 'label="placeholder"')).toContain('color="#c62828"');
  });

  it('draws disabled edges dashed grey with a note, or leaves them out', () => {
    const fixed = chartGraph('prefill', variantNamed('fixed'));
    const line = lineWith(toDot(fixed), '"s:received" -> "a:placeholder"');
    expect(line).toContain('\\n(disabled by variant)"');
    expect(line).toMatch(/style=dashed, color=grey55/);
    expect(toDot(fixed, { hideDisabled: true })).not.toContain('"s:received" -> "a:placeholder"');
    const incident = lineWith(
      toDot(chartGraph('prefill', variantNamed('incident-2026'))),
      '-> "a:placeholder"',
    );
    expect(incident).not.toContain('disabled');
  });

  it('takes a title and is deterministic', () => {
    const chart = chartGraph('page');
    expect(toDot(chart, { title: 'One KV page' })).toContain('label="One KV page"');
    expect(toDot(chart)).toBe(toDot(chartGraph('page')));
  });
});
