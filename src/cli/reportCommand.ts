/**
 * `kvcheck report`: runs the checks a design review reads (the command line's stage) and the
 * leads-to properties (bounded), has `src/export` build the report from them, and writes
 * `report.md` (GitHub: Mermaid blocks) and `report.html` (self-contained: inline SVG and CSS)
 * into one folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { checkAsync } from '../checker/check.ts';
import type { CheckOptions } from '../checker/checkOptions.ts';
import type { ScenarioResult } from '../checker/outcome.ts';
import { servingLivenessRun } from '../checker/serving/servingLiveness.ts';
import { type LivenessRuns, reportInputFrom } from '../export/buildReport.ts';
import { reportHtml } from '../export/reportHtml.ts';
import { reportMarkdown } from '../export/reportMarkdown.ts';
import type { ReportInput, ReportSettings } from '../export/reportModel.ts';
import {
  type SearchArgs,
  searchOptionsFrom,
  type WorkersChoice,
  workersFrom,
} from './checkArgs.ts';
import { exitCodeOfResults } from './exitCodes.ts';
import { checkOutputPaths, writeFailure } from './outputPaths.ts';
import { renderVerdictTable, reproduceLine, type ScenarioArgs } from './render.ts';
import { type Io, resolveScenarios, resolveVariants, type SelectionArgs } from './resolve.ts';

/** Options of `kvcheck report`, as parsed from the command line. */
export interface ReportArgs extends SelectionArgs, SearchArgs {
  readonly out: string;
  /** Threads of the breadth-first search (`workersFrom`; default `auto`). */
  readonly workers?: string;
}

/** Where `npm start` and a bare `kvcheck report` write. */
export const defaultReportDir = 'reports';

function writeReport(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, text);
  } catch (e) {
    throw writeFailure('--out', path, e);
  }
  return path;
}

/**
 * Checks every scenario × variant with `options` (the shared search options; see
 * `checkOptions.ts` for the defaults) on the threads `workers` chooses (`workersFrom`: the
 * results do not depend on them), one after the other, each with its scenario's required
 * witnesses.
 */
export async function checkRuns(
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  options: CheckOptions,
  workers: WorkersChoice,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    for (const v of variants) {
      results.push(
        await checkAsync(s, v, { ...options, ...workers, requiredWitnesses: s.witnesses }),
      );
    }
  }
  return results;
}

/**
 * The report's state bound for each liveness run: liveness keeps the whole unreduced graph, every
 * transition included, in memory (about 660 MB and 18 s for 200,000 states of incident-large),
 * so the report runs it only as far as this. A smaller `--max-states` lowers it.
 */
export const reportLivenessMaxStates = 200_000;

/**
 * The liveness runs of a report: every scenario × variant, unreduced, each stopped at the smaller
 * of `options.maxStates` and `reportLivenessMaxStates` states (a stopped run is `incomplete`).
 * Never bounded by time, so that the report stays the same from one machine to the next.
 */
export function livenessRuns(
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  options: CheckOptions,
): LivenessRuns {
  const maxStates = Math.min(options.maxStates ?? reportLivenessMaxStates, reportLivenessMaxStates);
  return {
    maxStates,
    runs: scenarios.flatMap((s) => variants.map((v) => servingLivenessRun(s, v, { maxStates }))),
  };
}

/** The engine and bounds of `options`, as the report's footer states them. */
export function reportSettings(options: CheckOptions): ReportSettings {
  const fast = (options.engine ?? 'fast') === 'fast';
  const storage = options.exact ? 'full state keys' : '64-bit fingerprints';
  return {
    engine: fast
      ? `fast (${storage}${options.symmetry ? ', symmetry' : ''}${options.por ? ', partial-order reduction' : ''})`
      : 'graph (xstate/graph)',
    ...(options.maxStates !== undefined ? { maxStates: options.maxStates } : {}),
    ...(options.maxSeconds !== undefined ? { maxSeconds: options.maxSeconds } : {}),
  };
}

/** Each property's reproduce line, naming the scenario as the user did (`args`). */
export function reproducer(args: ScenarioArgs): (r: ScenarioResult, property: string) => string {
  return (r, property) => reproduceLine(r, property, args);
}

/**
 * Writes report.md and report.html into `dir`; returns their paths. The files hold nothing that
 * changes from one run to the next (the runs' times go to the terminal: `reportWritten`), so
 * regenerating them on unchanged code gives the same bytes.
 */
export function writeReportFiles(dir: string, input: ReportInput): [string, string] {
  return [
    writeReport(dir, 'report.md', reportMarkdown(input)),
    writeReport(dir, 'report.html', reportHtml(input)),
  ];
}

/** What `report` prints once the files are written: the verdict table with times, the paths. */
export function reportWritten(
  results: readonly ScenarioResult[],
  paths: readonly string[],
  colour: boolean,
): string {
  return `${renderVerdictTable(results, colour)}\n\n${paths.join('\n')}\n`;
}

/**
 * `kvcheck report`: checks, runs liveness (`livenessRuns`), writes report.md and report.html
 * into `args.out` and prints their paths. The files are written whatever the verdict; the exit
 * code is `check`'s (0 all hold, 1 a violation, 3 incomplete): the liveness section does not
 * change it (`kvcheck liveness` exits on its verdicts).
 */
export async function runReport(
  args: ReportArgs,
  io: Io,
  command: string,
  version: string,
): Promise<number> {
  checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  const { scenarios, reproduce } = resolveScenarios(args, io.err);
  const variants = resolveVariants(args.variant);
  const options = searchOptionsFrom(args);
  const results = await checkRuns(scenarios, variants, options, workersFrom(args.workers, options));
  const input = await reportInputFrom({
    scenarios,
    variants,
    results,
    reproduce: reproducer(reproduce),
    command,
    version,
    settings: reportSettings(options),
    liveness: livenessRuns(scenarios, variants, options),
  });
  io.out(reportWritten(results, writeReportFiles(args.out, input), io.colour));
  return exitCodeOfResults(results);
}
