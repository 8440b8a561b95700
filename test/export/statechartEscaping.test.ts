/**
 * Hostile text in a hand-built chart reaches no diagram raw: no markup, no quote that ends a
 * label early, no line break that ends a statement. Graphviz must still parse the DOT.
 */
import type { ChartGraph } from '../../src/export/chartGraph.ts';
import { toDot } from '../../src/export/dotStatechart.ts';
import { toMermaid } from '../../src/export/mermaidStatechart.ts';
import { renderSvg } from '../../src/export/svg.ts';

const hostile = '<script>alert("x")</script> #1; a|b {c} \'q\' first\nsecond';

const chart: ChartGraph = {
  name: `chart ${hostile}`,
  variant: `variant ${hostile}`,
  root: 'root',
  nodes: [
    { id: 'root', key: 'root', kind: 'compound', tags: [], initial: 'a"b', children: ['a"b', 'c'] },
    {
      id: 'a"b',
      key: `state ${hostile}`,
      kind: 'atomic',
      tags: ['rejected'],
      children: [],
      parent: 'root',
      entry: [hostile],
    },
    {
      id: 'c',
      key: 'c',
      kind: 'compound',
      tags: [],
      initial: 'c.x',
      children: ['c.x'],
      parent: 'root',
    },
    { id: 'c.x', key: `final ${hostile}`, kind: 'final', tags: [], children: [], parent: 'c' },
  ],
  edges: [
    {
      source: 'a"b',
      target: 'c',
      event: `EV ${hostile}`,
      internal: false,
      targetless: false,
      guard: `guard ${hostile}`,
      actions: [`act ${hostile}`, 'raise X'],
      disabled: true,
    },
    {
      source: 'c.x',
      target: 'c.x',
      event: 'E',
      internal: true,
      targetless: true,
      actions: [],
      disabled: false,
    },
  ],
};

describe('statechart escaping', () => {
  it('Mermaid: no markup, no quote or newline inside a label', () => {
    const text = toMermaid(chart);
    expect(text).not.toContain('<script');
    expect(text).toContain('#60;script#62;alert(#34;x#34;)');
    for (const line of text.split('\n')) {
      const label = /^\s*state "(.*)" as \S+( \{)?$/.exec(line)?.[1] ?? / : (.*)$/.exec(line)?.[1];
      if (label !== undefined) expect(label).not.toMatch(/["<>{}|\n]/);
    }
    // The newline was folded: both halves are on one line.
    expect(text.split('\n').filter((l) => l.includes('first') && l.includes('second')).length).toBe(
      text.split('\n').filter((l) => l.includes('first')).length,
    );
  });

  it('DOT: no markup, every quote a delimiter, no newline inside a string', async () => {
    const text = toDot(chart);
    expect(text).not.toContain('<script');
    const strings = text.match(/"(?:[^"\\\n]|\\.)*"/g) ?? [];
    expect(strings.some((s) => s.includes('&lt;script&gt;alert(&quot;x&quot;)'))).toBe(true);
    expect(strings.every((s) => !s.includes('\\"'))).toBe(true);
    expect(text.replace(/"(?:[^"\\\n]|\\.)*"/g, '')).not.toContain('"');
    expect(text.split('\n').filter((l) => l.includes('first') && l.includes('second')).length).toBe(
      text.split('\n').filter((l) => l.includes('first')).length,
    );
    const svg = await renderSvg(text);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });
});
