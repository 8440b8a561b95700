/**
 * A counterexample drawn directly as a self-contained SVG sequence diagram, for report.html,
 * which cannot load Mermaid: participant boxes on top, dashed lifelines, one arrow per message
 * with its label above it, step numbers in the left margin, each step's note over its actor, and
 * the breaking step on a light red band with the failure note. The same model as the Mermaid
 * diagram (`sequenceMessages.ts`), so the two always agree. No script, no external font.
 */
import type { Trace } from '../checker/outcome.ts';
import { escapeHtml } from './escape.ts';
import { failureFill, type TraceMeta } from './sequenceDiagram.ts';
import { type SequenceMessage, sequenceModel } from './sequenceMessages.ts';

/** Label length past which a message is truncated (full text in a `<title>`) or a note wrapped. */
export const maxLabelChars = 60;

const charWidth = 7;
const gutter = 48;
const pad = 12;
const boxHeight = 30;
const lineHeight = 15;
const messageHeight = 26;
const ink = '#1f2328';
const muted = '#6e7781';
const red = '#b42318';

/** Estimated width in pixels of `chars` characters at 12px. */
function textWidth(chars: number): number {
  return chars * charWidth;
}

/** Word-wraps `text` to lines of at most `max` characters (a longer word is cut). */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let w = word;
    while (w.length > max) {
      if (line) lines.push(line);
      lines.push(w.slice(0, max));
      w = w.slice(max);
      line = '';
    }
    if (!line) line = w;
    else if (line.length + 1 + w.length <= max) line = `${line} ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

function shown(text: string): string {
  return text.length > maxLabelChars ? `${text.slice(0, maxLabelChars - 1)}…` : text;
}

function textEl(x: number, y: number, text: string, attrs = ''): string {
  return `<text x="${x}" y="${y}"${attrs}>${escapeHtml(text)}</text>`;
}

/** A note box: wrapped lines centred on `cx`, kept inside [left, right]; returns its height. */
function note(
  out: string[],
  cx: number,
  y: number,
  lines: readonly string[],
  bounds: { left: number; right: number },
  fill: string,
): number {
  const width = Math.min(
    bounds.right - bounds.left,
    textWidth(Math.max(...lines.map((l) => l.length))) + 16,
  );
  const x = Math.max(bounds.left, Math.min(cx - width / 2, bounds.right - width));
  const height = lines.length * lineHeight + 8;
  out.push(
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="3" fill="${fill}" stroke="${muted}"/>`,
  );
  lines.forEach((l, i) => {
    out.push(textEl(x + 8, y + 4 + (i + 1) * lineHeight - 3, l));
  });
  return height;
}

function messageEls(m: SequenceMessage, x1: number, x2: number, y: number): string {
  const colour = m.decisive ? red : ink;
  const dash = m.reply ? ' stroke-dasharray="5 3"' : '';
  const width = m.decisive ? 2.5 : 1.2;
  const dir = x2 > x1 ? 1 : -1;
  const head = `M${x2} ${y} l${-8 * dir} -4 v8 z`;
  const bold = m.decisive ? ` font-weight="bold" fill="${red}"` : '';
  const label = textEl((x1 + x2) / 2, y - 5, shown(m.text), ` text-anchor="middle"${bold}`);
  const title = m.text.length > maxLabelChars ? `<title>${escapeHtml(m.text)}</title>` : '';
  return [
    `<g>${title}`,
    `<line x1="${x1}" y1="${y}" x2="${x2 - 7 * dir}" y2="${y}" stroke="${colour}" stroke-width="${width}"${dash}/>`,
    `<path d="${head}" fill="${colour}"/>`,
    label,
    '</g>',
  ].join('');
}

/**
 * Lifeline x positions and the drawing's width: each gap between neighbours is widened until
 * every box fits beside its neighbours and every label fits over the gaps its arrow spans
 * (shortest spans first, any shortfall spread evenly over the spanned gaps).
 */
