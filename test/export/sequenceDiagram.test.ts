/**
 * The counterexample as a Mermaid sequence diagram and as a self-contained SVG: the incident's
 * cross-tenant read, pinned as a golden file, and the facts a reader must find in both drawings.
 */
import type { TraceChange } from '../../src/checker/outcome.ts';
import { toSequenceMermaid } from '../../src/export/sequenceDiagram.ts';
import { sequenceParticipants } from '../../src/export/sequenceMessages.ts';
import { toSequenceSvg, wrapText } from '../../src/export/sequenceSvg.ts';
import { incidentTrace } from './fixtures.ts';

const { trace, meta } = incidentTrace('noCrossTenantRead');

describe('toSequenceMermaid', () => {
  const mermaid = toSequenceMermaid(trace, meta);
  const lines = mermaid.trimEnd().split('\n');

  it('matches the golden diagram of the incident’s cross-tenant read', () => {
    expect(mermaid).toMatchSnapshot();
  });

  it('declares the participants in order, with safe ids and display names', () => {
    expect(lines[0]).toBe('sequenceDiagram');
    expect(lines.filter((l) => l.trim().startsWith('participant '))).toEqual([
      '  participant tA as Tenant A',
      '  participant tB as Tenant B',
      '  participant router as router',
      '  participant prefillScheduler as prefill scheduler',
      '  participant prefillPool as prefill pool',
      '  participant transfer as transfer',
      '  participant decodeScheduler as decode scheduler',
      '  participant decodePool as decode pool',
    ]);
  });

  it('numbers every step in a note', () => {
    for (const s of trace.steps) {
      expect(
        lines.some(
          (l) => l.includes(`Note over`) && l.includes(`: ${s.step} · ${s.event} ${s.rid}`),
        ),
      ).toBe(true);
    }
  });

  it('ends with the failure note: which page, last written by which tenant, read by whom', () => {
    const last = lines.at(-1) ?? '';
    expect(last).toMatch(/^ {2}Note over decodeScheduler,decodePool: ✗ noCrossTenantRead#58; /);
    expect(last).toContain('page 1');
    expect(last).toContain('tenant A');
    expect(last).toContain('b1');
  });

  it('highlights the decisive read in a red rect', () => {
    const start = lines.indexOf('  rect rgb(255, 220, 220)');
    expect(start).toBeGreaterThan(0);
    expect(lines[start + 1]).toBe(
      '    decodeScheduler->>decodePool: b1 reads page 1 ← a1 (tenant A) ✗ another tenant',
    );
    expect(lines[start + 2]).toBe('  end');
  });

  it('is deterministic', () => {
    expect(toSequenceMermaid(trace, meta)).toBe(mermaid);
  });
});

describe('toSequenceSvg', () => {
  const svg = toSequenceSvg(trace, meta);

  it('is one self-contained svg element without script or external fonts', () => {
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('font-family="system-ui, sans-serif"');
    expect(svg).not.toMatch(/<script|@import|@font-face|href=/);
    expect(svg.match(/<svg/g)).toHaveLength(1);
  });

  it('balances its elements', () => {
    const open = svg.match(/<(g|svg|text|title)[ >]/g)?.length ?? 0;
    const close = svg.match(/<\/(g|svg|text|title)>/g)?.length ?? 0;
    expect(open).toBe(close);
  });

  it('labels every participant and carries the failure note', () => {
    for (const p of sequenceParticipants(trace)) expect(svg).toContain(`>${p.label}</text>`);
    expect(svg).toContain('✗ noCrossTenantRead: b1 (tenant B) read decode page 1, last written');
    expect(svg).toContain('rgb(255, 220, 220)');
  });

  it('numbers the steps in the margin', () => {
    for (const s of trace.steps)
      expect(svg).toMatch(new RegExp(`text-anchor="end"[^>]*>${s.step}<`));
  });

  it('truncates a long label and keeps the full text in a title', () => {
    const longMove: TraceChange = {
      kind: 'regionMoved',
      rid: 'a1',
      region: 'decode',
      from: 'idle',
      to: `${'very.'.repeat(20)}received`,
    };
    const long = {
      ...trace,
      steps: trace.steps.map((s) => (s.step === 1 ? { ...s, changes: [longMove] } : s)),
    };
    const out = toSequenceSvg(long, meta);
    expect(out).toContain(`<title>a1 decode: idle → ${'very.'.repeat(20)}received</title>`);
    expect(out).toContain('…</text>');
  });

  it('is deterministic', () => {
    expect(toSequenceSvg(trace, meta)).toBe(svg);
  });
});

describe('wrapText', () => {
  it('wraps at word boundaries and cuts overlong words', () => {
    expect(wrapText('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('', 4)).toEqual(['']);
  });
});
