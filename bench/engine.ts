/**
 * The fast engine (`src/engine`) against `xstate/graph`'s `getAdjacencyMap` with its defaults
 * (`reference.ts`) and against kvcheck's reference engine (`check` with `engine: 'graph'`:
 * `getAdjacencyMap` with kvcheck's events), on the same machines in the same run. Each timing is
 * the best of several runs on one machine (the first runs pay for JIT compilation), except the
 * first searches of machines just built; numbers compare within one run only.
 * Run through `bench/index.ts` (`npm run bench [-- --json] [-- --quick]`), or alone with
 * `npx tsx bench/engine.ts [--json] [--quick]`.
 *
 * Tables: (0) time to the first counterexample of incident × incident-2026, from building the
 * machine, cold (the first fast run of the process) and warm, then the whole check of that case
 * by the command line from a fresh process (`freshProcessCheck`); (1) built-in scenarios, a
 * breadth-first prefix of a 3-request scenario and (without `--quick`) one of `incident-large`:
 * states/s of the three engines and their ratios, with and without every property, the first
 * search of a machine just built with every property (the median of a few), and bytes per
 * stored state; (1b) the same rows with the properties checked on every state against only
 * where a step changed what they read (as `check` runs them), in paired runs; (1c) the same
 * rows with every event offered against only those a transition may take (as `check` offers
 * them), in paired runs; (2) a larger 3-request space the reference engines are not run on,
 * fast engine only; (3) states with and without symmetry reduction, with the verdicts; (4)
 * `incident-large` (`scenarios/large.ts`) with symmetry and every property: `fixed` depth
 * first, and `incident-2026` breadth first up to its first counterexample, each bounded by
 * `--large-seconds N` (default 300, `none` for no bound; `fixed` does not finish in that time,
 * so it ends `incomplete`: docs/performance.md gives the figures); `--quick` skips them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { properties } from '../invariants/index.ts';
import type { ServingState } from '../invariants/vocabulary.ts';
import type { ServingContext } from '../machines/context.ts';
import type { ExternalEvent } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../machines/variants.ts';
import { incident, scenarios } from '../scenarios/index.ts';
import { incidentLarge } from '../scenarios/large.ts';
import { band3, incident3, twins } from '../scenarios/symmetric.ts';
import { check } from '../src/checker/check.ts';
import { servingEvents } from '../src/checker/serving/servingEvents.ts';
import { servingReads } from '../src/checker/serving/servingReads.ts';
import { servingOrbitSize, servingSymmetry } from '../src/checker/serving/servingSymmetry.ts';
import { eventFilter } from '../src/checker/serving/unreachableEvents.ts';
import { UsageError } from '../src/cli/usageError.ts';
import type { ExploreOptions, ExploreResult, StateProjection } from '../src/engine/index.ts';
import { explore } from '../src/engine/index.ts';
import type { BenchRecord } from './record.ts';
import { xstateGraphDefaults } from './reference.ts';

type Options = ExploreOptions<ServingContext, ExternalEvent>;
type Result = ExploreResult<ServingContext, ExternalEvent>;
type Case = [Scenario, Variant];

type Check = (s: StateProjection<ServingContext>) => boolean;

/**
 * `props` (a checkout's `properties`) as `explore` checks them: state properties as invariants,
 * terminal ones as terminal invariants, each by its name.
 */
export function propertyChecks(props: typeof properties): {
  readonly invariants: Record<string, Check>;
  readonly terminalInvariants: Record<string, Check>;
} {
  const invariants: Record<string, Check> = {};
  const terminalInvariants: Record<string, Check> = {};
  for (const [name, p] of Object.entries(props)) {
    const check = (s: StateProjection<ServingContext>) => p(s as ServingState);
    (p.kind === 'terminal' ? terminalInvariants : invariants)[name] = check;
  }
  return { invariants, terminalInvariants };
}

const { invariants: stateProps, terminalInvariants: terminalProps } = propertyChecks(properties);
/** Every property: state properties as invariants, terminal ones as terminal invariants. */
export const withProps: Options = { invariants: stateProps, terminalInvariants: terminalProps };

