/**
 * Where the text and the node shapes of a Graphviz SVG lie, read from the SVG alone, and which of
 * them collide. A text's box comes from its `x`/`y`, `font-size` and `text-anchor`, with a
 * per-character width that errs wide (at least Arial's and DejaVu Sans's advance widths), so a label
 * that only Graphviz's own metrics keep clear of its neighbour still counts as a collision.
 */

/** An axis-aligned box, in SVG user units. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** One `<text>` element: its box, its text and the group (`node`, `edge`, `cluster`) it is in. */
export interface TextBox extends Box {
  readonly text: string;
  readonly owner: string;
}

/** The drawn shape of one node (its outline's bounding box), by the node group's title. */
export interface ShapeBox extends Box {
  readonly owner: string;
}

/** Two things drawn over each other. */
export interface Collision {
  readonly a: string;
  readonly b: string;
}

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decode(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return entities[name] ?? whole;
  });
}

const narrow = new Set("fijlrtI.,:;!|'()[]{}-/\\ ");

/**
 * Width of one character in em, at least its advance in Arial and in DejaVu Sans (the wider
 * substitute): narrow letters and punctuation 0.42, M W m w and symbols 1, capitals 0.8, the
 * rest 0.64.
 */
export function charWidth(c: string): number {
  if (narrow.has(c)) return 0.42;
  if ('MWmw@%=<>+~'.includes(c) || c.charCodeAt(0) > 0x7e) return 1;
  if (/[A-Z&#]/.test(c)) return 0.8;
  return 0.64;
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

function num(tag: string, name: string): number {
  const v = Number(attr(tag, name));
  if (!Number.isFinite(v)) throw new Error(`svg: ${name} missing in ${tag}`);
  return v;
}

/** The box of one `<text>`: above its baseline by 0.8 em, below by 0.25 em. */
function textBox(open: string, raw: string, owner: string): TextBox {
  const text = decode(raw);
  const size = num(open, 'font-size');
  const [x, y] = [num(open, 'x'), num(open, 'y')];
  const width = [...text].reduce((w, c) => w + charWidth(c), 0) * size;
  const anchor = attr(open, 'text-anchor') ?? 'start';
  const x0 = anchor === 'middle' ? x - width / 2 : anchor === 'end' ? x - width : x;
  return { text, owner, x0, x1: x0 + width, y0: y - 0.8 * size, y1: y + 0.25 * size };
}

function boundsOf(points: readonly number[]): Box | undefined {
  const xs = points.filter((_, i) => i % 2 === 0);
  const ys = points.filter((_, i) => i % 2 === 1);
  if (xs.length === 0) return undefined;
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The bounding box of a shape element: path (control points included), polygon, ellipse. */
function shapeBox(tag: string): Box | undefined {
  if (tag.startsWith('<ellipse')) {
    const [cx, cy, rx, ry] = ['cx', 'cy', 'rx', 'ry'].map((n) => num(tag, n)) as [
      number,
      number,
      number,
      number,
    ];
    return { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry };
  }
  const coords = attr(tag, tag.startsWith('<path') ? 'd' : 'points') ?? '';
  return boundsOf((coords.match(/-?\d+(\.\d+)?/g) ?? []).map(Number));
}

interface Group {
  readonly cls: string;
  readonly title: string;
  readonly body: string;
}

function groups(svg: string): Group[] {
  return [...svg.matchAll(/<g id="[^"]*" class="(node|edge|cluster)">([\s\S]*?)<\/g>/g)].map(
    (m) => ({
      cls: m[1] ?? '',
      title: decode(/<title>([\s\S]*?)<\/title>/.exec(m[2] ?? '')?.[1] ?? ''),
      body: m[2] ?? '',
    }),
  );
}

function textsIn(body: string, owner: string): TextBox[] {
  return [...body.matchAll(/(<text[^>]*>)([\s\S]*?)<\/text>/g)].map((m) =>
    textBox(m[1] ?? '', m[2] ?? '', owner),
  );
}

/** Every `<text>` of the SVG; the graph's own label belongs to `graph`. */
export function textBoxes(svg: string): TextBox[] {
  const grouped = groups(svg);
  const outside = grouped.reduce((rest, g) => rest.replace(g.body, ''), svg);
  return [
    ...textsIn(outside, 'graph'),
    ...grouped.flatMap((g) => textsIn(g.body, `${g.cls} ${g.title}`)),
  ];
}

/** The outline of every node that draws one (invisible and plain-text nodes draw none). */
export function nodeShapes(svg: string): ShapeBox[] {
  return groups(svg)
    .filter((g) => g.cls === 'node')
    .flatMap((g) => {
      const tags = g.body.match(/<(path|polygon|ellipse|polyline)\s[^>]*>/g) ?? [];
      const boxes = tags.map(shapeBox).filter((b): b is Box => b !== undefined);
      if (boxes.length === 0) return [];
      return [
        {
          owner: `node ${g.title}`,
          x0: Math.min(...boxes.map((b) => b.x0)),
          y0: Math.min(...boxes.map((b) => b.y0)),
          x1: Math.max(...boxes.map((b) => b.x1)),
          y1: Math.max(...boxes.map((b) => b.y1)),
        },
      ];
    });
}

/** Whether two boxes share an area (touching edges do not count). */
export function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * Every pair of text boxes that intersect, and every text box that intersects the shape of a
 * node other than the one it labels. Empty when the drawing is legible.
 */
export function collisions(svg: string): Collision[] {
  const texts = textBoxes(svg);
  const shapes = nodeShapes(svg);
  const name = (t: TextBox) => `"${t.text}" (${t.owner})`;
  const betweenTexts = texts.flatMap((a, i) =>
    texts
      .slice(i + 1)
      .filter((b) => intersects(a, b))
      .map((b) => ({ a: name(a), b: name(b) })),
  );
  const onShapes = texts.flatMap((t) =>
    shapes
      .filter((s) => s.owner !== t.owner && intersects(t, s))
      .map((s) => ({ a: name(t), b: `shape of ${s.owner}` })),
  );
  return [...betweenTexts, ...onShapes];
}
