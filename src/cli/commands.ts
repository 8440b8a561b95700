/**
 * The CLI's stages, one function per command: resolve the user's names and files, run the
 * checker, print or write the result, and return the exit code. Argument parsing lives in
 * `main.ts`; text lives in `render.ts`.
 */
import { writeFileSync } from 'node:fs';
import { propertyNames, witnesses } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { largeScenarios, scenarios } from '../../scenarios/index.ts';
import { expectationFor, structuralPaths } from '../../scenarios/manifest.ts';
import { catalogue, catalogueScenarios } from '../catalogue/index.ts';
import { checkAsync } from '../checker/check.ts';
import type { ScenarioResult } from '../checker/outcome.ts';
import { livenessStatements } from '../checker/serving/servingLiveness.ts';
import type { Progress } from '../engine/index.ts';
import { reportInputFrom } from '../export/buildReport.ts';
import { itfFileName, toItf } from '../export/itf.ts';
import { resultJson, traceJson } from '../export/outcomeJson.ts';
import { plural } from '../numbers.ts';
import { findPaths, renderPaths } from '../paths/index.ts';
import { traceContexts } from '../replay/traceContexts.ts';
import { type SearchArgs, searchOptionsFrom, workersFrom } from './checkArgs.ts';
import { planDeploymentCheck, planJson, renderMapping } from './deploymentCommands.ts';
import { exitCode, exitCodeOfResults } from './exitCodes.ts';
import { checkOutputPaths, writeFailure, writeFilesInto } from './outputPaths.ts';
import { renderProgress, renderResults, renderVerdictTable, type ScenarioArgs } from './render.ts';
import {
  checkRuns,
  livenessRuns,
  reportSettings,
  reproducer,
  writeReportFiles,
} from './reportCommand.ts';
import {
  distinct,
  type Io,
  resolveScenarios,
  resolveVariants,
  type SelectionArgs,
} from './resolve.ts';
import {
  porSelfCheck,
  readsSelfCheck,
  renderSelfChecks,
  selfCheckCode,
  selfCheckJson,
  selfCheckRuns,
  worseCode,
} from './selfCheckCommand.ts';
import { oneOf, UsageError } from './usageError.ts';

/** Options of `kvcheck check`, as parsed from the command line. */
export interface CheckArgs extends SelectionArgs, SearchArgs {
  readonly invariant: readonly string[];
  readonly json: boolean;
  readonly outTrace?: string;
  readonly outItf?: string;
  /** A deployment file: check its abstract scenarios instead of `--scenario`/`--config`. */
  readonly deployment?: string;
  /** Threads of the breadth-first search (`workersFrom`). */
  readonly workers?: string;
  /** Self-check the partial-order reduction before checking (implies `--por on`). */
  readonly porCheck?: boolean;
  /** Self-check the properties' declared reads before checking. */
  readonly readsCheck?: boolean;
}

function traceFile(results: readonly ScenarioResult[]): string {
  const traces = results.flatMap((r) =>
    r.properties.flatMap((p) => {
      if (!p.trace) return [];
      const { message, steps, shortest } = traceJson(p.trace);
      return [
        {
          scenario: r.scenario,
          variant: r.variant,
          property: p.name,
          statement: p.statement,
          message,
          steps,
          ...(shortest === false ? { shortest } : {}),
        },
      ];
    }),
  );
  return `${JSON.stringify({ traces }, null, 2)}\n`;
}

function writeOutTrace(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw writeFailure('--out-trace', file, e);
  }
}

/**
 * Writes each counterexample as one ITF trace (the Informal Trace Format Apalache and Quint
 * read) into `dir`, named `<scenario>.<variant>.<property>.itf.json` (`itfFileName`), with the
 * model's state variables in every state: the trace's events replayed on the scenario and
 * variant of `runs` that found it (`traceContexts`).
 */