/** `incident` with transfer faults: the engine table's `incident-faults` scenario. */
export function incidentFaults(incident: Scenario): Scenario {
  return { ...incident, name: 'incident-faults', transferFaults: true };
}

/**
 * `extra` with its properties' declared reads on `scenario` when it checks properties (its
 * invariants are named after them), as `check` runs them: a property is checked where a step
 * changed what it reads. `extra.reads` wins (`{}` checks every property on every state).
 */
export function withReads(scenario: Scenario, extra: Options): Options {
  const names = extra.invariants;
  if (names === undefined) return extra;
  const selected = Object.entries(properties).filter(([name]) => name in names);
  return { reads: servingReads(scenario, selected), ...extra };
}

/** Every state property as an invariant that counts its calls into `calls`. */
function countedProps(calls: { n: number }): Options {
  const invariants: Record<string, Check> = {};
  for (const [name, holds] of Object.entries(stateProps)) {
    invariants[name] = (s) => {
      calls.n++;
      return holds(s);
    };
  }
  return { invariants, terminalInvariants: terminalProps };
}

/** The median of `xs` (the upper one of an even count); NaN for none. */
function median(xs: readonly number[]): number {
  return [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? Number.NaN;
}

/**
 * The lower and upper quartiles of `xs`, the bounds of its middle half: in ascending order, the
 * values at positions (n - 1) / 4 rounded down and 3 (n - 1) / 4 rounded up (both the one value
 * of a single one); NaN for none.
 */
export function quartiles(xs: readonly number[]): readonly [number, number] {
  const s = [...xs].sort((x, y) => x - y);
  const last = s.length - 1;
  return [s[Math.floor(last / 4)] ?? Number.NaN, s[Math.ceil((3 * last) / 4)] ?? Number.NaN];
}

/** A paired ratio and the middle half of the pairs' ratios, as the tables print it. */
export function ratioCell(ratio: number, spread: readonly [number, number]): string {
  return `${ratio.toFixed(2)}x (${spread[0].toFixed(2)}-${spread[1].toFixed(2)})`;
}

/**
 * `runs` pairs of runs of `a` and `b`, alternating which goes first: the last value of each, the
 * best and median time of each, and the median of the pairs' ratios time(a) / time(b) with their
 * quartiles (`spread`). The two runs of a pair are seconds apart, so a slow spell of the machine
 * moves both; the median ratio is steadier than the ratio of the best times, and the spread says
 * how steady.
 */
export function paired<T>(
  runs: number,
  a: () => T,
  b: () => T,
): {
  a: T;
  b: T;
  msA: number;
  msB: number;
  medianA: number;
  medianB: number;
  ratio: number;
  spread: readonly [number, number];
} {
  const ratios: number[] = [];
  const timesA: number[] = [];
  const timesB: number[] = [];
  let msA = Number.POSITIVE_INFINITY;
  let msB = Number.POSITIVE_INFINITY;
  let last: { a: T; b: T } | undefined;
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? [a, b] : [b, a];
    const out: { value: T; ms: number }[] = order.map((run) => best(1, run));
    const [ra, rb] = (i % 2 === 0 ? out : [out[1], out[0]]) as [
      { value: T; ms: number },
      { value: T; ms: number },
    ];
    msA = Math.min(msA, ra.ms);
    msB = Math.min(msB, rb.ms);
    timesA.push(ra.ms);
    timesB.push(rb.ms);
    ratios.push(ra.ms / rb.ms);
    last = { a: ra.value, b: rb.value };
  }
  if (!last) throw new Error('no run');
  return {
    ...last,
    msA,
    msB,
    medianA: median(timesA),
    medianB: median(timesB),
    ratio: median(ratios),
    spread: quartiles(ratios),
  };
}

/** States `incident-large`'s three-engine comparison expands, breadth first (then the frontier). */
const largePrefix = 3000;

/**
 * States `incident-3`'s three-engine comparison expands, breadth first (then the frontier). Its
 * whole space (93,213 states under `fixed` since decode preallocates without waiting for
 * prefill's sender) takes `getAdjacencyMap` with its defaults about ten minutes.
 */
const threeRequestPrefix = 15_000;

