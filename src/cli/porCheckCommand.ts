/**
 * `check --por-check`: before the checks, the self-check of the partial-order reduction on each
 * chosen scenario × variant (`checkServingPor`). It records the footprint of every step of the
 * unreduced reachable space, enabled or not, and fails where a step reads or writes what the
 * reduction assumes it does not, or where a step it expands alone changes a property's, a
 * trigger's or a witness's truth. A failed self-check stops the command before any check runs
 * (exit 1): a reduced verdict resting on a broken footprint would not be trusted.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { checkServingPor, type PorCheck } from '../checker/serving/servingPor.ts';
import { count } from '../numbers.ts';
import { type ExitCode, exitCode } from './exitCodes.ts';
import { paint } from './style.ts';

/** The self-check of one scenario × variant. */
export interface PorCheckRun {
  readonly scenario: string;
  readonly variant: string;
  readonly found: PorCheck;
}

/**
 * Self-checks the reduction on every scenario × variant, in order, visiting at most
 * `maxStates` states of each (unbounded when not finite). `progress` is told which one runs.
 */
export function porCheckRuns(
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  maxStates: number,
  progress?: (line: string) => void,
): PorCheckRun[] {
  return scenarios.flatMap((scenario) =>
    variants.map((variant) => {
      progress?.(`por-check ${scenario.name} × ${variant.name}: recording every step`);
      const found = checkServingPor(scenario, variant, undefined, maxStates);
      progress?.('');
      return { scenario: scenario.name, variant: variant.name, found };
    }),
  );
}

/** 1 when some self-check found a problem, else 3 when a bound stopped one, else 0. */
export function porCheckCode(runs: readonly PorCheckRun[]): ExitCode {
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
type PorCheckStatus = 'broken' | 'none' | 'incomplete' | 'holds';

/** The status of `found`, read the same way by the text and the JSON. */
function statusOf(found: PorCheck): PorCheckStatus {
  if (found.problems.length > 0) return 'broken';
  if (found.steps === 0) return 'none';
  return found.complete ? 'holds' : 'incomplete';
}

function runLine(r: PorCheckRun, colour: boolean): string[] {
  const where = `${r.scenario} × ${r.variant}`;
  const { problems, steps } = r.found;
  const status = statusOf(r.found);
  if (status === 'broken') {
    const head = `${paint(colour, 'red', '[broken]')} ${where}: ${problems.length === 1 ? '1 footprint' : `${problems.length} footprints`} not as declared (${count(steps)} steps)`;
    return [head, ...problems.map((p) => `    ${p}`)];
  }
  const lines: Record<Exclude<PorCheckStatus, 'broken'>, string> = {
    none: `${paint(colour, 'dim', '[none]')} ${where}: no reduction to check (requests share bootstrap rooms)`,
    incomplete: `${paint(colour, 'yellow', '[incomplete]')} ${where}: as declared over ${count(steps)} steps, but --max-states stopped the visit`,
    holds: `${paint(colour, 'green', '[holds]')} ${where}: every footprint as declared (${count(steps)} steps)`,
  };
  return [lines[status]];
}

/** The self-checks as text: a heading, then one line per scenario × variant and its problems. */
export function renderPorChecks(runs: readonly PorCheckRun[], colour: boolean): string {
  const lines = [
    'Partial-order reduction self-check (every step of the unreduced space, enabled or not):',
    ...runs.flatMap((r) => runLine(r, colour).map((l) => `  ${l}`)),
  ];
  return `${lines.join('\n')}\n\n`;
}

/** The self-checks as the `porCheck` member of `check --json`. */
export function porCheckJson(runs: readonly PorCheckRun[]): object[] {
  return runs.map((r) => ({
    scenario: r.scenario,
    variant: r.variant,
    status: statusOf(r.found),
    steps: r.found.steps,
    problems: r.found.problems,
  }));
}
