/**
 * Progress in a log (stderr not a terminal): `loggedProgress` writes a whole status line once a
 * minute, the first a minute after the start, and nothing for a shorter run; the empty texts
 * that clear a terminal's line are dropped.
 */
import { describe, expect, it } from 'vitest';
import { loggedProgress } from '../../src/cli/main.ts';

/** A progress sink on a hand-driven clock, and what it wrote. */
function sink(every: number) {
  let t = 1_000;
  const written: string[] = [];
  const progress = loggedProgress(
    (text) => written.push(text),
    every,
    () => t,
  );
  return {
    written,
    at(ms: number, line: string) {
      t = 1_000 + ms;
      progress(line);
    },
  };
}

describe('progress in a log', () => {
  it('writes nothing for a run shorter than the interval', () => {
    const s = sink(60_000);
    s.at(10, 'a: 100 states');
    s.at(59_999, 'a: 9,000 states');
    s.at(59_999, '');
    expect(s.written).toEqual([]);
  });

  it('writes one whole line per interval, the latest at its time, and drops clears', () => {
    const s = sink(60_000);
    s.at(30_000, 'a: 1 state');
    s.at(60_000, 'a: 2 states');
    s.at(60_001, '');
    s.at(90_000, 'a: 3 states');
    s.at(119_999, 'a: 4 states');
    s.at(125_000, 'a: 5 states');
    s.at(125_001, 'a: 6 states');
    expect(s.written).toEqual(['a: 2 states\n', 'a: 5 states\n']);
  });
});
