/**
 * `npm run bench -- --against DIR [--pairs N] [--json]`: this checkout's fast engine against
 * another checkout's (DIR: for example `git worktree add /tmp/base <commit>` with a
 * `node_modules`), in one process, on the engine table's rows: every built-in scenario under
 * `incident-2026` and `fixed`, `incident-faults` and the first 15,000 states of `incident-3` ×
 * `fixed`, then two rows with symmetry: the first 15,000 representatives of `incident-3` ×
 * `fixed` and the first 20,000 of `incident-large` × `fixed`. Each runs bare and with every
 * property (checked as `check` checks them, offered the events `check` offers). Each row runs N
 * pairs (default 10) after three untimed runs of each, the two runs of a pair alternating which
 * goes first, so that a slow spell of the machine moves both. The table gives the best and
 * median rate of each side and the median of the pairs' ratios (above 1: this checkout is
 * faster). A checkout's machine, scenarios and engine are loaded from its own files, so the two
 * may differ in anything but the exports `modules` names.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError, wholeNumber } from '../src/cli/usageError.ts';
import { incidentFaults, n, paired, propertyChecks, ratioCell, table } from './engine.ts';
import type { BenchRecord } from './record.ts';

type Machines = typeof import('../machines/servingMachine.ts');
type Variants = typeof import('../machines/variants.ts');
type Scenarios = typeof import('../scenarios/index.ts');
type Symmetric = typeof import('../scenarios/symmetric.ts');
type Large = typeof import('../scenarios/large.ts');
type Group = typeof import('../src/checker/serving/servingSymmetry.ts');
type Events = typeof import('../src/checker/serving/servingEvents.ts');
type Filter = typeof import('../src/checker/serving/unreachableEvents.ts');
type Reads = typeof import('../src/checker/serving/servingReads.ts');
type Engine = typeof import('../src/engine/index.ts');
type Properties = typeof import('../invariants/index.ts');
type Scenario = Scenarios['scenarios'][number];

/** One row: a scenario by name, a variant by name, a bound on the states stored, symmetry. */
interface Row {
  readonly scenario: string;
  readonly variant: string;
  readonly maxStates?: number;
  readonly symmetry?: boolean;
}

/** The engine table's rows (see `engine.ts`), then prefixes of the symmetric scenarios. */
function rowsOf(names: readonly string[]): Row[] {
  return [
    ...names.flatMap((scenario) =>
      ['incident-2026', 'fixed'].map((variant) => ({ scenario, variant })),
    ),
    { scenario: 'incident-faults', variant: 'incident-2026' },
    { scenario: 'incident-3', variant: 'fixed', maxStates: 15_000 },
    { scenario: 'incident-3', variant: 'fixed', maxStates: 15_000, symmetry: true },
    { scenario: 'incident-large', variant: 'fixed', maxStates: 20_000, symmetry: true },
  ];
}

/** What a run found. */
interface Counts {
  readonly states: number;
  readonly transitions: number;
}

/** A run of a row on one checkout's engine, its machine built once. */
type Runner = (row: Row, props: boolean) => () => Counts;

/** The files of a checkout this bench loads, relative to its root. */
const modules = {
  machines: 'machines/servingMachine.ts',
  variants: 'machines/variants.ts',
  scenarios: 'scenarios/index.ts',
  symmetric: 'scenarios/symmetric.ts',
  large: 'scenarios/large.ts',
  symmetry: 'src/checker/serving/servingSymmetry.ts',
  events: 'src/checker/serving/servingEvents.ts',
  filter: 'src/checker/serving/unreachableEvents.ts',
  reads: 'src/checker/serving/servingReads.ts',
  engine: 'src/engine/index.ts',
  properties: 'invariants/index.ts',
} as const;

/**
 * The runner of the checkout at `root`, from its own modules; throws an `Error` naming the
 * first of them that is missing.
 */