/** The command line's arguments for the fresh-process check (`freshProcessCheck`). */
const freshCheckArgs = ['check', '--scenario', 'incident', '--variant', 'incident-2026'];

/** One side of `freshProcessCheck`: the median run's wall-clock time and counts. */
export interface FreshRuns {
  readonly ms: number;
  readonly stats: { readonly states: number; readonly transitions: number; readonly ms: number };
}

/**
 * `kvcheck check` of `incident` × `incident-2026` (`freshCheckArgs`, with `--json`) in a new
 * Node process each time, through `bin/kvcheck.js` as a user runs it, loading included:
 * `runs` pairs of runs, alternating which goes first, after one untimed run (which makes the
 * command line's bundle if it is missing or out of date). One side loads the bundle, the other
 * the TypeScript sources through the loader (a cache directory that cannot be made, so no
 * bundle is read or made). Gives each side's median run (its wall-clock time, its counts and
 * its own search time) and the median of the pairs' time ratios, loader over bundle. Throws
 * when a run exits with anything but 1 (a violation, which this case has).
 */
export function freshProcessCheck(runs: number): {
  readonly runs: number;
  readonly bundle: FreshRuns;
  readonly loader: FreshRuns;
  readonly ratio: number;
} {
  const bin = fileURLToPath(new URL('../bin/kvcheck.js', import.meta.url));
  // Under a file: making it fails at once, before any build (`makeCliBundle`).
  const noCache = join(fileURLToPath(new URL('../package.json', import.meta.url)), 'no-cache');
  const once = (loader: boolean): FreshRuns => {
    const env = loader ? { ...process.env, KVCHECK_CACHE_DIR: noCache } : process.env;
    const start = performance.now();
    const r = spawnSync(process.execPath, [bin, ...freshCheckArgs, '--json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env,
    });
    const ms = performance.now() - start;
    if (r.status !== 1) {
      throw new Error(`kvcheck ${freshCheckArgs.join(' ')} exited ${r.status}: ${r.stderr}`);
    }
    const [result] = (JSON.parse(r.stdout) as { results: { stats: Measured & { ms: number } }[] })
      .results;
    if (!result) throw new Error('kvcheck check --json gave no result');
    return { ms, stats: result.stats };
  };
  once(false);
  const bundle: FreshRuns[] = [];
  const loader: FreshRuns[] = [];
  for (let i = 0; i < runs; i++) {
    for (const side of i % 2 === 0 ? [false, true] : [true, false]) {
      (side ? loader : bundle).push(once(side));
    }
  }
  const middle = (xs: FreshRuns[]): FreshRuns => {
    const m = [...xs].sort((a, b) => a.ms - b.ms)[xs.length >> 1];
    if (!m) throw new Error('no run');
    return m;
  };
  const ratios = bundle.map((b, i) => (loader[i] as FreshRuns).ms / b.ms);
  return { runs, bundle: middle(bundle), loader: middle(loader), ratio: median(ratios) };
}

function best<T>(runs: number, run: () => T): { value: T; ms: number } {
  let out: { value: T; ms: number } | undefined;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const value = run();
    const ms = performance.now() - start;
    if (!out || ms < out.ms) out = { value, ms };
  }
  if (!out) throw new Error('no run');
  return out;
}

/**
 * The median of `runs` first searches, each of a machine `make` builds for it (the building is
 * not timed), with its result: what one `check` of a case sees in a process that has run
 * others, where `best` of runs on one machine gives the steady state (see docs/performance.md,
 * "What a row's rate is").
 */
export function firstSearches<T>(runs: number, make: () => () => T): { value: T; ms: number } {
  const out: { value: T; ms: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const run = make();
    const start = performance.now();
    const value = run();
    out.push({ value, ms: performance.now() - start });
  }
  const middle = out.sort((x, y) => x.ms - y.ms)[out.length >> 1];
  if (!middle) throw new Error('no run');
  return middle;
}

/**
 * A run of the fast engine on a machine built once, offered the events `check` offers it: not
 * those no transition can take (`eventFilter`), or, with `every`, every event its active nodes
 * handle. `offered`, when given, counts the events offered.
 */
