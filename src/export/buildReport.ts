/**
 * The report built from checked runs: the statecharts a review reads, each counterexample drawn
 * as a sequence diagram, and the leads-to verdicts with their lassos, around the Outcome's
 * results. Pure apart from the SVG layout (Graphviz, loaded once); the command line only runs
 * the checks and the liveness runs, and writes the files.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import type { ScenarioResult } from '../checker/outcome.ts';
import {
  lassoTrace,
  livenessStatements,
  type ServingLivenessRun,
} from '../checker/serving/servingLiveness.ts';
import { toDotDiff } from './chartDiff.ts';
import type { ChartGraph } from './chartGraph.ts';
import { toDot } from './dotStatechart.ts';
import { findingsOf, structuralFindings } from './findings.ts';
import { toMermaid } from './mermaidStatechart.ts';
import {
  barriersOf,
  type Counterexample,
  type Diagram,
  type LeadsToCell,
  type LivenessRow,
  type LivenessSection,
  type ReportInput,
  type ReportSettings,
} from './reportModel.ts';
import { toSequenceMermaid } from './sequenceDiagram.ts';
import { toSequenceSvg } from './sequenceSvg.ts';
import { chartGraph } from './statechart.ts';
import { renderSvg } from './svg.ts';

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
  reproduce: (r: ScenarioResult, property: string) => string,
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
          reproduce: reproduce(r, p.name),
        },
      ];
    }),
  );
}

/** The liveness runs a report shows, and the state bound they ran with. */
export interface LivenessRuns {
  readonly maxStates: number;
  readonly runs: readonly ServingLivenessRun[];
}

/**
 * One run's row: each property `holds` (with its cycle count) or `violated` (with its lasso,
 * told step by step) on an exhaustive run, and every property `incomplete` when a bound stopped
 * the search: a bounded run never shows as a pass.
 */
function livenessRow(run: ServingLivenessRun, names: readonly string[]): LivenessRow {
  const { result } = run;
  const stopped = result.status === 'incomplete' || result.bound !== undefined;
  const cells = names.map((name): LeadsToCell => {
    const lasso = result.lassos.find((l) => l.name === name);
    if (lasso) return { verdict: 'violated', lasso: lassoTrace(lasso, run.rids) };
    const verdict = result.properties.find((p) => p.name === name);
    if (stopped || !verdict) return { verdict: 'incomplete' };
    return { verdict: 'holds', cycles: verdict.cycles };
  });
  return {
    scenario: run.scenario,
    variant: run.variant,
    status: stopped ? 'incomplete' : result.status,
    states: result.stats.states,
    ...(result.bound ? { bound: result.bound } : {}),
    cells,
  };
}

/**
 * The report's liveness section from `liveness`: the leads-to properties with their statements
 * (`livenessStatements` order), then one row per run, in the runs' order. Pure.
 */
export function livenessSection(liveness: LivenessRuns): LivenessSection {
  const properties = Object.entries(livenessStatements).map(([name, statement]) => ({
    name,
    statement,
  }));
  const names = properties.map((p) => p.name);
  return {
    maxStates: liveness.maxStates,
    properties,
    rows: liveness.runs.map((run) => livenessRow(run, names)),
  };
}

/** What a report is made from once the checks have run. */
export interface CheckedRuns {
  readonly scenarios: readonly Scenario[];
  readonly variants: readonly Variant[];
  readonly results: readonly ScenarioResult[];
  /** The command line that reproduces one property's verdict in one run. */
  readonly reproduce: (r: ScenarioResult, property: string) => string;
  /** The command line that produced the report. */
  readonly command: string;
  readonly version: string;
  /** The engine and bounds the checks ran with. */
  readonly settings: ReportSettings;
  /** The leads-to properties' runs, per scenario × variant, and their state bound. */
  readonly liveness: LivenessRuns;
}

/**
 * The report's input from runs already checked: draws the statecharts and counterexamples, and
 * tells the liveness runs' lassos step by step.
 */
export async function reportInputFrom(runs: CheckedRuns): Promise<ReportInput> {
  const counterexamples = counterexamplesOf(runs.results, runs.reproduce);
  return {
    version: runs.version,
    command: runs.command,
    settings: runs.settings,
    scenarios: runs.scenarios,
    variants: runs.variants,
    results: runs.results,
    diagrams: await statechartDiagrams(runs.variants),
    counterexamples,
    liveness: livenessSection(runs.liveness),
    charts: new Map<string, ChartGraph>(
      runs.variants.map((v) => [v.name, chartGraph('request', v)]),
    ),
    findings: findingsOf(counterexamples, runs.scenarios, runs.variants),
    structural: structuralFindings(runs.variants),
  };
}
