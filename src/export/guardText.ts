/**
 * A transition's guard as readable text for the statechart exporters: the request filter
 * (`isFor`, `params.rid`) is dropped, combinators become `&&`, `||` and `!`, and `stateIn` becomes
 * `in region.path`. Switch guards keep their names, so the text is the same under every variant.
 */
import type { GuardTerm } from '../engine/index.ts';

/** The guard every transition of a request carries; it is true for the request drawn. */
const requestFilter = 'isFor';

/** Operator precedence of a piece of guard text, to know when to parenthesise it. */
type Precedence = 'atom' | 'and' | 'or';

interface Piece {
  readonly text: string;
  readonly precedence: Precedence;
}

function paramsText(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const rest = Object.entries(params).filter(([key]) => key !== 'rid');
  if (rest.length === 0) return '';
  return `(${rest.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')})`;
}

function wrap(piece: Piece, unless: Precedence): string {
  return piece.precedence === 'atom' || piece.precedence === unless
    ? piece.text
    : `(${piece.text})`;
}

/** `undefined`: the term is true (nothing left to say once the request filter is dropped). */
function render(term: GuardTerm, stateName: (id: string) => string): Piece | undefined {
  if (term.kind === 'named') {
    if (term.type === requestFilter) return undefined;
    return { text: `${term.type}${paramsText(term.params)}`, precedence: 'atom' };
  }
  if (term.kind === 'in') return { text: `in ${stateName(term.stateId)}`, precedence: 'atom' };
  if (term.kind === 'opaque') throw new Error(`statechart: guard ${term.name} has no structure`);
  const args = term.args.map((a) => render(a, stateName));
  if (term.kind === 'not') {
    const [inner] = args;
    return inner
      ? { text: `!${wrap(inner, 'atom')}`, precedence: 'atom' }
      : { text: 'false', precedence: 'atom' };
  }
  const op = term.kind === 'and' ? 'and' : 'or';
  const parts = args.filter((a): a is Piece => a !== undefined);
  // `or` with a true argument is true; `and` simply drops it.
  if (op === 'or' && parts.length < args.length) return undefined;
  const [first, ...more] = parts;
  if (!first) return op === 'or' ? { text: 'false', precedence: 'atom' } : undefined;
  if (more.length === 0) return first;
  const joined = parts.map((p) => wrap(p, op)).join(op === 'and' ? ' && ' : ' || ');
  return { text: joined, precedence: op };
}

/**
 * The text of guard `guard` (as the config writes it), or undefined when it is missing or only
 * filters the request. `stateName` turns a `stateIn` target's id (without `#`) into the name to
 * print. Throws for a guard without structure (an inline function).
 */
export function guardText(
  guard: GuardTerm | undefined,
  stateName: (id: string) => string,
): string | undefined {
  return guard && render(guard, stateName)?.text;
}
