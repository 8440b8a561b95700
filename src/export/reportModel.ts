/**
 * The design-review report as data: what each section shows, computed from the Outcome, the
 * scenarios and the variants. The Markdown and HTML renderers only lay it out.
 */

import { properties } from '../../invariants/index.ts';
import { maxReqInputLen, type Scenario } from '../../machines/scenario.ts';
import {
  admissionRetireEffective,
  retireAbortedResultEffective,
  type Switches,
  type Variant,
} from '../../machines/variants.ts';
import { expectationFor } from '../../scenarios/manifest.ts';
import type {
  Bound,
  LassoTrace,
  PropertyStatus,
  ScenarioResult,
  Trace,
  Verdict,
} from '../checker/outcome.ts';
import { count, plural } from '../numbers.ts';
import { offByMechanism, type RegionCoverage } from './coverage.ts';
import type { DeploymentSection } from './deploymentSection.ts';

/** A drawn statechart: Mermaid text for Markdown, SVG for HTML. */
export interface Diagram {
  readonly title: string;
  readonly caption: string;
  readonly mermaid: string;
  readonly svg: string;
}

/** A step of a counterexample that makes its failure, told by its deciding changes. */
export interface KeyStep {
  readonly step: number;
  readonly event: string;
  readonly rid: string;
  readonly text: string;
}

/** One violated property, told for a review. */
export interface Finding {
  readonly property: string;
  readonly statement: string;
  readonly scenario: string;
  readonly variant: string;
  readonly steps: number;
  /** Index of its counterexample in the report's list (for the link). */
  readonly counterexample: number;
  readonly keySteps: readonly KeyStep[];
  /** The trace replayed under each other variant, in one sentence each. */
  readonly replays: readonly { readonly variant: string; readonly text: string }[];
}

/** What the structural path check says of one variant. */
export interface StructuralFinding {
  readonly variant: string;
  readonly paths: number;
}

/** A counterexample with its two drawings. */
export interface Counterexample {
  readonly scenario: string;
  readonly variant: string;
  readonly property: string;
  readonly statement: string;
  readonly trace: Trace;
  readonly mermaid: string;
  readonly svg: string;
  readonly reproduce: string;
}

/** The engine and bounds a report's checks ran with; an absent bound is none. */
export interface ReportSettings {
  /** The engine, as a reader should see it, e.g. `fast (64-bit fingerprints)`. */
  readonly engine: string;
  readonly maxStates?: number;
  readonly maxSeconds?: number;
}

/** The settings in words, for the report's footer: `engine …, no state bound, no time limit`. */
export function settingsText(settings: ReportSettings): string {
  return [
    `engine ${settings.engine}`,
    settings.maxStates === undefined ? 'no state bound' : `max ${count(settings.maxStates)} states`,
    settings.maxSeconds === undefined ? 'no time limit' : `max ${settings.maxSeconds} s`,
  ].join(', ');
}

/** One leads-to property's verdict in one liveness run, as the report shows it. */
export type LeadsToCell =
  | { readonly verdict: 'holds'; readonly cycles: number }
  | { readonly verdict: 'violated'; readonly lasso: LassoTrace }
  | { readonly verdict: 'incomplete' };

/** One scenario × variant's liveness run, as the report's liveness section shows it. */
export interface LivenessRow {
  readonly scenario: string;
  readonly variant: string;
  /** `incomplete` whenever a bound stopped the search: a bounded run is never a pass. */
  readonly status: Verdict;
  /** States explored: all of the unreduced graph's, unless a bound stopped the search. */
  readonly states: number;
  /** Present when a bound stopped the search. */
  readonly bound?: Bound;
  /** One cell per property of the section, in its order. */
  readonly cells: readonly LeadsToCell[];
}

/** The report's liveness section: the leads-to properties, and one row per run. */
export interface LivenessSection {
  /** The state bound every run had. */
  readonly maxStates: number;
  readonly properties: readonly { readonly name: string; readonly statement: string }[];
  readonly rows: readonly LivenessRow[];
}

