/**
 * The self-checks `check` runs before its checks, on each chosen scenario × variant:
 * - `--por-check`, of the partial-order reduction (`checkServingPor`): it records the footprint
 *   of every step of the unreduced reachable space, enabled or not, and fails where a step reads
 *   or writes what the reduction assumes it does not, or where a step it expands alone changes a
 *   property's, a trigger's or a witness's truth;
 * - `--reads-check`, of the properties' declared reads (`checkServingReads`): it records what
 *   every property and trigger reads on every reachable state, and fails where one reads a
 *   variable or region its `Property.reads` leaves out, since the search re-checks a property
 *   only where a step changed what it declares.
 * A failed self-check stops the command before any check runs (exit 1): a verdict resting on a
 * broken assumption would not be trusted.
 */
import type { Property } from '../../invariants/property.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { checkServingPor } from '../checker/serving/servingPor.ts';
import { checkServingReads } from '../checker/serving/servingReads.ts';
import { plural } from '../numbers.ts';
import { type ExitCode, exitCode } from './exitCodes.ts';
import { paint } from './style.ts';

/** What one self-check found on one scenario × variant. */
export interface SelfCheckFound {
  /** One line per broken assumption, distinct, in the order found; empty when all hold. */
  readonly problems: readonly string[];
  /** How much it visited, counted in `SelfCheck.unit`s. */
  readonly visited: number;
  /** False when `--max-states` stopped the visit: the lines cover only what was visited. */
  readonly complete: boolean;
}

/** A self-check `check` can run first: its flag, its JSON member, its words and its run. */
export interface SelfCheck {
  readonly flag: '--por-check' | '--reads-check';
  readonly json: 'porCheck' | 'readsCheck';
  /** The text's heading line. */
  readonly heading: string;
  /** What `visited` counts: `step` or `state` (the JSON key is its plural). */
  readonly unit: 'step' | 'state';
  /** What a problem line is about, singular: `footprint`, `read`. */
  readonly subject: string;
  /** What a `[holds]` line says before the count. */
  readonly holds: string;
  /** What a `[none]` line says: why nothing was visited. */
  readonly none: string;
  /** The progress line while it runs. */
  readonly doing: string;
  /** Runs it on one scenario × variant, visiting at most `maxStates` states. */
  readonly run: (scenario: Scenario, variant: Variant, maxStates: number) => SelfCheckFound;
}

/**
 * `check --por-check`: the partial-order reduction's footprints (`checkServingPor`), with
 * `local` the event types taken to be local (the reduction's own by default).
 */
export const porSelfCheck = (local?: ReadonlySet<string>): SelfCheck => ({
  flag: '--por-check',
  json: 'porCheck',
  heading:
    'Partial-order reduction self-check (every step of the unreduced space, enabled or not):',
  unit: 'step',
  subject: 'footprint',
  holds: 'every footprint as declared',
  none: 'no reduction to check (requests share bootstrap rooms)',
  doing: 'recording every step',
  run: (scenario, variant, maxStates) => {
    const found = checkServingPor(scenario, variant, local, maxStates);
    return { problems: found.problems, visited: found.steps, complete: found.complete };
  },
});

/**
 * `check --reads-check`: the properties' declared reads (`checkServingReads`), of `selected`
 * (name, property) pairs, every property by default.
 */
export const readsSelfCheck = (selected?: readonly (readonly [string, Property])[]): SelfCheck => ({
  flag: '--reads-check',
  json: 'readsCheck',
  heading: 'Declared-reads self-check (every property and trigger on every reachable state):',
  unit: 'state',
  subject: 'read',
  holds: 'every read declared',
  none: 'no state to check',
  doing: 'recording every read',
  run: (scenario, variant, maxStates) => {
    const found = checkServingReads(scenario, variant, maxStates, selected);
    return { problems: found.problems, visited: found.states, complete: found.complete };
  },
});

/** One self-check of one scenario × variant. */
export interface SelfCheckRun {
  readonly kind: SelfCheck;
  readonly scenario: string;
  readonly variant: string;
  readonly found: SelfCheckFound;
}

