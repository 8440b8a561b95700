/**
 * The exit codes every command shares (0 all hold, 1 a violation, 2 bad input, 3 incomplete),
 * and what each code means for each command: `exitCodeMeanings`, the one statement of them that
 * every command's `--help` footer is drawn from and the table in docs/command-line.md is tested against.
 */
import { overallVerdict, type ScenarioResult, type Verdict } from '../checker/outcome.ts';

/** Exit codes shared by every command. */
export const exitCode = { ok: 0, violation: 1, usage: 2, incomplete: 3 } as const;

/** One of the four exit codes. */
export type ExitCode = (typeof exitCode)[keyof typeof exitCode];

/** The exit code of a verdict: `ok` 0, `violation` 1, `incomplete` 3. */
export function exitCodeOf(verdict: Verdict): ExitCode {
  return exitCode[verdict];
}

/** The exit code of several results: any violation 1, else any incomplete 3, else 0. */
export function exitCodeOfResults(results: readonly ScenarioResult[]): ExitCode {
  return exitCodeOf(overallVerdict(results));
}

/** Every kvcheck command, in the order `--help` lists them. */
export const commandNames = [
  'check',
  'lint',
  'paths',
  'all',
  'report',
  'diagram',
  'state-space',
  'catalogue',
  'simulate',
  'liveness',
  'replay',
  'list',
] as const;

/** A kvcheck command's name. */
export type CommandName = (typeof commandNames)[number];

/** What codes 0, 1 and 3 mean for one command; absent: the command never exits with it. */
export interface ExitMeanings {
  readonly ok?: string;
  readonly violation?: string;
  readonly incomplete?: string;
}

/** What every command means by code 2. */
export const usageMeaning = 'bad input: one error line on stderr, nothing else done';

const unreached = 'a required witness was not reached';
const bounded = `a bound stopped a search before a violation, or ${unreached}`;

/**
 * Per command, what codes 0, 1 and 3 mean (2 is always `usageMeaning`). The commands' handlers
 * return these codes; tests run each command to the codes listed here.
 */
export const exitCodeMeanings: Readonly<Record<CommandName, ExitMeanings>> = {
  check: {
    ok: 'every property holds',
    violation: 'a property is violated, or --por-check or --reads-check found an assumption broken',
    incomplete: `a bound or Ctrl-C stopped a search before a violation, or ${unreached}`,
  },
  lint: { ok: 'no finding is an error (warnings allowed)', violation: 'a finding is an error' },
  paths: { ok: 'no structural path', violation: 'a structural path exists' },
  all: {
    ok: 'every result and the path check match the manifest',
    violation: 'a result or the path check differs from the manifest',
    incomplete:
      'no difference, but a bound or an unreached required witness left a row unconfirmed',
  },
  report: {
    ok: 'every property holds',
    violation: 'a property is violated',
    incomplete: bounded,
  },
  diagram: { ok: 'drawn' },
  'state-space': {
    ok: 'drawn; no drawn state violates a selected property',
    violation: 'a drawn state violates a selected property',
    incomplete: 'a bound stopped the exploration before a violation: the drawing is partial',
  },
  catalogue: {
    ok: 'every fault is caught and fixed holds',
    violation: 'a fault is not caught, or fixed violates a property',
    incomplete: bounded,
  },
  simulate: {
    violation: 'a walk violated a property',
    incomplete: 'no walk violated a property: a random search proves nothing',
  },
  liveness: {
    ok: 'every leads-to property holds under weak fairness',
    violation: 'a fair cycle leaves an obligation open (a lasso)',
    incomplete: 'a bound stopped a search: liveness needs the whole graph',
  },
  replay: {
    ok: 'every replay is blocked, or ends with its property holding',
    violation: 'a replay runs to its end with its property still violated',
  },
  list: { ok: 'listed' },
};

/**
 * What codes 0, 1, 2 and 3 mean for `command`, indexed by code; `undefined` where the command
 * never exits with that code.
 */
export function exitMeaningsOf(command: CommandName): readonly (string | undefined)[] {
  const m = exitCodeMeanings[command];
  return [m.ok, m.violation, usageMeaning, m.incomplete];
}

/** The `--help` footer of `command`: its exit codes, one line each, leaving out unused ones. */
export function exitCodeHelp(command: CommandName): string {
  const lines = exitMeaningsOf(command).flatMap((text, code) =>
    text === undefined ? [] : [`  ${code}  ${text}`],
  );
  return `\nExit codes:\n${lines.join('\n')}`;
}