function columns(model: ReturnType<typeof sequenceModel>): { xs: number[]; width: number } {
  const ps = model.participants;
  const column = new Map(ps.map((p, i) => [p.id, i]));
  const half = ps.map((p) => Math.max(60, (textWidth(shown(p.label).length) + 16) / 2));
  const needs = ps
    .slice(1)
    .map((_, i) => ({ a: i, b: i + 1, px: (half[i] ?? 0) + (half[i + 1] ?? 0) + 12 }));
  for (const m of model.steps.flatMap((s) => s.messages)) {
    const [a, b] = [column.get(m.from) ?? 0, column.get(m.to) ?? 0].sort((x, y) => x - y);
    if (a !== undefined && b !== undefined && a < b) {
      needs.push({ a, b, px: textWidth(Math.min(m.text.length, maxLabelChars)) + 24 });
    }
  }
  needs.sort((x, y) => x.b - x.a - (y.b - y.a) || x.a - y.a || x.px - y.px);
  const gaps = ps.slice(1).map(() => 0);
  for (const { a, b, px } of needs) {
    const have = gaps.slice(a, b).reduce((s, g) => s + g, 0);
    for (let i = a; i < b && have < px; i++) gaps[i] = (gaps[i] ?? 0) + (px - have) / (b - a);
  }
  const xs = [gutter + (half[0] ?? 60)];
  for (const g of gaps) xs.push(Math.round((xs.at(-1) ?? 0) + g));
  const right = (xs.at(-1) ?? gutter) + (half.at(-1) ?? 60) + pad;
  return { xs, width: Math.ceil(Math.max(right, gutter + textWidth(maxLabelChars) + 16 + pad)) };
}

/**
 * The SVG of `trace` (a string starting `<svg` and ending `</svg>`), sized to its content: column
 * spacing from the participant count and the longest label, notes wrapped and message labels
 * truncated at `maxLabelChars`. All text passes through `escapeHtml`. Deterministic.
 */
export function toSequenceSvg(trace: Trace, meta: TraceMeta): string {
  const model = sequenceModel(trace, meta.property);
  const { xs, width } = columns(model);
  const column = new Map(model.participants.map((p, i) => [p.id, i]));
  const xOf = (id: string) => xs[column.get(id) ?? 0] ?? gutter;
  const boxWidth = (label: string) => textWidth(shown(label).length) + 16;
  const bounds = { left: gutter, right: width - pad };
  const wrapChars = Math.max(maxLabelChars, Math.floor((width - gutter - pad - 16) / charWidth));
  const back: string[] = [];
  const front: string[] = [];
  const title = `✗ ${meta.property} in ${meta.scenario} × ${meta.variant}`;
  front.push(textEl(pad, 22, title, ' font-size="14" font-weight="bold"'));
  const boxTop = 36;
  for (const p of model.participants) {
    const w = boxWidth(p.label);
    const x = xOf(p.id) - w / 2;
    front.push(
      `<rect x="${x}" y="${boxTop}" width="${w}" height="${boxHeight}" rx="4" fill="#f6f8fa" stroke="${ink}"/>`,
      `<g>${p.label === shown(p.label) ? '' : `<title>${escapeHtml(p.label)}</title>`}`,
      textEl(xOf(p.id), boxTop + 19, shown(p.label), ' text-anchor="middle" font-weight="bold"'),
      '</g>',
    );
  }
  let y = boxTop + boxHeight + 12;
  const statement = wrapText(`${meta.property}: ${meta.statement}`, wrapChars);
  y += note(front, width / 2, y, statement, bounds, '#ffffff') + 10;
  model.steps.forEach((step, i) => {
    const top = y;
    const last = i === model.steps.length - 1;
    back.push(
      `<line x1="0" y1="${top - 4}" x2="${width}" y2="${top - 4}" stroke="#d0d7de" stroke-width="0.5"/>`,
    );
    front.push(
      textEl(gutter - 10, top + 14, String(step.step), ` text-anchor="end" fill="${muted}"`),
    );
    const lines = step.note.flatMap((l) => wrapText(l, maxLabelChars));
    y += note(front, xOf(step.over), y, lines, bounds, '#fff8c5') + 8;
    for (const m of step.messages) {
      y += messageHeight;
      front.push(messageEls(m, xOf(m.from), xOf(m.to), y - 6));
    }
    if (last) {
      y += 8;
      const failure = wrapText(model.failure.text, wrapChars);
      const cx = model.failure.over.reduce((s, id) => s + xOf(id), 0) / model.failure.over.length;
      y += note(front, cx, y, failure, bounds, '#ffffff');
      back.push(
        `<rect x="0" y="${top - 4}" width="${width}" height="${y - top + 10}" fill="${failureFill}"/>`,
      );
    }
    y += 10;
  });
  const lifelines = model.participants.map((p) => {
    const x = xOf(p.id);
    return `<line x1="${x}" y1="${boxTop + boxHeight}" x2="${x}" y2="${y}" stroke="${muted}" stroke-dasharray="4 4"/>`;
  });
  const height = y + pad;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12" fill="${ink}" role="img">`,
    `<title>${escapeHtml(`${title}: ${trace.message}`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...back,
    ...lifelines,
    ...front,
    '</svg>',
  ].join('\n');
}