function writeItfFiles(
  dir: string,
  results: readonly ScenarioResult[],
  runs: { readonly scenarios: readonly Scenario[]; readonly variants: readonly Variant[] },
): void {
  const files = results.flatMap((r) => {
    const scenario = runs.scenarios.find((s) => s.name === r.scenario);
    const variant = runs.variants.find((v) => v.name === r.variant);
    if (!scenario || !variant) throw new Error(`no run of ${r.scenario} × ${r.variant}`);
    return r.properties.flatMap((p): [string, string][] => {
      if (!p.trace) return [];
      const meta = { scenario: r.scenario, variant: r.variant, property: p.name };
      const states = traceContexts(scenario, variant, p.trace.steps);
      return [[itfFileName(meta), toItf(p.trace, { ...meta, statement: p.statement }, { states })]];
    });
  });
  writeFilesInto('--out-itf', dir, files);
}

/**
 * `kvcheck check`: exhaustive check of scenarios × variants; returns the exit code. The first
 * Ctrl-C stops the fast engine's search in progress (`incomplete`, interrupted), skips the
 * checks not yet started and prints what was explored; a second one ends the process.
 */
export async function runCheck(args: CheckArgs, io: Io): Promise<number> {
  checkOutputPaths([
    ...(args.outTrace ? [{ flag: '--out-trace', kind: 'file', path: args.outTrace } as const] : []),
    ...(args.outItf ? [{ flag: '--out-itf', kind: 'folder', path: args.outItf } as const] : []),
  ]);
  // --deployment: the deployment's abstract scenarios, under its variant unless --variant is given.
  const plan =
    args.deployment === undefined ? undefined : planDeploymentCheck(args.deployment, args);
  const { scenarios: chosen, reproduce } = plan
    ? { scenarios: plan.scenarios, reproduce: plan.reproduce }
    : resolveScenarios(args, io.err);
  const variantsChosen = resolveVariants(
    plan && args.variant.length === 0 ? [plan.variant] : args.variant,
  );
  const properties = distinct(args.invariant).map((n) => oneOf('invariant', n, propertyNames));
  const search = searchOptionsFrom(porArgs(args));
  const workers = workersFrom(args.workers, search);
  const progress = io.progress && !args.json ? io.progress : undefined;
  const selfChecks = selfCheckRuns(
    [...(args.porCheck ? [porSelfCheck()] : []), ...(args.readsCheck ? [readsSelfCheck()] : [])],
    chosen,
    variantsChosen,
    search.maxStates ?? Number.POSITIVE_INFINITY,
    progress,
  );
  const selfCode = selfCheckCode(selfChecks);
  if (selfCode === exitCode.violation) {
    if (args.json) io.out(`${JSON.stringify(selfCheckJson(selfChecks), null, 2)}\n`);
    else io.out(renderSelfChecks(selfChecks, io.colour));
    return selfCode;
  }
  const results: ScenarioResult[] = [];
  const interrupt = new AbortController();
  const release = io.onInterrupt?.(() => interrupt.abort()) ?? (() => {});
  let skipped = 0;
  for (const scenario of chosen) {
    for (const variant of variantsChosen) {
      if (interrupt.signal.aborted) {
        skipped++;
        continue;
      }
      results.push(
        await checkAsync(scenario, variant, {
          ...search,
          ...workers,
          signal: interrupt.signal,
          ...(properties.length > 0 ? { properties } : {}),
          ...(progress
            ? {
                onProgress: (p: Progress) =>
                  progress(`${scenario.name} × ${variant.name}: ${renderProgress(p)}`),
              }
            : {}),
          requiredWitnesses: scenario.witnesses,
        }),
      );
      progress?.('');
    }
  }
  release();
  if (skipped > 0) io.err(`interrupted: ${plural(skipped, 'check')} not run\n`);
  if (args.outTrace) writeOutTrace(args.outTrace, traceFile(results));
  if (args.outItf)
    writeItfFiles(args.outItf, results, { scenarios: chosen, variants: variantsChosen });
  const deployment = plan ? { deployment: planJson(plan) } : {};
  const selfCheck = selfCheckJson(selfChecks);
  if (args.json)
    io.out(
      `${JSON.stringify({ ...deployment, ...selfCheck, results: results.map(resultJson) }, null, 2)}\n`,
    );
  else
    io.out(
      `${plan ? renderMapping(plan, io.colour) : ''}${renderSelfChecks(selfChecks, io.colour)}${renderResults(results, reproduce, io.colour)}`,
    );
  // A check that was never run proves nothing, whatever the others found.
  const code = worseCode(exitCodeOfResults(results), selfCode);
  return skipped > 0 && code === exitCode.ok ? exitCode.incomplete : code;
}

