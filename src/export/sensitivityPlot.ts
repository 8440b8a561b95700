/**
 * The sensitivity table as a small horizontal bar chart in SVG, for the report: one bar per
 * deployed pool and per alternative setting, with the context window and twice it marked.
 * Every label passes through `escapeHtml`; the document has no script and no external reference.
 */

import type { LintReport } from '../deployment/lint.ts';
import { type Headroom, headroomOf } from '../deployment/sensitivity.ts';
import { count } from '../numbers.ts';
import { escapeHtml } from './escape.ts';

const fill: Readonly<Record<Headroom, string>> = {
  noRoom: '#c62828',
  belowContext: '#c62828',
  belowTwiceContext: '#f9a825',
  twiceContext: '#2e7d32',
};

interface Bar {
  readonly label: string;
  readonly tokens: number;
  readonly headroom: Headroom;
  readonly current: boolean;
}

function barsOf(report: LintReport): Bar[] {
  const { contextLen } = report.deployment;
  const deployed = (['prefill', 'decode'] as const).map((role) => ({
    label: `${role} pool (deployed)`,
    tokens: report.pools[role].tokens,
    headroom: headroomOf(report.pools[role].tokens, report.pools[role].pageSize, contextLen),
    current: true,
  }));
  const alternatives = report.sensitivity
    .filter((r) => !r.current)
    .map((r) => ({
      label: `${r.role}: ${r.parameter} ${r.value}`,
      tokens: r.tokens,
      headroom: r.headroom,
      current: false,
    }));
  return [...deployed, ...alternatives];
}

/**
 * An SVG document (no XML prolog) drawing each pool's capacity and its alternatives against the
 * context window (dashed line) and twice the window (dotted line). Red: below the window; amber:
 * below twice the window; green: at least twice.
 */
export function sensitivitySvg(report: LintReport): string {
  const bars = barsOf(report);
  const c = report.deployment.contextLen;
  const labelWidth = 260;
  const plotWidth = 420;
  const rowHeight = 18;
  const top = 24;
  const height = top + bars.length * rowHeight + 12;
  const width = labelWidth + plotWidth + 90;
  const max = Math.max(2 * c, ...bars.map((b) => b.tokens)) * 1.05;
  const x = (tokens: number) => labelWidth + (tokens / max) * plotWidth;
  const rows = bars.map((b, i) => {
    const y = top + i * rowHeight;
    const weight = b.current ? ' font-weight="bold"' : '';
    return [
      `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end"${weight}>${escapeHtml(b.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${(x(b.tokens) - labelWidth).toFixed(1)}" height="${rowHeight - 6}" fill="${fill[b.headroom]}"/>`,
      `<text x="${(x(b.tokens) + 4).toFixed(1)}" y="${y + 13}">${count(b.tokens)}</text>`,
    ].join('');
  });
  const marker = (tokens: number, dash: string, label: string) =>
    `<line x1="${x(tokens).toFixed(1)}" y1="${top - 4}" x2="${x(tokens).toFixed(1)}" y2="${height - 8}" stroke="#333" stroke-dasharray="${dash}"/><text x="${x(tokens).toFixed(1)}" y="${top - 8}" text-anchor="middle">${escapeHtml(label)}</text>`;
  const title = `Pool capacity of ${report.deployment.name} against its context window`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="${escapeHtml(title)}">`,
    `<title>${escapeHtml(title)}</title>`,
    ...rows,
    marker(c, '4 3', `window ${count(c)}`),
    marker(2 * c, '1 3', `2× ${count(2 * c)}`),
    '</svg>',
  ].join('\n');
}
