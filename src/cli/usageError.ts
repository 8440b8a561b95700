import { didYouMean } from '../didYouMean.ts';

/**
 * Bad input from the user: printed as one `error: …` line, exit code 2, no stack trace.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * `name` if it is one of `accepted`, else a UsageError naming `what` and `name`, then the close
 * accepted names (`did you mean fixed?`) or, when none is close, every accepted name.
 */
export function oneOf(what: string, name: string, accepted: readonly string[]): string {
  if (accepted.includes(name)) return name;
  throw new UsageError(`unknown ${what} "${name}"; ${didYouMean(name, accepted)}`);
}

/**
 * What a whole-number flag accepts besides `min`: an upper bound `max`, and a word `or` that the
 * caller reads before (`auto`), which the error names.
 */
export interface WholeNumberRange {
  readonly max?: number;
  readonly or?: string;
}

/**
 * Parses a whole number from `min` (to `range.max`) given to `flag`, or throws a UsageError
 * saying what is accepted: `--runs: must be a whole number >= 1 (got "0")`, or with a range
 * `--workers: must be a whole number from 1 to 64, or auto (got "x")`.
 */
export function wholeNumber(
  flag: string,
  text: string,
  min: number,
  range: WholeNumberRange = {},
): number {
  const n = Number(text);
  const { max, or } = range;
  const inRange = Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max);
  if (!/^\d+$/.test(text.trim()) || !inRange) {
    const accepted = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    const word = or === undefined ? '' : `, or ${or}`;
    throw new UsageError(`${flag}: must be a whole number ${accepted}${word} (got "${text}")`);
  }
  return n;
}

/** Parses a positive number of seconds given to `flag`. */
export function positiveSeconds(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`${flag}: must be a number of seconds > 0 (got "${text}")`);
  }
  return n;
}