/** A lasso of the liveness section, with where it was found and what it violates. */
export interface LivenessLasso {
  readonly scenario: string;
  readonly variant: string;
  readonly property: string;
  readonly statement: string;
  readonly lasso: LassoTrace;
}

/** The liveness section's opening paragraph: what is checked, how, and the bound. */
export function livenessIntro(section: LivenessSection): string {
  return `Leads-to properties under weak fairness per request region (router, prefill, transfer, decode, timer); faults, prefill errors and client aborts need never happen. Each run explores the whole unreduced state graph, up to ${count(section.maxStates)} states: a run that bound stops is incomplete, never a pass. A violation is a lasso, a prefix and then a cycle; its loop index, as in ITF’s loop field, is the state the cycle returns to (0: the initial state).`;
}

/** A cell's verdict in words: `holds (no cycle)`, `violated for a1: a lasso of 22 steps, loop 20`. */
export function leadsToText(cell: LeadsToCell): string {
  if (cell.verdict === 'incomplete') return 'incomplete';
  if (cell.verdict === 'violated') {
    const { rid, steps, loop } = cell.lasso;
    return `violated for ${rid}: a lasso of ${plural(steps.length, 'step')}, loop ${loop}`;
  }
  return cell.cycles === 0
    ? 'holds (no cycle)'
    : `holds (${plural(cell.cycles, 'cycle')}, none fair)`;
}

/** A row's states in words; when a bound stopped it, the bound too (`… stopped by maxStates …`). */
export function livenessStatesText(row: LivenessRow): string {
  const states = count(row.states);
  if (row.status !== 'incomplete') return states;
  const by = row.bound ? ` by ${row.bound.reason} ${count(row.bound.limit)}` : '';
  return `${states}, stopped${by}: liveness needs the whole graph`;
}

/** Where a lasso's cycle runs and where it returns, in one sentence. */
export function loopText(lasso: LassoTrace): string {
  const n = lasso.steps.length;
  const back = lasso.loop === 0 ? 'the initial state' : `the state after step ${lasso.loop}`;
  const cycle =
    lasso.loop + 1 === n ? `Step ${n} repeats` : `Steps ${lasso.loop + 1} to ${n} repeat`;
  return `${cycle} forever: after step ${n} the run is back in ${back} (loop index ${lasso.loop}).`;
}

/** Every lasso of the section, row by row, in property order. */
export function livenessLassos(section: LivenessSection): LivenessLasso[] {
  return section.rows.flatMap((row) =>
    row.cells.flatMap((cell, i): LivenessLasso[] => {
      const p = section.properties[i];
      if (cell.verdict !== 'violated' || !p) return [];
      const { scenario, variant } = row;
      return [{ scenario, variant, property: p.name, statement: p.statement, lasso: cell.lasso }];
    }),
  );
}

/** Everything the report is made from. */
export interface ReportInput {
  readonly version: string;
  /** The command line that produced the report. */
  readonly command: string;
  readonly settings: ReportSettings;
  readonly scenarios: readonly Scenario[];
  readonly variants: readonly Variant[];
  readonly results: readonly ScenarioResult[];
  readonly diagrams: readonly Diagram[];
  readonly counterexamples: readonly Counterexample[];
  /** The leads-to properties' verdicts per scenario × variant (`kvcheck liveness`, bounded). */
  readonly liveness: LivenessSection;
  /** Statechart coverage of the `request` chart per variant, over its runs (`coverage.ts`). */
  readonly coverage: ReadonlyMap<string, readonly RegionCoverage[]>;
  /** A deployment the scenarios were derived from (`kvcheck report --deployment`), if any. */
  readonly deployment?: DeploymentSection;
  /** One per violated property, from its shortest counterexample (`findings.ts`). */
  readonly findings: readonly Finding[];
  /** The structural rejected → decoding path check, per variant. */
  readonly structural: readonly StructuralFinding[];
}

