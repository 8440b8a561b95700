/**
 * Mermaid `stateDiagram-v2` text of the statecharts: every edge of the chart drawn once, with
 * its label, and the structural rules below. What the charts contain is pinned once, as a
 * projection of the chart (`statechart.test.ts`); here only how Mermaid draws it.
 */
import { variantNamed } from '../../machines/variants.ts';
import { toMermaid } from '../../src/export/mermaidStatechart.ts';
import { chartGraph, chartNames } from '../../src/export/statechart.ts';

describe('toMermaid', () => {
  it.each(chartNames)('draws each edge of %s once, labelled with its event', (name) => {
    const chart = chartGraph(name, variantNamed('fixed'));
    const edges = toMermaid(chart)
      .split('\n')
      .filter((l) => / --> \S+ : /.test(l));
    // Mermaid nests edges inside their composite state, so compare the events as multisets.
    const drawn = edges.map((l) => l.split(' : ')[1]?.split(' ')[0] ?? '').sort();
    expect(drawn).toEqual(chart.edges.map((e) => e.event).sort());
  });

  it('keeps nesting, initial and final arrows, and the regions apart with --', () => {
    const text = toMermaid(chartGraph('request'));
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(text).toContain('state "placeholder" as s_prefill_placeholder {');
    expect(text).toContain('[*] --> s_prefill_placeholder_bootstrapping');
    expect(text).toContain('s_prefill_done_retired --> [*]');
    expect(text.match(/^ {4}--$/gm)).toHaveLength(3);
    // `done` is entered only through its children: no initial arrow into `finished`.
    expect(text).not.toContain('[*] --> s_prefill_done_finished');
  });

  it('labels transitions EVENT [guard] / actions, escaped', () => {
    const text = toMermaid(chartGraph('prefill'));
    expect(text).toContain(
      's_received --> s_done_retired : PREFILL_INTAKE #91;prefillSchedulerRejects #38;#38; admissionRetire#93; / markRejected, replyError',
    );
    expect(text).toContain(
      's_idle --> s_received : DISPATCH #91;duplicateRoomAccepted #124;#124; !roomHeld#93;\n',
    );
  });

  it('styles rejected and final states with classDef and class', () => {
    const text = toMermaid(chartGraph('prefill'));
    expect(text).toMatch(/classDef rejected .*fill:/);
    expect(text).toMatch(/classDef final .*font-weight:bold/);
    expect(text).toContain('class s_placeholder rejected');
    expect(text).toContain('class s_done_clientError,s_done_retired rejectedFinal');
    expect(text).toContain('class s_done_finished,s_done_failed,s_done_aborted final');
  });

  it('labels disabled edges, or leaves them out with hideDisabled', () => {
    const fixed = chartGraph('prefill', variantNamed('fixed'));
    const entry = 's_received --> s_placeholder : PREFILL_INTAKE';
    expect(
      toMermaid(fixed)
        .split('\n')
        .find((l) => l.includes(entry)),
    ).toMatch(/\(disabled by variant\)$/);
    expect(toMermaid(fixed, { hideDisabled: true })).not.toContain(entry);
    expect(toMermaid(chartGraph('prefill', variantNamed('incident-2026')))).toContain(
      `${entry} #91;prefillSchedulerRejects#93; / swapForPlaceholder, raise SENDER_CREATED\n`,
    );
  });

  it('is deterministic', () => {
    const v = variantNamed('fixed');
    expect(toMermaid(chartGraph('request', v))).toBe(toMermaid(chartGraph('request', v)));
  });
});
