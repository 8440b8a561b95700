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
import { diffCharts, toDotDiff } from './chartDiff.ts';
import { type RegionCoverage, regionCoverage } from './coverage.ts';
import { toDot } from './dotStatechart.ts';
import { drawnChart, drawnDiffCharts } from './faultEdges.ts';
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
import { type ChartName, chartGraph } from './statechart.ts';
import { renderSvg } from './svg.ts';

/** The regions of one request, each drawn on its own in the report. */
const regionCharts = [
  'router',
  'prefill',
  'transfer',
  'decode',
] as const satisfies readonly ChartName[];

const baseCaption =
  'Rejected states are red, final states doubled; the legend tells the edges apart. Transitions only a bug catalogue fault enables are left out.';

/** Each region as `base` wires it. */
async function baseDiagrams(base: Variant): Promise<Diagram[]> {
  const out: Diagram[] = [];
  for (const region of regionCharts) {
    const chart = drawnChart(region, base);
    out.push({
      title: `${region} as ${base.name} wires it`,
      caption: `The ${region} region of one request. ${baseCaption}`,
      mermaid: toMermaid(chart),
      svg: await renderSvg(toDot(chart, { title: `${region} · ${base.name}` })),
    });
  }
  return out;
}

/** The regions whose transitions differ between `base` and `v`, each with the difference drawn. */
async function diffDiagrams(base: Variant, v: Variant): Promise<Diagram[]> {
  const changed = regionCharts
    .map((region) => ({ region, charts: drawnDiffCharts(region, base, v) }))
    .filter(({ charts }) => {
      const d = diffCharts(...charts);
      return d.onlyInA.length + d.onlyInB.length > 0;
    });
  const same = regionCharts.filter((r) => !changed.some((c) => c.region === r));
  const unchanged = same.length === 0 ? '' : ` Unchanged, so not drawn: ${same.join(', ')}.`;
  const out: Diagram[] = [];
  for (const { region, charts } of changed) {
    out.push({
      title: `${region}: ${v.name} against ${base.name}`,
      caption: `The ${region} region as ${v.name} wires it (${barriersOf(v)}); red: transitions only ${base.name} can take, green: transitions only ${v.name} can take.${unchanged}`,
      mermaid: toMermaid(charts[1]),
      svg: await renderSvg(toDotDiff(...charts)),
    });
  }
  return out;
}

/**
 * The statecharts a review reads: each region of one request as the first variant wires it,
 * then, for each other variant, only the regions whose transitions differ from the first's,
 * with the transitions gained or lost highlighted, and last the page lifecycle. Each region is
 * drawn on its own so that it reads at its native size.
 */
async function statechartDiagrams(variants: readonly Variant[]): Promise<Diagram[]> {
  const [base, ...others] = variants;
  if (!base) return [];
  const out = await baseDiagrams(base);
  for (const v of others) out.push(...(await diffDiagrams(base, v)));
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
 * Statechart coverage per variant: the union of its runs' lifecycle moves against its request
 * chart, with what the runs' scenarios switch off told apart from what they never took.
 */
function coverageByVariant(runs: CheckedRuns): Map<string, readonly RegionCoverage[]> {
  return new Map(
    runs.variants.map((v) => {
      const mine = runs.results.filter((r) => r.variant === v.name);
      const scenarios = runs.scenarios.filter((s) => mine.some((r) => r.scenario === s.name));
      return [
        v.name,
        regionCoverage(
          v,
          scenarios,
          mine.flatMap((r) => r.coverage),
        ),
      ];
    }),
  );
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
    coverage: coverageByVariant(runs),
    findings: findingsOf(counterexamples, runs.scenarios, runs.variants),
    structural: structuralFindings(runs.variants),
  };
}