/**
 * Runs each of `checks` on every scenario × variant, in order, visiting at most `maxStates`
 * states of each (unbounded when not finite). `progress` is told which one runs.
 */
export function selfCheckRuns(
  checks: readonly SelfCheck[],
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  maxStates: number,
  progress?: (line: string) => void,
): SelfCheckRun[] {
  return checks.flatMap((check) =>
    scenarios.flatMap((scenario) =>
      variants.map((variant) => {
        progress?.(`${check.flag.slice(2)} ${scenario.name} × ${variant.name}: ${check.doing}`);
        const found = check.run(scenario, variant, maxStates);
        progress?.('');
        return { kind: check, scenario: scenario.name, variant: variant.name, found };
      }),
    ),
  );
}

/** 1 when some self-check found a problem, else 3 when a bound stopped one, else 0. */
export function selfCheckCode(runs: readonly SelfCheckRun[]): ExitCode {
  if (runs.some((r) => r.found.problems.length > 0)) return exitCode.violation;
  if (runs.some((r) => !r.found.complete)) return exitCode.incomplete;
  return exitCode.ok;
}

/** The worse of two exit codes of the same run: a violation, else incomplete, else ok. */
export function worseCode(a: ExitCode, b: ExitCode): ExitCode {
  for (const code of [exitCode.violation, exitCode.incomplete]) {
    if (a === code || b === code) return code;
  }
  return a === exitCode.ok ? b : a;
}

/** What a self-check concluded: a problem found, nothing to check, a bound hit, or all held. */
type SelfCheckStatus = 'broken' | 'none' | 'incomplete' | 'holds';

/** The status of `found`, read the same way by the text and the JSON. */
function statusOf(found: SelfCheckFound): SelfCheckStatus {
  if (found.problems.length > 0) return 'broken';
  if (found.visited === 0) return 'none';
  return found.complete ? 'holds' : 'incomplete';
}

function runLine(r: SelfCheckRun, colour: boolean): string[] {
  const where = `${r.scenario} × ${r.variant}`;
  const { kind: check, found } = r;
  const visited = plural(found.visited, check.unit);
  const status = statusOf(found);
  if (status === 'broken') {
    const head = `${paint(colour, 'red', '[broken]')} ${where}: ${plural(found.problems.length, check.subject)} not as declared (${visited})`;
    return [head, ...found.problems.map((p) => `    ${p}`)];
  }
  const lines: Record<Exclude<SelfCheckStatus, 'broken'>, string> = {
    none: `${paint(colour, 'dim', '[none]')} ${where}: ${check.none}`,
    incomplete: `${paint(colour, 'yellow', '[incomplete]')} ${where}: as declared over ${visited}, but --max-states stopped the visit`,
    holds: `${paint(colour, 'green', '[holds]')} ${where}: ${check.holds} (${visited})`,
  };
  return [lines[status]];
}

/** The self-checks as text: per check, a heading, then one line per scenario × variant. */
export function renderSelfChecks(runs: readonly SelfCheckRun[], colour: boolean): string {
  const flags = [...new Set(runs.map((r) => r.kind.flag))];
  return flags
    .map((flag) => {
      const mine = runs.filter((r) => r.kind.flag === flag);
      const lines = [
        mine[0]?.kind.heading ?? '',
        ...mine.flatMap((r) => runLine(r, colour).map((l) => `  ${l}`)),
      ];
      return `${lines.join('\n')}\n\n`;
    })
    .join('');
}

/** The self-checks as members of `check --json`: `porCheck` and `readsCheck`, where run. */
export function selfCheckJson(runs: readonly SelfCheckRun[]): Record<string, object[]> {
  const out: Record<string, object[]> = {};
  for (const r of runs) {
    const entry = {
      scenario: r.scenario,
      variant: r.variant,
      status: statusOf(r.found),
      [`${r.kind.unit}s`]: r.found.visited,
      problems: r.found.problems,
    };
    out[r.kind.json] = [...(out[r.kind.json] ?? []), entry];
  }
  return out;
}
