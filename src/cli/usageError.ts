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

/** Parses a whole number `>= min` given to `flag`, or throws a UsageError saying what is accepted. */
export function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag}: must be a whole number >= ${min} (got "${text}")`);
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