/** One request's length against each limit, in words. */
export function orderRelations(s: Scenario, promptLen: number): string[] {
  const prefill = maxReqInputLen(s, 'prefill');
  const decode = maxReqInputLen(s, 'decode');
  const tokenizer =
    promptLen >= s.contextLen
      ? `${promptLen} ≥ context ${s.contextLen}: rejected by the tokenizer (400)`
      : `${promptLen} < context ${s.contextLen}: passes the tokenizer`;
  const side = (name: string, limit: number) =>
    promptLen >= limit
      ? `${promptLen} ≥ ${name} limit ${limit}: rejected by ${name}’s scheduler`
      : `${promptLen} < ${name} limit ${limit}: accepted by ${name}`;
  return promptLen >= s.contextLen
    ? [tokenizer]
    : [tokenizer, side('prefill', prefill), side('decode', decode)];
}

/** The scenario's sizes as label/value rows, with the limits they imply. */
export function scenarioParameters(s: Scenario): [string, string][] {
  const tenants = [...new Set(s.requests.map((r) => r.tenant))];
  return [
    ['tenants', tenants.join(', ')],
    ['context window', `${s.contextLen} tokens`],
    [
      'prefill pool',
      `${s.prefillPoolTokens} tokens (scheduler limit ${maxReqInputLen(s, 'prefill')})`,
    ],
    [
      'decode pool',
      `${s.decodePoolTokens} tokens (scheduler limit ${maxReqInputLen(s, 'decode')})`,
    ],
    ['page size', `${s.pageSize} token(s)`],
    ['reserve', String(s.reserve)],
    ['transfer faults', faultText(s.transferFaults, s.maxTransferFaults)],
    ['client aborts', faultText(s.clientAborts, s.maxClientAborts)],
    ['pool vs context', poolVersusContext(s)],
  ];
}

function faultText(on: boolean, max: number | undefined): string {
  if (!on) return 'off';
  return max === undefined ? 'possible' : `at most ${max} per run`;
}

function poolVersusContext(s: Scenario): string {
  const smallest = Math.min(s.prefillPoolTokens, s.decodePoolTokens);
  if (smallest < s.contextLen)
    return 'the context window exceeds a pool: the incident’s configuration';
  if (smallest < 2 * s.contextLen)
    return 'every pool holds the context window, with less than 2× headroom';
  return 'every pool holds at least twice the context window';
}

/**
 * A property's status under a variant over every scenario, and where it was violated. When it
 * holds in every scenario but only vacuously in each (no state fired its trigger), `vacuity`
 * says why, from the first scenario: such a pass must never read as a plain one.
 */
export function statusAcross(
  results: readonly ScenarioResult[],
  property: string,
  variant: string,
): { status: PropertyStatus; scenarios: string[]; vacuity?: string } {
  const mine = results.filter((r) => r.variant === variant);
  const of = (r: ScenarioResult) => r.properties.find((p) => p.name === property);
  const violated = mine.filter((r) => of(r)?.status === 'violated').map((r) => r.scenario);
  if (violated.length > 0) return { status: 'violated', scenarios: violated };
  const unknown = mine.some((r) => of(r)?.status !== 'holds');
  if (unknown) return { status: 'unknown', scenarios: [] };
  const vacuous = mine.length > 0 && mine.every((r) => of(r)?.vacuous === true);
  const vacuity = mine.map((r) => of(r)?.vacuity).find((v) => v !== undefined);
  return vacuous && vacuity !== undefined
    ? { status: 'holds', scenarios: [], vacuity }
    : { status: 'holds', scenarios: [] };
}

function switchesOn(s: Switches): string[] {
  const on: string[] = [];
  // A fix that a fault blinds (B1) does not act, so it is not listed as a barrier.
  if (admissionRetireEffective(s)) on.push('admission retire (#38935)');
  if (retireAbortedResultEffective(s)) on.push('retire aborted result (#36988)');
  if (s.coverageCheck) on.push('coverage check (#38704)');
  if (s.routerPolicy === 'failFast') on.push('fail-fast router');
  // Every other boolean switch is a catalogued fault (see src/catalogue).
  const fixes = new Set(['admissionRetire', 'retireAbortedResult', 'coverageCheck']);
  for (const [name, value] of Object.entries(s)) {
    if (value === true && !fixes.has(name)) on.push(`fault: ${name}`);
  }
  return on;
}