export async function loadCheckout(root: string): Promise<Runner> {
  for (const file of Object.values(modules)) {
    if (!existsSync(resolve(root, file))) {
      throw new UsageError(`--against: ${root} is not a kvcheck checkout (no ${file})`);
    }
  }
  const load = (file: string): Promise<unknown> => import(pathToFileURL(resolve(root, file)).href);
  const m = (await load(modules.machines)) as Machines;
  const v = (await load(modules.variants)) as Variants;
  const s = (await load(modules.scenarios)) as Scenarios;
  const sym = (await load(modules.symmetric)) as Symmetric;
  const large = (await load(modules.large)) as Large;
  const group = (await load(modules.symmetry)) as Group;
  const ev = (await load(modules.events)) as Events;
  const f = (await load(modules.filter)) as Filter;
  const r = (await load(modules.reads)) as Reads;
  const e = (await load(modules.engine)) as Engine;
  const p = (await load(modules.properties)) as Properties;
  const scenarioNamed = (name: string): Scenario => {
    const incident = s.scenarios.find((x) => x.name === 'incident');
    if (name === 'incident-faults' && incident) return incidentFaults(incident);
    const found =
      name === 'incident-3'
        ? sym.incident3
        : name === 'incident-large'
          ? large.incidentLarge
          : s.scenarios.find((x) => x.name === name);
    if (!found) throw new UsageError(`--against: ${root} has no scenario ${name}`);
    return found;
  };
  return (row, props) => {
    const scenario = scenarioNamed(row.scenario);
    const variant = v.variantNamed(row.variant);
    const machine = m.createServingMachine(scenario, variant);
    const events = ev.servingEvents(
      scenario.requests.map((q) => q.id),
      f.eventFilter(machine, scenario, variant),
    );
    const options = {
      events,
      ...(row.maxStates === undefined ? {} : { maxStates: row.maxStates }),
      ...(row.symmetry
        ? {
            symmetry: group.servingSymmetry(scenario),
            orbitSize: group.servingOrbitSize(scenario),
          }
        : {}),
      ...(props
        ? {
            ...propertyChecks(p.properties),
            reads: r.servingReads(scenario, Object.entries(p.properties)),
          }
        : {}),
    };
    return () => {
      const { states, transitions } = e.explore(machine, options).stats;
      return { states, transitions };
    };
  };
}

/** `--against DIR` from the command line, or null. */
export function againstArg(argv: readonly string[]): string | null {
  const at = argv.indexOf('--against');
  if (at === -1) return null;
  const dir = argv[at + 1];
  if (dir === undefined || dir.startsWith('--')) {
    throw new UsageError('--against: give the directory of another kvcheck checkout');
  }
  return dir;
}

/** `--pairs N` from the command line (a whole number from 1 to 1,000; default 10). */
export function pairsArg(argv: readonly string[]): number {
  const at = argv.indexOf('--pairs');
  if (at === -1) return 10;
  return wholeNumber('--pairs', argv[at + 1] ?? '', 1, { max: 1000 });
}

/**
 * The paired table of this checkout (`here`, the repository's root) against `base`; prints it
 * unless `json`; returns two records per row and configuration, `engine` naming the side
 * (`fast, base` or `fast, this`, with `+properties`), each with its best run, the side `this`
 * with the median of the pairs' ratios.
 */
export async function againstBench(
  here: string,
  base: string,
  pairs: number,
  json: boolean,
): Promise<BenchRecord[]> {
  const [before, after] = [await loadCheckout(base), await loadCheckout(here)];
  const { scenarios } = (await import('../scenarios/index.ts')) as Scenarios;
  const rows = rowsOf(scenarios.map((s) => s.name));
  const records: BenchRecord[] = [];
  for (const props of [false, true]) {
    const lines: string[][] = [];
    for (const row of rows) {
      const [a, b] = [before(row, props), after(row, props)];
      for (let i = 0; i < 3; i++) {
        a();
        b();
      }
      const out = paired(pairs, a, b);
      const rate = (states: number, ms: number) => Math.round((states / ms) * 1000);
      const same = out.a.states === out.b.states;
      const states = same ? n(out.a.states) : `${n(out.a.states)} → ${n(out.b.states)}`;
      const engine = props ? 'fast+properties' : 'fast';
      const kind = [row.maxStates === undefined ? '' : 'prefix', row.symmetry ? 'symmetry' : '']
        .filter((k) => k !== '')
        .join(', ');
      const name = kind === '' ? row.scenario : `${row.scenario} (${kind})`;
      lines.push([
        name,
        row.variant,
        states,
        n(rate(out.a.states, out.msA)),
        n(rate(out.b.states, out.msB)),
        n(rate(out.a.states, out.medianA)),
        n(rate(out.b.states, out.medianB)),
        ratioCell(out.ratio, out.spread),
      ]);
      const record = (side: string, counts: Counts, ms: number): BenchRecord => ({
        scenario: row.scenario,
        variant: row.variant,
        engine: `${engine}, ${side}`,
        ...counts,
        ms: Math.round(ms * 10) / 10,
        statesPerSecond: rate(counts.states, ms),
        bytesPerState: null,
      });
      records.push(record('base', out.a, out.msA), {
        ...record('this', out.b, out.msB),
        pairedRatio: Math.round(out.ratio * 100) / 100,
        pairedSpread: [
          Math.round(out.spread[0] * 100) / 100,
          Math.round(out.spread[1] * 100) / 100,
        ],
      });
    }
    if (!json) {
      console.log(
        `\n${props ? 'Every property' : 'No property'}; ${pairs} pairs of runs, alternating; states per second, best and median run of each; ratio = median of the pairs' time(base) / time(this), in brackets the middle half of them:\n`,
      );
      console.log(
        table('scenario|variant|states|base best|this best|base median|this median|ratio', lines),
      );
    }
  }
  return records;
}
