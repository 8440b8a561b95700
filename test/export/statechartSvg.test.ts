/**
 * SVG through Graphviz in WebAssembly: every chart's DOT lays out (a smoke test, never a
 * comparison of SVG bytes), and a DOT syntax error rejects with Graphviz's message.
 */
import { variants } from '../../machines/variants.ts';
import { toDotDiff } from '../../src/export/chartDiff.ts';
import { toDot } from '../../src/export/dotStatechart.ts';
import { chartGraph, chartNames } from '../../src/export/statechart.ts';
import { renderSvg } from '../../src/export/svg.ts';

function expectSvg(svg: string): void {
  expect(svg.startsWith('<svg') || svg.startsWith('<?xml')).toBe(true);
  expect(svg).toContain('</svg>');
}

describe('renderSvg', () => {
  it.each(chartNames)('renders %s', async (name) => {
    expectSvg(await renderSvg(toDot(chartGraph(name))));
  });

  it.each(variants.map((v) => v.name))('renders request under %s', async (name) => {
    const v = variants.find((x) => x.name === name);
    const svg = await renderSvg(toDot(chartGraph('request', v)));
    expectSvg(svg);
    expect(svg).toContain('request (variant');
  });

  it('renders the diff of incident-2026 and fixed', async () => {
    const [a, b] = [variants[0], variants[1]];
    expectSvg(await renderSvg(toDotDiff(chartGraph('request', a), chartGraph('request', b))));
  });

  it('decodes the label entities once: && reads as && in the SVG', async () => {
    const svg = await renderSvg(toDot(chartGraph('prefill')));
    expect(svg).toContain('prefillSchedulerRejects &amp;&amp; admissionRetire');
    expect(svg).not.toContain('&amp;amp;');
  });

  it('rejects a DOT syntax error with Graphviz’s message', async () => {
    await expect(renderSvg('digraph { a -> ; }')).rejects.toThrow(/Graphviz.*syntax error/i);
  });

  it('keeps working after a failure (one shared instance)', async () => {
    await expect(renderSvg('digraph {')).rejects.toThrow(Error);
    expectSvg(await renderSvg('digraph { a -> b }'));
  });
});