/** `args` with `--por` on when `--por-check` asks for it; refuses `--por off` with it. */
function porArgs(args: CheckArgs): CheckArgs {
  if (!args.porCheck) return args;
  if (args.por === 'off') {
    throw new UsageError('--por-check checks the reduction --por on makes; not with --por off');
  }
  return { ...args, por: true };
}

/** Options of `kvcheck paths`. */
export interface PathsArgs {
  readonly variant: readonly string[];
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly json: boolean;
}

/** What a structural path means, printed under the paths. */
export const pathsMeaning = [
  'A structural path runs through one request’s statecharts with every data guard left open and',
  'every switch evaluated: the variant’s wiring lets a rejected request reach decoding for some',
  'prompt length and some interleaving. That is a leak only where a scenario’s numbers reach it',
  '(kvcheck check decides that); no path means no prompt length can. A path starts with the step',
  'that enters the rejected state, from the configuration it names (\u201cstarts in\u201d), which the',
  'request\u2019s regions reach from their initial states.',
].join('\n');

/** `kvcheck paths`: structural rejected → decoding paths per variant; exit 1 if any exists. */
export function runPaths(args: PathsArgs, io: Io): number {
  const reports = resolveVariants(args.variant).map((v) =>
    findPaths(v, {
      ...(args.from.length > 0 ? { from: [...args.from] } : {}),
      ...(args.to.length > 0 ? { to: [...args.to] } : {}),
    }),
  );
  if (args.json) io.out(`${JSON.stringify({ variants: reports }, null, 2)}\n`);
  else io.out(`${reports.map(renderPaths).join('\n\n')}\n\n${pathsMeaning}\n`);
  return reports.some((r) => r.paths.length > 0) ? exitCode.violation : exitCode.ok;
}

/** How a result compares with its manifest row, and the verdict table's words for it. */
interface Comparison {
  readonly kind: 'asExpected' | 'unconfirmed' | 'mismatch' | 'none';
  readonly label: string;
}

/**
 * How a result compares with its manifest row: as expected; unconfirmed when a bound stopped
 * its search, or a required witness went unreached, and every violation it found is one the row
 * expects (it neither confirms nor contradicts the row); a mismatch otherwise.
 */
function compareWithManifest(r: ScenarioResult): Comparison {
  const e = expectationFor(r.scenario, r.variant);
  if (!e) return { kind: 'none', label: 'no expectation' };
  const violated = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
  const same =
    e.status === r.status && e.states === r.stats.states && e.violated.join() === violated.join();
  if (same) return { kind: 'asExpected', label: 'as expected' };
  const expected = `expected ${e.status}, ${e.states} states`;
  const stopped = r.bound !== undefined || r.status === 'incomplete';
  if (stopped && violated.every((p) => e.violated.includes(p))) {
    const why = r.bound ? `stopped by ${r.bound.reason}` : 'a required witness unreached';
    return { kind: 'unconfirmed', label: `UNCONFIRMED (${expected}; ${why})` };
  }
  return { kind: 'mismatch', label: `MISMATCH (${expected})` };
}

/**
 * `kvcheck all` (what `npm start` runs): every built-in scenario under every built-in variant,
 * the counterexamples, the structural path check, and the report written into `args.out`, with
 * the shared search options (`checkArgs.ts`). Exit 0 when every verdict, state count and path
 * finding matches `scenarios/manifest.ts`; 1 when one contradicts it; 3 when none does but a
 * bound or an unreached required witness left a row unconfirmed (`compareWithManifest`).
 */
