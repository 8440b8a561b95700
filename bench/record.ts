/**
 * The record `npm run bench -- --json` prints, one JSON object per line, per scenario × variant
 * × engine configuration.
 */

/** One measured run. */
export interface BenchRecord {
  readonly scenario: string;
  readonly variant: string;
  /**
   * `graph` (kvcheck's reference engine), `graph-defaults` (`getAdjacencyMap` with its
   * defaults), `fast`, or `fast` with a suffix naming what was added (`+properties`, checked
   * where a step changed what they read as `check` runs them, or `+properties, every state`;
   * `+symmetry`, `+depth` for a depth-first search, `exact keys`, `first counterexample`, `, new
   * machine` for the first search of a machine just built), or `cli check, fresh process`
   * (the command line run as a user runs it, loading included; `, through the loader` when it
   * loads the TypeScript sources instead of its bundle). The paired bench
   * (`--against`) ends it with `, base` or `, this`: the checkout it ran on.
   */
  readonly engine: string;
  /** Distinct states stored (representatives under symmetry). */
  readonly states: number;
  readonly transitions: number;
  /**
   * Wall-clock milliseconds of the run (the best of several, or the median one's or the median
   * round's, where the table says so).
   */
  readonly ms: number;
  readonly statesPerSecond: number;
  /** The fast engine's visited-state store per state; null for the reference engines. */
  readonly bytesPerState: number | null;
  /** Under symmetry: the states of the unreduced space the representatives stand for. */
  readonly unreducedStates?: number;
  /** The run's verdict, where it matters (`ok`, `violation`, `incomplete`). */
  readonly status?: string;
  /**
   * `--against`'s side `this`: the median over the pairs of runs of time(base) / time(this)
   * (above 1: this checkout is faster).
   */
  readonly pairedRatio?: number;
  /**
   * With `pairedRatio`: the lower and upper quartiles of the pairs' ratios, the middle half of
   * them. A change is measured where this range stays clear of 1.
   */
  readonly pairedSpread?: readonly [number, number];
  /**
   * The parallel table's runs: the median over its rounds of time(one thread) / time(this
   * configuration), each round's two runs taken in that round (above 1: faster than one thread).
   */
  readonly speedUp?: number;
  /** With `speedUp`: the lowest and highest of the rounds' speed-ups. */
  readonly speedUpRange?: readonly [number, number];
}