/** What a variant switches on, in words (`none` for the incident's engine). */
export function barriersOf(v: Variant): string {
  return switchesOn(v.switches).join(', ') || 'none';
}

/**
 * Reading of the barrier matrix for one property: which variants stop a failure the others
 * show, and whether a single barrier is all that stands in the way.
 */
export function defenceNote(
  results: readonly ScenarioResult[],
  variants: readonly Variant[],
  property: string,
): string {
  const status = (v: Variant) => statusAcross(results, property, v.name).status;
  const failing = variants.filter((v) => status(v) === 'violated');
  const vacuity = variants.map((v) => statusAcross(results, property, v.name).vacuity);
  if (failing.length === 0 && vacuity.every((x) => x !== undefined)) {
    return `not exercised: ${vacuity[0] ?? ''}, under every variant checked`;
  }
  if (failing.length === 0) return 'holds under every variant checked';
  const holding = variants.filter((v) => status(v) === 'holds');
  if (holding.length === 0) return 'violated under every variant checked: no barrier stops it';
  const single = holding.filter((v) => switchesOn(v.switches).length === 1);
  const thin =
    single.length === 1 ? '; a single barrier alone stops it: defence in depth is thin' : '';
  return `stopped by ${holding.map((v) => v.name).join(', ')}${thin}`;
}

/** Coverage of each region under `variant`, over every scenario's run (none: empty). */
export function coverageFor(input: ReportInput, variant: string): readonly RegionCoverage[] {
  return input.coverage.get(variant) ?? [];
}

/** What the coverage section counts, and what of it is a finding. */
export const coverageIntro =
  'States and transitions of one request’s lifecycle that the runs visited. Only what some scenario’s mechanisms allow is counted: a state or transition of a mechanism every scenario switched off (a fault option, a transfer mode no scenario uses, the variant’s switches) is listed as not exercised, naming the mechanism, and is no finding. A transition that was possible and never taken is a finding: a dead branch, or a scenario too small to reach it.';

/** The heading of the list of what a mechanism switched off kept from being exercised. */
export const offHeading = 'Not exercised: mechanism off in these scenarios';

/** How much of a region a mechanism switched off kept out: `2 states, 9 transitions`, or `—`. */
export function offCount(c: RegionCoverage): string {
  const parts = [
    c.states.off.length > 0 ? plural(c.states.off.length, 'state') : '',
    c.transitions.off.length > 0 ? plural(c.transitions.off.length, 'transition') : '',
  ].filter((p) => p !== '');
  return parts.join(', ') || '—';
}

/** What mechanisms switched off kept from being exercised under `variant`, by mechanism. */
export function offGroups(
  input: ReportInput,
  variant: string,
): { mechanism: string; items: string[] }[] {
  return offByMechanism(
    coverageFor(input, variant).flatMap((c) => [...c.states.off, ...c.transitions.off]),
  );
}

/** The registry's sentence and guard text for a property. */
export function propertyText(name: string): { statement: string; guards: string } {
  const p = properties[name];
  return { statement: p?.statement ?? '', guards: p?.guards ?? '' };
}

/** The properties `r` violates, comma-separated, or `-`. */
export function violatedText(r: ScenarioResult): string {
  const names = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
  return names.length > 0 ? names.join(', ') : '-';
}

/** What `scenarios/manifest.ts` expects of `r`'s run, as `kvcheck all` states it, or `-`. */
export function expectedText(r: ScenarioResult): string {
  const e = expectationFor(r.scenario, r.variant);
  if (!e) return '-';
  return e.status === 'ok' ? 'ok' : `violation: ${e.violated.join(', ')}`;
}

/** A finding's summary line: the property, where, and in how many steps. */
export function findingHeadline(f: Finding): string {
  return `${f.property} is violated in ${f.scenario} × ${f.variant}, in ${plural(f.steps, 'step')}`;
}

/** The structural path check in one sentence per variant. */
export function structuralText(s: StructuralFinding): string {
  return s.paths === 0
    ? `${s.variant}: no statechart path from a rejected state to a decoding state`
    : `${s.variant}: ${plural(s.paths, 'statechart path')} from a rejected state to a decoding state`;
}
