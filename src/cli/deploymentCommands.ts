/**
 * The deployment commands' stages: `kvcheck lint FILE`, the plan behind `kvcheck check
 * --deployment FILE` (abstract scenarios, the variant, the mapping text) and `kvcheck report
 * --deployment FILE`. Each returns an exit code or data; bad input is a ConfigError or UsageError.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { type AbstractMapping, abstractScenarios } from '../deployment/abstractScenario.ts';
import { mappingHeader, mappingRows } from '../deployment/explain.ts';
import { type LintReport, lintDeployment } from '../deployment/lint.ts';
import { loadDeploymentFile } from '../deployment/loadDeployment.ts';
import { reportInputFrom } from '../export/buildReport.ts';
import { searchOptionsFrom, workersFrom } from './checkArgs.ts';
import { exitCode, exitCodeOfResults } from './exitCodes.ts';
import { renderLint } from './lintText.ts';
import { checkOutputPaths } from './outputPaths.ts';
import { table } from './render.ts';
import {
  checkRuns,
  livenessRuns,
  type ReportArgs,
  reportSettings,
  reportWritten,
  reproducer,
  writeReportFiles,
} from './reportCommand.ts';
import { type Io, resolveVariants, shellWord } from './resolve.ts';
import { paint } from './style.ts';
import { UsageError } from './usageError.ts';

/** Options of `kvcheck lint`. */
export interface LintArgs {
  readonly json: boolean;
}

/**
 * `kvcheck lint FILE`: prints the lint report (text, or JSON with `--json`); exit 1 when a
 * finding is at error severity, 0 otherwise. A bad file throws a ConfigError (exit 2).
 */
export function runLint(file: string, args: LintArgs, io: Io): number {
  const report = lintDeployment(loadDeploymentFile(file));
  if (args.json) io.out(`${JSON.stringify({ file, ...report }, null, 2)}\n`);
  else io.out(renderLint(report, file, io.colour));
  return report.status === 'error' ? exitCode.violation : exitCode.ok;
}

/** What `check --deployment` and `report --deployment` run. */
export interface DeploymentPlan {
  readonly source: string;
  readonly lint: LintReport;
  readonly mapping: AbstractMapping;
  readonly scenarios: readonly Scenario[];
  /** The deployment's variant, used when no `--variant` is given. */
  readonly variant: string;
  /** Each abstract scenario's reproduce argument: `--deployment FILE`. */
  readonly reproduce: ReadonlyMap<string, string>;
}

/**
 * Loads and lints the deployment at `file` and maps it to abstract scenarios. `--scenario` and
 * `--config` cannot be combined with `--deployment` (a UsageError).
 */
export function planDeploymentCheck(
  file: string,
  args: { readonly scenario: readonly string[]; readonly config: readonly string[] },
): DeploymentPlan {
  if (args.scenario.length > 0 || args.config.length > 0) {
    throw new UsageError('--deployment cannot be combined with --scenario or --config');
  }
  const lint = lintDeployment(loadDeploymentFile(file));
  const mapping = abstractScenarios(lint);
  const scenarios = mapping.runs.map((r) => r.scenario);
  return {
    source: file,
    lint,
    mapping,
    scenarios,
    variant: lint.deployment.variant,
    reproduce: new Map(scenarios.map((s) => [s.name, `--deployment ${shellWord(file)}`])),
  };
}

/** The mapping `check --deployment` prints before its results. */
export function renderMapping(plan: DeploymentPlan, colour: boolean): string {
  const d = plan.lint.deployment;
  const head = `${paint(colour, 'bold', d.name)} (${plan.source}) under ${d.variant}, checked as ${plan.scenarios.length} abstract scenario(s), one per band of prompt lengths:`;
  const body = table(mappingHeader, mappingRows(plan.mapping))
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  return `${head}\n${body}\n\n`;
}

/** The JSON form of a plan, as `check --deployment --json` prints it next to the results. */
export function planJson(plan: DeploymentPlan): object {
  return {
    file: plan.source,
    name: plan.lint.deployment.name,
    variant: plan.variant,
    mapping: {
      ...plan.mapping,
      runs: plan.mapping.runs.map((r) => ({ ...r, scenario: r.scenario.name })),
    },
  };
}

/**
 * `kvcheck report --deployment FILE`: checks the deployment's abstract scenarios under its
 * variant (or `--variant`), and writes the report with a deployment section. Exit code as
 * `kvcheck report`'s.
 */
export async function runDeploymentReport(
  args: ReportArgs & { readonly deployment: string },
  io: Io,
  command: string,
  version: string,
): Promise<number> {
  checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  const plan = planDeploymentCheck(args.deployment, args);
  const variants = resolveVariants(args.variant.length > 0 ? args.variant : [plan.variant]);
  const options = searchOptionsFrom(args);
  const results = await checkRuns(
    plan.scenarios,
    variants,
    options,
    workersFrom(args.workers, options),
  );
  const input = await reportInputFrom({
    scenarios: plan.scenarios,
    variants,
    results,
    reproduce: reproducer(plan.reproduce),
    command,
    version,
    settings: reportSettings(options),
    liveness: livenessRuns(plan.scenarios, variants, options),
  });
  const deployment = { source: plan.source, lint: plan.lint, mapping: plan.mapping };
  const paths = writeReportFiles(args.out, { ...input, deployment });
  io.out(reportWritten(results, paths, io.colour));
  return exitCodeOfResults(results);
}
