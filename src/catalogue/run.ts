/**
 * Runs the catalogue: each entry's variant on its scenario, and `fixed` on the same scenario,
 * exhaustively. An entry is caught when one of its expected properties (its manifest row's
 * `caughtByOneOf`) is violated; the run passes only when every entry is caught and `fixed` holds
 * every property on every scenario.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { expectationFor, type ManifestRow, manifest } from '../../scenarios/manifest.ts';
import { check } from '../checker/check.ts';
import type { EngineName } from '../checker/checkOptions.ts';
import type { ScenarioResult, Verdict } from '../checker/outcome.ts';
import type { CatalogueEntry } from './entry.ts';
import { fixedVariant } from './faultVariant.ts';

/** Whether an entry's fault was found: `incomplete` when a bound stopped the search first. */
export type CatalogueVerdict = 'caught' | 'missed' | 'incomplete';

/** What one exploration cost. */
export interface RunSize {
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
}

/** `fixed` on an entry's scenario: it must hold every property. */
export interface FixedRun extends RunSize {
  readonly status: Verdict;
  /** Properties `fixed` violates (none when the catalogue passes). */
  readonly violated: readonly string[];
  /** Witnesses the scenario requires that `fixed` did not reach (a pass would be vacuous). */
  readonly unreachedWitnesses: readonly string[];
}

/** One entry's row: what the fault broke, and `fixed` on the same scenario. */
export interface CatalogueRow {
  readonly id: string;
  readonly description: string;
  readonly upstream: readonly string[];
  readonly variant: string;
  readonly scenario: string;
  readonly expected: readonly string[];
  readonly verdict: CatalogueVerdict;
  /** The first expected property (in the entry's order) that is violated; null if none. */
  readonly caughtBy: string | null;
  /** Every property the variant violates, in registry order. */
  readonly violated: readonly string[];
  /** Steps of the shortest counterexample for `caughtBy`; null if not caught. */
  readonly traceLength: number | null;
  /** The event of that counterexample's last step; null if not caught. */
  readonly lastEvent: string | null;
  /** What is wrong in the counterexample's last state; null if not caught. */
  readonly message: string | null;
  /** The variant's exploration. */
  readonly size: RunSize;
  readonly fixed: FixedRun;
}

/** The catalogue run: one row per entry and the overall verdict. */
export interface CatalogueReport {
  readonly engine: EngineName;
  /** `ok`: every entry caught and `fixed` clean; `violation`: a miss or a `fixed` failure. */
  readonly verdict: Verdict;
  readonly entries: readonly CatalogueRow[];
}

/** Options of `runCatalogue`. */
export interface CatalogueOptions {
  /** @default 'fast' */
  readonly engine?: EngineName;
  /** Called before each exploration, for progress lines. */
  readonly onRun?: (what: string) => void;
  /** The rows each entry's expected properties are read from. @default the manifest */
  readonly manifest?: readonly ManifestRow[];
}

function violatedNames(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

function sizeOf(r: ScenarioResult): RunSize {
  return { states: r.stats.states, transitions: r.stats.transitions, depth: r.stats.depth };
}

/**
 * The properties expected to catch `entry`'s fault: the `caughtByOneOf` of its scenario ×
 * variant row in `rows` (none when the row lists none). Throws when `rows` has no such row.
 */
export function expectedCatchers(
  entry: CatalogueEntry,
  rows: readonly ManifestRow[] = manifest,
): readonly string[] {
  const row = expectationFor(entry.scenario.name, entry.variant.name, rows);
  if (!row) {
    throw new Error(`the manifest has no row for ${entry.scenario.name} × ${entry.variant.name}`);
  }
  return row.caughtByOneOf ?? [];
}

/**
 * The row of `entry`, whose fault `expected` properties may catch, from its variant's result
 * and `fixed`'s result on the same scenario.
 */
export function catalogueRow(
  entry: CatalogueEntry,
  expected: readonly string[],
  result: ScenarioResult,
  fixed: ScenarioResult,
): CatalogueRow {
  const violated = violatedNames(result);
  const caughtBy = expected.find((name) => violated.includes(name)) ?? null;
  const trace = result.properties.find((p) => p.name === caughtBy)?.trace;
  // A bound that stopped the search leaves the expected property unsearched: not a miss.
  const bounded = result.status === 'incomplete' || result.bound !== undefined;
  const verdict: CatalogueVerdict =
    caughtBy !== null ? 'caught' : bounded ? 'incomplete' : 'missed';
  return {
    id: entry.id,
    description: entry.description,
    upstream: entry.upstream,
    variant: entry.variant.name,
    scenario: entry.scenario.name,
    expected,
    verdict,
    caughtBy,
    violated,
    traceLength: trace ? trace.steps.length : null,
    lastEvent: trace?.steps.at(-1)?.event ?? null,
    message: trace?.message ?? null,
    size: sizeOf(result),
    fixed: {
      status: fixed.status,
      violated: violatedNames(fixed),
      unreachedWitnesses: fixed.unreachedWitnesses ?? [],
      ...sizeOf(fixed),
    },
  };
}

/**
 * The verdict of a catalogue run: `violation` if an entry is missed or `fixed` violates a
 * property; else `incomplete` if any search was bounded or `fixed`'s run was incomplete (which
 * includes a pass that left a required witness unreached: it proves nothing); else `ok`.
 */
export function catalogueVerdict(rows: readonly CatalogueRow[]): Verdict {
  if (rows.some((r) => r.verdict === 'missed' || r.fixed.status === 'violation')) {
    return 'violation';
  }
  const unproven = (r: CatalogueRow) =>
    r.verdict === 'incomplete' || r.fixed.status === 'incomplete';
  return rows.some(unproven) ? 'incomplete' : 'ok';
}

/**
 * Checks every entry's variant on its scenario and `fixed` on each scenario once, with every
 * property, exhaustively (no default bound on either engine; a bounded run is `incomplete`,
 * never a pass). Each entry's expected properties come
 * from `options.manifest` (`expectedCatchers`), which throws for an entry it has no row for.
 */
export function runCatalogue(
  entries: readonly CatalogueEntry[],
  options: CatalogueOptions = {},
): CatalogueReport {
  const engine = options.engine ?? 'fast';
  const fixed = fixedVariant();
  const fixedRuns = new Map<string, ScenarioResult>();
  const fixedOn = (scenario: Scenario): ScenarioResult => {
    let r = fixedRuns.get(scenario.name);
    if (!r) {
      options.onRun?.(`${scenario.name} × ${fixed.name}`);
      r = check(scenario, fixed, { engine, requiredWitnesses: scenario.witnesses });
      fixedRuns.set(scenario.name, r);
    }
    return r;
  };
  const expected = entries.map((entry) => expectedCatchers(entry, options.manifest));
  const rows = entries.map((entry, i) => {
    options.onRun?.(`${entry.id}: ${entry.scenario.name} × ${entry.variant.name}`);
    const result = check(entry.scenario, entry.variant, {
      engine,
      requiredWitnesses: entry.scenario.witnesses,
    });
    return catalogueRow(entry, expected[i] ?? [], result, fixedOn(entry.scenario));
  });
  return { engine, verdict: catalogueVerdict(rows), entries: rows };
}