export async function runAll(
  io: Io,
  args: SearchArgs & { readonly out: string; readonly workers?: string },
  version: string,
): Promise<number> {
  checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  const variants = resolveVariants([]);
  const options = searchOptionsFrom(args);
  const results = await checkRuns(scenarios, variants, options, workersFrom(args.workers, options));
  const reproduce: ScenarioArgs = new Map();
  io.out('kvcheck: every built-in scenario under every built-in variant\n\n');
  io.out(`${renderVerdictTable(results, io.colour, (r) => compareWithManifest(r).label)}\n\n`);
  io.out(renderResults(results, reproduce, io.colour, { table: false, storage: false }));
  io.out('\nStructural path check (scenario-independent): rejected state → decoding state\n\n');
  const reports = variants.map((v) => findPaths(v));
  io.out(`${reports.map(renderPaths).join('\n\n')}\n\n`);
  const input = await reportInputFrom({
    scenarios,
    variants,
    results,
    reproduce: reproducer(reproduce),
    command: 'kvcheck all',
    version,
    settings: reportSettings(options),
    liveness: livenessRuns(scenarios, variants, options),
  });
  const [md, html] = writeReportFiles(args.out, input);
  io.out(`Report: ${md} and ${html}\n`);
  const kinds = results.map((r) => compareWithManifest(r).kind);
  const mismatches = kinds.filter((k) => k === 'mismatch' || k === 'none');
  const unconfirmedRows = kinds.filter((k) => k === 'unconfirmed').length;
  const pathsAsExpected = reports.every((r) => r.paths.length > 0 === structuralPaths[r.variant]);
  if (mismatches.length === 0 && pathsAsExpected) {
    if (unconfirmedRows > 0) {
      io.out(
        `${plural(unconfirmedRows, 'result')} of ${results.length} could not be confirmed against scenarios/manifest.ts.\n`,
      );
      return exitCode.incomplete;
    }
    io.out(`All ${results.length} verdicts and state counts are as expected.\n`);
    return exitCode.ok;
  }
  const pathNote = pathsAsExpected ? '' : '; the structural path check differs from it too';
  io.out(`${mismatches.length} result(s) differ from scenarios/manifest.ts${pathNote}.\n`);
  return exitCode.violation;
}

/** The catalogue's scenarios that are not built-in ones (`--scenario` accepts them too). */
function catalogueOnlyScenarios(): Scenario[] {
  return catalogueScenarios.filter((c) => !scenarios.some((s) => s.name === c.name));
}

/** `kvcheck list`: the built-in scenarios, variants, properties and witnesses. */
export function runList(args: { readonly json: boolean }, io: Io): number {
  if (args.json) {
    const listed = {
      scenarios,
      largeScenarios,
      variants: resolveVariants([]),
      properties: propertyNames,
      leadsTo: Object.keys(livenessStatements),
      witnesses: Object.entries(witnesses).map(([name, w]) => ({ name, statement: w.statement })),
      catalogue: catalogue.map((e) => ({ id: e.id, variant: e.variant, scenario: e.scenario })),
      catalogueScenarios: catalogueOnlyScenarios().map((s) => s.name),
    };
    io.out(`${JSON.stringify(listed, null, 2)}\n`);
    return exitCode.ok;
  }
  const named = (name: string, width: number, text: string) => `  ${name.padEnd(width)} ${text}`;
  const lines = ['Scenarios:'];
  for (const s of scenarios) lines.push(named(s.name, 12, s.description));
  lines.push('', 'Large scenarios (--scenario NAME only; not run by kvcheck all):');
  for (const s of largeScenarios) lines.push(named(s.name, 15, s.description));
  lines.push('', 'Catalogue scenarios (--scenario NAME; kvcheck catalogue runs them):');
  for (const s of catalogueOnlyScenarios()) lines.push(named(s.name, 16, s.description));
  lines.push('', 'Variants:');
  for (const v of resolveVariants([])) lines.push(`  ${v.name.padEnd(15)} ${v.description}`);
  lines.push('', 'Catalogue variants (kvcheck catalogue; not run by kvcheck all):');
  for (const e of catalogue) {
    lines.push(`  ${e.variant.name.padEnd(30)} ${e.id} on ${e.scenario.name}: ${e.description}`);
  }
  lines.push('', 'Properties:');
  for (const name of propertyNames) lines.push(`  ${name}`);
  lines.push('', 'Leads-to properties (kvcheck liveness):');
  for (const [name, statement] of Object.entries(livenessStatements)) {
    lines.push(named(name, 20, statement));
  }
  lines.push(
    '',
    'Witnesses (a scenario names those it must reach, so that a pass is not vacuous):',
  );
  for (const [name, w] of Object.entries(witnesses)) lines.push(named(name, 28, w.statement));
  io.out(`${lines.join('\n')}\n`);
  return exitCode.ok;
}