function fast(
  [scenario, v]: Case,
  extra: Options = {},
  every = false,
  offered?: { n: number },
): () => Result {
  const machine = createServingMachine(scenario, v);
  const offer = servingEvents(
    scenario.requests.map((r) => r.id),
    every ? null : eventFilter(machine, scenario, v),
  );
  const events: typeof offer = offered
    ? (s) => {
        const list = offer(s);
        offered.n += list.length;
        return list;
      }
    : offer;
  const options = withReads(scenario, extra);
  return () => explore<ServingContext, ExternalEvent>(machine, { events, ...options });
}

type Measured = Pick<BenchRecord, 'states' | 'transitions'> &
  Partial<Pick<BenchRecord, 'unreducedStates' | 'status'>> & {
    readonly bytesPerState?: number | null;
  };

/** A Markdown table of `rows` under the `|`-separated `head` (names left, numbers right). */
export function table(head: string, rows: string[][]): string {
  const cols = head.split('|');
  const widths = cols.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (c: string, i: number) =>
    i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0);
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  return [
    line(cols),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
/** A count with thousands separators. */
export const n = (x: number) => x.toLocaleString('en-US');
/** `a / b` to one decimal, as `1.4x`. */
export const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
const verdict = (r: Result) => r.violations.map((x) => `${x.name}:${x.trace.length}`).join(', ');

/**
 * Runs every table; prints them unless `json`; returns one record per scenario × variant ×
 * engine configuration. `quick` runs fewer repetitions and skips the large spaces;
 * `largeSeconds` bounds each run of `incident-large`.
 */
export function engineBench(json: boolean, quick: boolean, largeSeconds = 300): BenchRecord[] {
  const records: BenchRecord[] = [];
  const print = (text: string) => {
    if (!json) console.log(text);
  };
  /** Records a run; returns its states per second. */
  const record = ([s, v]: Case, engine: string, stats: Measured, ms: number): number => {
    const statesPerSecond = Math.round((stats.states / ms) * 1000);
    records.push({
      scenario: s.name,
      variant: v.name,
      engine,
      ...stats,
      bytesPerState: stats.bytesPerState ?? null,
      ms: Math.round(ms),
      statesPerSecond,
    });
    return statesPerSecond;
  };

  // (0) Time to the first counterexample, from building the machine; cold first, then warm.
  const first: Case = [incident, variantNamed('incident-2026')];
  const firstOptions: Options = { ...withProps, stopAtFirstViolation: true };
  // `fast(...)` is called inside the timed function: building the machine is timed too.
  const coldRun = best(1, () => fast(first, firstOptions)());
  const warmRun = best(quick ? 2 : 5, () => fast(first, firstOptions)());
  const rows0 = [coldRun, warmRun].map(({ value, ms }, i) => {
    record(first, `fast first counterexample ${i === 0 ? 'cold' : 'warm'}`, value.stats, ms);
    const [v] = value.violations;
    return [
      first[0].name,
      first[1].name,
      i === 0 ? 'cold' : 'warm',
      v ? `${v.name} (${v.trace.length} steps)` : 'none',
      n(value.stats.states),
      `${Math.round(ms)} ms`,
    ];
  });
  print('Time to the first counterexample (building the machine included):\n');
  print(table('scenario|variant|run|first violation|states|time', rows0));

  // (0b) The same case checked whole by the command line, from a fresh process each time.
  const fresh = freshProcessCheck(quick ? 3 : 5);
  record(first, 'cli check, fresh process', fresh.bundle.stats, fresh.bundle.ms);
  record(
    first,
    'cli check, fresh process, through the loader',
    fresh.loader.stats,
    fresh.loader.ms,
  );
  print(
    `\n\`kvcheck ${freshCheckArgs.join(' ')}\` from a fresh process (loading, the whole space with every property, and the traces), median of ${fresh.runs} alternating pairs after one untimed run: ${Math.round(fresh.bundle.ms)} ms from the command line's bundle (the search ${fresh.bundle.stats.ms} ms of it), ${Math.round(fresh.loader.ms)} ms through the TypeScript loader; ${fresh.ratio.toFixed(2)}x.`,
  );

  // (1) Same machines, three engines: `xstate/graph`'s defaults, kvcheck's reference engine and
  // the fast engine. `incident-large` is too large for the first two, so all three explore the
  // same breadth-first prefix of it (`largePrefix` states expanded, then the frontier stored).
  const compared: [Case, number | undefined][] = [
    ...scenarios.flatMap((s) =>
      ['incident-2026', 'fixed'].map((v): [Case, undefined] => [[s, variantNamed(v)], undefined]),
    ),
    [[incidentFaults(incident), variantNamed('incident-2026')], undefined],
    [[incident3, variantNamed('fixed')], threeRequestPrefix],
    ...(quick ? [] : [[[incidentLarge, variantNamed('fixed')], largePrefix] as [Case, number]]),
  ];
  const rows1: string[][] = [];
  for (const [c, prefix] of compared) {
    const [s, v] = c;
    const small = s.requests.length <= 2;
    const base = best(small && !quick ? 3 : 1, () => xstateGraphDefaults(s, v, prefix));
    const ref = best(small && !quick ? 3 : 1, () =>
      check(s, v, { engine: 'graph', ...(prefix === undefined ? {} : { maxStates: prefix }) }),
    );
    const refStats = {
      states: ref.value.stats.states,
      transitions: ref.value.stats.transitions,
    };
    const bound = prefix === undefined ? {} : { maxStates: refStats.states };
    const bare = best(quick ? 2 : 7, fast(c, bound));
    const full = best(quick ? 2 : 7, fast(c, { ...withProps, ...bound }));
    const first = firstSearches(quick ? 3 : 5, () => fast(c, { ...withProps, ...bound }));
    // A prefix depends on the order events are offered in, which differs for the defaults, so
    // their count is compared only on whole spaces.
    const counts: [string, number][] = [
      ...(prefix === undefined ? [['xstate/graph', base.value.states] as [string, number]] : []),
      ['fast', bare.value.stats.states],
      ['fast, new machine', first.value.stats.states],
    ];
    for (const [engine, states] of counts) {
      if (states !== refStats.states) {
        throw new Error(`${s.name} × ${v.name}: ${engine} ${states} ≠ graph ${refStats.states}`);
      }
    }
    const d = record(c, 'graph-defaults', base.value, base.ms);
    const g = record(c, 'graph', refStats, ref.ms);
    const f = record(c, 'fast', bare.value.stats, bare.ms);
    const fp = record(c, 'fast+properties', full.value.stats, full.ms);
    const fn = record(c, 'fast+properties, new machine', first.value.stats, first.ms);
    rows1.push([
      s.name,
      v.name,
      prefix === undefined ? n(refStats.states) : `${n(refStats.states)} (prefix)`,
      n(d),
      n(g),
      n(f),
      ratio(f, d),
      ratio(f, g),
      n(fp),
      ratio(fp, g),
      n(fn),
      String(bare.value.stats.bytesPerState),
    ]);
  }
  print(
    "\nSame machines, same run; st/s = best of several runs (one for the larger spaces) on one machine; defaults = xstate/graph getAdjacencyMap with its default events and keys; graph = kvcheck's reference engine; new machine = fast+props, the median first search of a machine just built, as one check sees it.\n",
  );
  print(
    table(
      'scenario|variant|states|defaults st/s|graph st/s|fast st/s|÷ defaults|÷ graph|fast+props st/s|÷ graph|new machine st/s|bytes/state',
      rows1,
    ),
  );

  /**
   * One row per compared space but `incident-large`'s prefix: paired runs of the two sides
   * (`a` recorded as `engine`), a count per state of each (`perState(true)` for `a`), the
   * states per second of each, and the median ratio of the pairs' times.
   */
  const pairedRows = (
    engine: string,
    sides: (
      c: Case,
      bound: Options,
    ) => { a: () => Result; b: () => Result; perState: (a: boolean) => string },
  ): string[][] =>
    compared.flatMap(([c, prefix]) => {
      if (prefix === largePrefix) return [];
      const bound = prefix === undefined ? {} : { maxStates: prefix };
      const pairs = prefix === undefined ? (quick ? 10 : 30) : quick ? 4 : 10;
      const side = sides(c, bound);
      const p = paired(pairs, side.a, side.b);
      if (verdict(p.a) !== verdict(p.b) || p.a.stats.transitions !== p.b.stats.transitions) {
        throw new Error(`${c[0].name} × ${c[1].name}: ${engine} changed the search`);
      }
      record(c, engine, p.a.stats, p.msA);
      return [
        [
          c[0].name,
          c[1].name,
          n(p.b.stats.states),
          side.perState(true),
          side.perState(false),
          n(Math.round((p.a.stats.states / p.msA) * 1000)),
          n(Math.round((p.b.stats.states / p.msB) * 1000)),
          ratioCell(p.ratio, p.spread),
        ],
      ];
    });

  // (1b) The properties checked where a step changed what they read (`ExploreOptions.reads`,
  // as `check` runs them) against every property on every state: paired runs.
  const rows1b = pairedRows('fast+properties, every state', (c, bound) => ({
    a: fast(c, { ...withProps, ...bound, reads: {} }),
    b: fast(c, { ...withProps, ...bound }),
    perState: (every) => {
      const calls = { n: 0 };
      const r = fast(c, { ...countedProps(calls), ...bound, ...(every ? { reads: {} } : {}) })();
      return (calls.n / r.stats.states).toFixed(1);
    },
  }));
  print(
    `\nThe ${Object.keys(stateProps).length} state properties on every state, or only where a step changed what they read (as check runs them); calls = property calls per state; ${quick ? '10' : '30'} pairs of runs (4 or 10 on prefixes), alternating; speed-up = median of the pairs' time ratios (in brackets, the middle half of them):\n`,
  );
  print(
    table(
      'scenario|variant|states|calls, every state|calls, reads|st/s, every state|st/s, reads|speed-up',
      rows1b,
    ),
  );

  // (1c) The events `check` offers (not those no transition can take, `eventFilter`) against
  // every event the active nodes handle, with every property: paired runs.
  const rows1c = pairedRows('fast+properties, every event offered', (c, bound) => ({
    a: fast(c, { ...withProps, ...bound }, true),
    b: fast(c, { ...withProps, ...bound }),
    perState: (every) => {
      const offered = { n: 0 };
      const r = fast(c, { ...withProps, ...bound }, every, offered)();
      return (offered.n / r.stats.states).toFixed(1);
    },
  }));
  print(
    `\nEvery property; every event the active nodes handle offered, or only those a transition may take (as check offers them); offered = events per state; ${quick ? '10' : '30'} pairs of runs (4 or 10 on prefixes), alternating; speed-up = median of the pairs' time ratios (in brackets, the middle half of them):\n`,
  );
  print(
    table(
      'scenario|variant|states|offered, every|offered, check|st/s, every|st/s, check|speed-up',
      rows1c,
    ),
  );

  // (2) A space the reference engine is not run on.
  const rows2: string[][] = [];
  for (const c of quick ? [] : [[incident3, variantNamed('retire-only')] as Case]) {
    const runs: [string, Options][] = [
      ['fast', {}],
      ['fast+properties', withProps],
      ['fast, exact keys', { exact: true }],
    ];
    for (const [label, extra] of runs) {
      const { value: r, ms } = best(1, fast(c, extra));
      const sps = record(c, label, r.stats, ms);
      const p = r.collisionProbability?.toExponential(1) ?? '-';
      const cells = [r.stats.states, r.stats.transitions, Math.round(ms), sps].map(n);
      rows2.push([c[0].name, c[1].name, label, ...cells, String(r.stats.bytesPerState), p]);
    }
  }
  if (rows2.length > 0) {
    print('\nA larger space (the reference engine is not run on it):\n');
    const head = 'scenario|variant|engine|states|transitions|ms|st/s|bytes/state|P(collision)';
    print(table(head, rows2));
  }

  // (3) Symmetry reduction: states and verdicts with and without.
  const symCases: Case[] = [
    ...scenarios.map((s): Case => [s, variantNamed('incident-2026')]),
    ...variants.map((v): Case => [twins, v]),
    ...variants.map((v): Case => [band3, v]),
    [incident3, variantNamed('fixed')],
    ...(quick ? [] : [[incident3, variantNamed('retire-only')] as Case]),
  ];
  const rows3: string[][] = [];
  for (const c of symCases) {
    const symmetry = { symmetry: servingSymmetry(c[0]), orbitSize: servingOrbitSize(c[0]) };
    const off = best(1, fast(c, withProps));
    const on = best(1, fast(c, { ...withProps, ...symmetry }));
    record(c, 'fast+properties+symmetry', on.value.stats, on.ms);
    const [a, b] = [off.value, on.value];
    const same = verdict(a) === verdict(b) && a.status === b.status;
    rows3.push([
      c[0].name,
      c[1].name,
      ...[a.stats.states, b.stats.states, b.stats.unreducedStates ?? 0].map(n),
      ratio(a.stats.states, b.stats.states),
      ...[off.ms, on.ms].map((ms) => n(Math.round(ms))),
      same ? `same (${a.status})` : `DIFFER: ${verdict(a)} / ${verdict(b)}`,
    ]);
  }
  print(
    `\nSymmetry reduction (with the ${Object.keys(properties).length} properties; unreduced = sum of orbit sizes):\n`,
  );
  print(
    table('scenario|variant|states|with symmetry|unreduced|reduction|ms|ms (sym)|verdicts', rows3),
  );

  // (4) The scale scenario, with symmetry and the properties: `fixed` to the end, depth first;
  // `incident-2026` breadth first to its first (shortest) counterexample.
  const rows4: string[][] = [];
  const largeRuns: [
    string,
    'fast+properties+symmetry+depth' | 'fast+properties+symmetry',
    Options,
  ][] = [
    ['fixed', 'fast+properties+symmetry+depth', { order: 'depth' }],
    ['incident-2026', 'fast+properties+symmetry', { stopAtFirstViolation: true }],
  ];
  for (const [name, engine, how] of quick ? [] : largeRuns) {
    const c: Case = [incidentLarge, variantNamed(name)];
    const symmetry = { symmetry: servingSymmetry(c[0]), orbitSize: servingOrbitSize(c[0]) };
    const bound = Number.isFinite(largeSeconds) ? { maxSeconds: largeSeconds } : {};
    const { value: r, ms } = best(1, fast(c, { ...withProps, ...symmetry, ...how, ...bound }));
    const sps = record(c, engine, { ...r.stats, status: r.status }, ms);
    const cells = [r.stats.states, r.stats.unreducedStates ?? 0, r.stats.transitions];
    rows4.push([
      c[0].name,
      c[1].name,
      how.order ?? 'breadth',
      ...cells.map(n),
      n(Math.round(ms)),
      n(sps),
      String(r.stats.bytesPerState),
      r.status === 'violation' ? verdict(r) : r.status,
    ]);
  }
  if (rows4.length > 0) {
    print(
      `\nincident-large (scenarios/large.ts), symmetry on, the ${Object.keys(properties).length} properties, ${Number.isFinite(largeSeconds) ? `at most ${largeSeconds} s each` : 'no time bound'}; incident-2026 stops at its first counterexample:\n`,
    );
    const head = 'scenario|variant|search|states|unreduced|transitions|ms|st/s|bytes/state|verdict';
    print(table(head, rows4));
  }
  return records;
}

/**
 * `--large-seconds N` from the command line: a bound on each `incident-large` run (default 300);
 * `--large-seconds none` runs them unbounded (an exhaustive check of `fixed`: about an hour on
 * one core; see docs/performance.md).
 */
export function largeSecondsArg(argv: readonly string[]): number {
  const at = argv.indexOf('--large-seconds');
  if (at === -1) return 300;
  if (argv[at + 1] === 'none') return Number.POSITIVE_INFINITY;
  const n = Number(argv[at + 1]);
  if (!(n > 0)) throw new UsageError('--large-seconds: must be a number of seconds > 0, or none');
  return n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const json = process.argv.includes('--json');
  const quick = process.argv.includes('--quick');
  const records = engineBench(json, quick, largeSecondsArg(process.argv));
  if (json) for (const r of records) console.log(JSON.stringify(r));
}
