/**
 * `kvcheck report`: checks scenarios × variants, draws the statecharts and every counterexample,
 * and writes `report.md` (GitHub: Mermaid blocks) and `report.html` (self-contained: inline SVG
 * and CSS) into one folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { check } from '../checker/check.ts';
import type { ScenarioResult } from '../checker/outcome.ts';
import { defaultMaxStates } from '../checker/stateGraph.ts';
import { toDotDiff } from '../export/chartDiff.ts';
import type { ChartGraph } from '../export/chartGraph.ts';
import { toDot } from '../export/dotStatechart.ts';
import { toMermaid } from '../export/mermaidStatechart.ts';
import { reportHtml } from '../export/reportHtml.ts';
import { reportMarkdown } from '../export/reportMarkdown.ts';
import {
  barriersOf,
  type Counterexample,
  type Diagram,
  type ReportInput,
} from '../export/reportModel.ts';
import { toSequenceMermaid } from '../export/sequenceDiagram.ts';
import { toSequenceSvg } from '../export/sequenceSvg.ts';
import { chartGraph } from '../export/statechart.ts';
import { renderSvg } from '../export/svg.ts';
import { checkOutputPaths, writeFailure } from './outputPaths.ts';
import { reproduceLine } from './render.ts';
import { type Io, resolveScenarios, resolveVariants, type SelectionArgs } from './resolve.ts';
import { positiveSeconds, wholeNumber } from './usageError.ts';

/** Options of `kvcheck report`, as parsed from the command line. */
export interface ReportArgs extends SelectionArgs {
  readonly out: string;
  readonly maxStates?: string;
  readonly maxSeconds?: string;
}

/** Where `npm start` and a bare `kvcheck report` write. */
export const defaultReportDir = 'reports';

/**
 * The statecharts a review reads: one request's lifecycle as the first variant wires it, then,
 * for each other variant, the same chart with the transitions it gains or loses against the
 * first highlighted, and the page lifecycle.
 */
async function statechartDiagrams(variants: readonly Variant[]): Promise<Diagram[]> {
  const [base, ...others] = variants;
  if (!base) return [];
  const baseChart = chartGraph('request', base);
  const out: Diagram[] = [
    {
      title: `One request’s lifecycle as ${base.name} wires it`,
      caption:
        'Router, prefill, transfer channel and decode as parallel regions. Rejected states are red, final states doubled, internal events blue; edges the variant’s switches disable are dashed grey.',
      mermaid: toMermaid(baseChart),
      svg: await renderSvg(toDot(baseChart, { title: `request · ${base.name}` })),
    },
  ];
  for (const v of others) {
    const chart = chartGraph('request', v);
    out.push({
      title: `${v.name} against ${base.name}`,
      caption: `The lifecycle as ${v.name} wires it (${barriersOf(v)}); red: transitions only ${base.name} can take, green: transitions only ${v.name} can take.`,
      mermaid: toMermaid(chart),
      svg: await renderSvg(toDotDiff(baseChart, chart)),
    });
  }
  const page = chartGraph('page');
  out.push({
    title: 'One KV page',
    caption: 'Freeing keeps the last writer: the next owner reads it until it overwrites the slot.',
    mermaid: toMermaid(page),
    svg: await renderSvg(toDot(page, { title: 'page' })),
  });
  return out;
}

function counterexamplesOf(
  results: readonly ScenarioResult[],
  reproduce: ReadonlyMap<string, string>,
): Counterexample[] {
  return results.flatMap((r) =>
    r.properties.flatMap((p) => {
      if (!p.trace) return [];
      const meta = {
        scenario: r.scenario,
        variant: r.variant,
        property: p.name,
        statement: p.statement,
      };
      return [
        {
          ...meta,
          trace: p.trace,
          mermaid: toSequenceMermaid(p.trace, meta),
          svg: toSequenceSvg(p.trace, meta),
          reproduce: reproduceLine(r, p.name, reproduce),
        },
      ];
    }),
  );
}

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
 * Checks every scenario × variant for a report, within `--max-states` (default
 * `defaultMaxStates`) and `--max-seconds`; throws a UsageError for a bad bound.
 */
export function checkForReport(
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
  bounds: Pick<ReportArgs, 'maxStates' | 'maxSeconds'>,
): { results: ScenarioResult[]; maxStates: number; maxSeconds: number | undefined } {
  const maxStates =
    bounds.maxStates === undefined
      ? defaultMaxStates
      : wholeNumber('--max-states', bounds.maxStates, 1);
  const maxSeconds =
    bounds.maxSeconds === undefined
      ? undefined
      : positiveSeconds('--max-seconds', bounds.maxSeconds);
  const results = scenarios.flatMap((s) =>
    variants.map((v) =>
      check(s, v, {
        maxStates,
        ...(maxSeconds === undefined ? {} : { maxSeconds }),
        requiredWitnesses: s.witnesses,
      }),
    ),
  );
  return { results, maxStates, maxSeconds };
}

/** Builds the report's input: runs the checks, draws the diagrams. */
export async function buildReport(
  args: Omit<ReportArgs, 'out'>,
  command: string,
  version: string,
): Promise<ReportInput> {
  const { scenarios, reproduce } = resolveScenarios(args);
  const variants = resolveVariants(args.variant);
  const { results, maxStates, maxSeconds } = checkForReport(scenarios, variants, args);
  return reportInputFrom({
    scenarios,
    variants,
    results,
    reproduce,
    command,
    version,
    maxStates,
    maxSeconds,
  });
}

/** What a report is made from once the checks have run. */
export interface CheckedRuns {
  readonly scenarios: readonly Scenario[];
  readonly variants: readonly Variant[];
  readonly results: readonly ScenarioResult[];
  readonly reproduce: ReadonlyMap<string, string>;
  readonly command: string;
  readonly version: string;
  readonly maxStates: number;
  readonly maxSeconds?: number | undefined;
}

/** The report's input from runs already checked: draws the statecharts and counterexamples. */
export async function reportInputFrom(runs: CheckedRuns): Promise<ReportInput> {
  const { maxSeconds } = runs;
  return {
    version: runs.version,
    command: runs.command,
    settings: {
      engine: 'fast (64-bit fingerprints)',
      maxStates: runs.maxStates,
      ...(maxSeconds === undefined ? {} : { maxSeconds }),
    },
    scenarios: runs.scenarios,
    variants: runs.variants,
    results: runs.results,
    diagrams: await statechartDiagrams(runs.variants),
    counterexamples: counterexamplesOf(runs.results, runs.reproduce),
    charts: new Map<string, ChartGraph>(
      runs.variants.map((v) => [v.name, chartGraph('request', v)]),
    ),
  };
}

/** Writes report.md and report.html into `dir`; returns their paths. */
export function writeReportFiles(dir: string, input: ReportInput): [string, string] {
  return [
    writeReport(dir, 'report.md', reportMarkdown(input)),
    writeReport(dir, 'report.html', reportHtml(input)),
  ];
}

/** `kvcheck report`: writes report.md and report.html into `args.out`; prints their paths. */
export async function runReport(
  args: ReportArgs,
  io: Io,
  command: string,
  version: string,
): Promise<number> {
  checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  const input = await buildReport(args, command, version);
  const [md, html] = writeReportFiles(args.out, input);
  io.out(`${md}\n${html}\n`);
  return 0;
}
