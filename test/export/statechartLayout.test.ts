/**
 * The statechart SVGs are legible: no two texts are drawn over each other and no text lies on a
 * node other than its own, for every chart under every built-in variant (as `kvcheck diagram`
 * draws it, and with `--fault-edges`) and in the diffs the report draws. Boxes are measured on
 * the SVG itself (`svgBoxes.ts`), with character widths that err wide.
 */
import { variants } from '../../machines/variants.ts';
import { toDotDiff } from '../../src/export/chartDiff.ts';
import { toDot } from '../../src/export/dotStatechart.ts';
import { drawnChart, drawnDiffCharts } from '../../src/export/faultEdges.ts';
import { chartNames } from '../../src/export/statechart.ts';
import { renderSvg } from '../../src/export/svg.ts';
import { collisions, textBoxes } from './svgBoxes.ts';

const [base, ...others] = variants;
const variantNamed = (name: string) => variants.find((v) => v.name === name);
const cases = chartNames.flatMap((chart) => variants.map((v) => [chart, v.name] as const));

async function expectLegible(dot: string): Promise<void> {
  const svg = await renderSvg(dot);
  expect(textBoxes(svg).length).toBeGreaterThan(1);
  expect(collisions(svg)).toEqual([]);
}

describe('statechart layout', () => {
  it.each(cases)('%s under %s: no text over another text or a node', async (chart, name) => {
    await expectLegible(toDot(drawnChart(chart, variantNamed(name))));
  });

  it.each(cases)('%s under %s with fault edges: likewise', async (chart, name) => {
    await expectLegible(toDot(drawnChart(chart, variantNamed(name), true)));
  });

  const diffs = chartNames.flatMap((chart) => others.map((v) => [chart, v.name] as const));
  it.each(diffs)('the %s diff of %s against the first variant: likewise', async (chart, name) => {
    const v = variantNamed(name);
    if (!base || !v) throw new Error('no such variant');
    await expectLegible(toDotDiff(...drawnDiffCharts(chart, base, v)));
  });
});

describe('the collision check', () => {
  const text = (x: number, y: number, s: string) =>
    `<text text-anchor="middle" x="${x}" y="${y}" font-family="Arial" font-size="8.00">${s}</text>`;
  const svg = (body: string) =>
    `<svg><g id="graph0" class="graph"><g id="edge1" class="edge"><title>a</title>${body}</g></g></svg>`;

  it('finds two labels printed over each other, and a label on a node', () => {
    const clash = `${svg(text(100, -50, 'REQUEST_ABORTED'))}<g id="edge2" class="edge"><title>b</title>${text(110, -46, 'SEND_KV')}</g>`;
    expect(collisions(clash)).toHaveLength(1);
    const onNode = `<g id="node1" class="node"><title>forwarded</title><polygon points="90,-60 140,-60 140,-40 90,-40"/></g>${svg(text(100, -50, 'PREFILL_FORWARD'))}`;
    expect(collisions(onNode)).toEqual([
      { a: '"PREFILL_FORWARD" (edge a)', b: 'shape of node forwarded' },
    ]);
  });

  it('lets labels apart pass', () => {
    const apart = `${svg(text(100, -50, 'SEND_KV'))}<g id="edge2" class="edge"><title>b</title>${text(100, -30, 'SEND_KV')}</g>`;
    expect(collisions(apart)).toEqual([]);
  });
});
