/**
 * How much room a line of diagram text needs. The diagrams name one font, Arial, which Graphviz
 * measures with built-in metrics; a browser draws it in Arial or a substitute (Liberation Sans,
 * Arimo, DejaVu Sans, which runs wider). The width here is an upper bound for all of them, so a
 * node sized by it holds its text in any of these fonts.
 */

/** Characters no wider than 0.42 em in any of the fonts above. */
const narrow = new Set("fijlrtI.,:;!|'()[]{}-/\\ ");
/** Characters up to a full em: capitals M and W, lower-case m and w, and a few symbols. */
const wide = new Set('MWmw@%=<>+~');

/** Width of one character in em, erring wide: narrow 0.45, wide 1.05, capitals 0.84, other 0.68. */
function charEm(c: string): number {
  if (narrow.has(c)) return 0.45;
  if (wide.has(c) || c.charCodeAt(0) > 0x7e) return 1.05;
  if (/[A-Z&#]/.test(c)) return 0.84;
  return 0.68;
}

/** An upper bound on the width of `text` set at `fontSize` points, in points. */
export function textWidth(text: string, fontSize: number): number {
  return [...text].reduce((sum, c) => sum + charEm(c), 0) * fontSize;
}
