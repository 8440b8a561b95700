/**
 * The engine bench's first searches (`firstSearches`): a machine is built for each search, the
 * building is not timed, and the median search is the one reported. And its check from a fresh
 * process (`freshProcessCheck`), which reads the command line's counts.
 */
import { describe, expect, it } from 'vitest';
import { firstSearches, freshProcessCheck } from '../../bench/engine.ts';

/** Busy for `ms` milliseconds of wall-clock time. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // waiting
  }
}

describe('the first searches of machines just built', () => {
  it('builds one machine a search, times the search alone, and gives the median search', () => {
    // Searches of 1, 150 and 40 ms; the first machine takes 300 ms to build. Timed with the
    // building, the median would be the 150 ms search.
    const plan = [
      { build: 300, search: 1 },
      { build: 0, search: 150 },
      { build: 0, search: 40 },
    ];
    let built = 0;
    const out = firstSearches(3, () => {
      const { build, search } = plan[built++] as { build: number; search: number };
      spin(build);
      return () => {
        spin(search);
        return search;
      };
    });
    expect(built).toBe(3);
    expect(out.value).toBe(40);
    expect(out.ms).toBeGreaterThanOrEqual(40);
    expect(() => firstSearches(0, () => () => 0)).toThrow(/no run/);
  });
});

describe('the check from a fresh process', () => {
  it('runs the command line both ways and reads its counts, loading in the wall-clock time', () => {
    const out = freshProcessCheck(1);
    expect(out.runs).toBe(1);
    for (const side of [out.bundle, out.loader]) {
      // The manifest's counts for incident × incident-2026.
      expect(side.stats.states).toBe(2195);
      expect(side.stats.transitions).toBe(4244);
      expect(side.ms).toBeGreaterThan(side.stats.ms);
    }
    expect(out.ratio).toBeCloseTo(out.loader.ms / out.bundle.ms, 9);
  });
});
