/**
 * Numbers as people read them in tables and reports.
 */

/** `1234567` → `1,234,567`. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 state`, `2 states`. */
export function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** Milliseconds as `85 ms` or `1.2 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
