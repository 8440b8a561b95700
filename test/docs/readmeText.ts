/**
 * The README and the pages of `docs/` as the documentation tests read them: every run of white
 * space folded into one space, so that a table cell padded by the formatter or a sentence wrapped
 * across lines still matches.
 */
import { readFileSync } from 'node:fs';

/** `text` with every run of white space folded into one space. */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The README's text with white space folded. */
export const readme: string = folded(
  readFileSync(new URL('../../README.md', import.meta.url), 'utf8'),
);

/** The raw text of `docs/<name>` (for example `catalogue.md`). */
export function docRaw(name: string): string {
  return readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
}

/** The text of `docs/<name>` with white space folded. */
export function doc(name: string): string {
  return folded(docRaw(name));
}
