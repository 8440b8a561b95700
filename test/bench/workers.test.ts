/**
 * The parallel table of the bench (`bench/workers.ts`) reports, per configuration, the median of
 * its rounds: the median round's record, and the median and the extremes of the rounds'
 * speed-ups over one thread, each round's runs compared with each other.
 */
import { describe, expect, it } from 'vitest';
import type { BenchRecord } from '../../bench/record.ts';
import { medianRound } from '../../bench/workers.ts';

/** A record of `ms` milliseconds for 1,000 states. */
const run = (ms: number, engine = 'fast+properties'): BenchRecord => ({
  scenario: 'incident-3',
  variant: 'fixed',
  engine,
  states: 1000,
  transitions: 2000,
  ms,
  statesPerSecond: Math.round(1e6 / ms),
  bytesPerState: null,
  status: 'ok',
});

describe('the median round of a configuration', () => {
  const one = [run(900), run(1200), run(1000)];

  it('is the median round of one thread, with no speed-up of its own', () => {
    const median = medianRound(one, one);
    expect(median.ms).toBe(1000);
    expect(median.speedUp).toBeUndefined();
  });

  it("compares each round with one thread's same round, not with its median", () => {
    // Rounds: 900/450 = 2.00, 1200/800 = 1.50, 1000/625 = 1.60.
    const two = [run(450, 'two'), run(800, 'two'), run(625, 'two')];
    const median = medianRound(two, one);
    expect(median.ms).toBe(625);
    expect(median.engine).toBe('two');
    expect(median.speedUp).toBe(1.6);
    expect(median.speedUpRange).toEqual([1.5, 2]);
  });

  it('takes the lower middle of an even number of rounds, and refuses none', () => {
    const median = medianRound([run(400), run(300)], [run(600), run(600)]);
    expect(median.ms).toBe(300);
    expect(median.speedUp).toBe(1.5);
    expect(median.speedUpRange).toEqual([1.5, 2]);
    expect(() => medianRound([], [])).toThrow(/no round/);
  });
});
