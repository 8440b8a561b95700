/**
 * The README as the documentation tests read it: every run of white space folded into one space,
 * so that a table cell padded by the formatter or a sentence wrapped across lines still matches.
 */
import { readFileSync } from 'node:fs';

/** The README's text with white space folded. */
export const readme: string = readFileSync(
  new URL('../../README.md', import.meta.url),
  'utf8',
).replace(/\s+/g, ' ');
