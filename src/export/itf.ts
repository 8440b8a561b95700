/**
 * A counterexample in the Informal Trace Format (ITF) that Apalache and Quint read and write
 * (https://apalache-mc.org/docs/adr/015adr-trace.html): a `#meta` header, the variable names, and
 * the states, the initial one first. Each state holds the step taken (`step`, `event`, `actor`,
 * `changes`), every request's regions and, given the trace's contexts, the model's state
 * variables (`itfState.ts`). Values are ITF expressions (`itfValue.ts`): integers `#bigint`,
 * request- and page-keyed functions `#map`, tuples `#tup`, sets `#set`, records plain objects.
 * `#meta.varTypes` gives each variable's type as Apalache reads it. `docs/trace-format.md`
 * documents the variables.
 *
 * A liveness counterexample is a lasso, written with ITF's optional top-level `loop`: in the
 * ADR's words, `loop` "specifies the index of the state (in the array of states) that starts the
 * loop. The loop ends in the last state."
 */
import type { DecodedContext } from '../../machines/context.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import type { LassoTrace, RegionSnapshot, Trace } from '../checker/outcome.ts';
import { changeText } from './changeText.ts';
import { safeJson } from './escape.ts';
import { itfModelVariables } from './itfState.ts';
import {
  type ItfBigint,
  type ItfMap,
  type ItfType,
  type ItfValue,
  itfInt,
  itfMap,
  itfTypeText,
  T,
} from './itfValue.ts';
import type { TraceMeta } from './sequenceDiagram.ts';

export type { ItfBigint } from './itfValue.ts';

/** Where ITF is specified; the `format-description` of every trace kvcheck writes. */
export const itfFormatDescription = 'https://apalache-mc.org/docs/adr/015adr-trace.html';

/**
 * One ITF state: its index, the step number, the event and its actor, every request's regions,
 * what changed, and (with `ItfOptions.states`) the model's state variables.
 */
export interface ItfState {
  readonly '#meta': { readonly index: number };
  readonly step: ItfBigint;
  /** `EVENT rid` (`PREFILL_INTAKE b1`), or `init` for state 0. */
  readonly event: string;
  /** Who acted (`prefill scheduler`), or `init` for state 0. */
  readonly actor: string;
  /** Request id → `{ router, prefill, transfer, decode }` state paths, as a `#map`. */
  readonly regions: ItfMap;
  /** The step's change records told as sentences (`changeText`; absent with `changes: false`). */
  readonly changes?: readonly string[];
  /** The model's state variables (`itfModelVariables`), present with `ItfOptions.states`. */
  readonly [variable: string]: ItfValue | { readonly index: number } | undefined;
}

/** A whole ITF trace. */
export interface ItfTrace {
  readonly '#meta': {
    readonly format: 'ITF';
    readonly 'format-description': string;
    readonly source: string;
    readonly description: string;
    readonly scenario: string;
    readonly variant: string;
    readonly property: string;
    readonly statement: string;
    readonly violation: string;
    /** Each variable of `vars` → its type in Apalache's type syntax (ADR-002). */
    readonly varTypes: Readonly<Record<string, string>>;
  };
  readonly vars: readonly string[];
  readonly states: readonly ItfState[];
}

/** Options of `toItf`. */
export interface ItfOptions {
  /** The `#meta.source` field. @default 'kvcheck' */
  readonly source?: string;
  /** Include each step's change sentences as the `changes` variable. @default true */
  readonly changes?: boolean;
  /**
   * The decoded context of every state: the initial one, then the one after each step
   * (`steps.length + 1` contexts). When given, each state also holds the model's state
   * variables. A lasso's contexts include the state after its last step.
   */
  readonly states?: readonly DecodedContext[];
}

/** The region state every request starts in: `idle`, except the transfer room (`unopened`). */
export const initialRegionState: Readonly<Record<string, string>> = {
  router: 'idle',
  prefill: 'idle',
  transfer: 'unopened',
  decode: 'idle',
};

/** The initial snapshot: the first step's requests and regions, each in its initial state. */
function initialRegions(trace: Trace): RegionSnapshot {
  const first = trace.steps[0]?.regions ?? {};
  return Object.fromEntries(
    Object.entries(first).map(([rid, regions]) => [
      rid,
      Object.fromEntries(Object.keys(regions).map((r) => [r, initialRegionState[r] ?? 'idle'])),
    ]),
  );
}

const regionsType = T.map(T.str, T.rec(requestRegions.map((r) => [r, T.str] as const)));

/** A region snapshot as ITF: request id → the four regions' state paths, in a fixed order. */
function itfRegions(snapshot: RegionSnapshot): ItfMap {
  return itfMap(
    Object.entries(snapshot).map(
      ([rid, regions]) =>
        [rid, Object.fromEntries(requestRegions.map((r) => [r, regions[r] ?? '']))] as const,
    ),
  );
}

/** The step variables' types: the event taken, its actor, the regions, the change sentences. */
function stepTypes(withChanges: boolean): [string, ItfType][] {
  return [
    ['step', T.int],
    ['event', T.str],
    ['actor', T.str],
    ['regions', regionsType],
    ...(withChanges ? [['changes', T.seq(T.str)] as [string, ItfType]] : []),
  ];
}

/** The step variables of `trace`'s states: the initial state, then one state per step. */
function stepStates(trace: Trace, withChanges: boolean): ItfState[] {
  const initial: ItfState = {
    '#meta': { index: 0 },
    step: itfInt(0),
    event: 'init',
    actor: 'init',
    regions: itfRegions(initialRegions(trace)),
    ...(withChanges ? { changes: [] } : {}),
  };
  return [
    initial,
    ...trace.steps.map(
      (s, i): ItfState => ({
        '#meta': { index: i + 1 },
        step: itfInt(s.step),
        event: `${s.event} ${s.rid}`,
        actor: s.actor,
        regions: itfRegions(s.regions),
        ...(withChanges ? { changes: s.changes.map(changeText) } : {}),
      }),
    ),
  ];
}

/** The trace's variables and their types, and its states with every variable. */
function itfBody(
  trace: Trace,
  options: ItfOptions,
): { types: [string, ItfType][]; states: ItfState[] } {
  const withChanges = options.changes ?? true;
  const states = stepStates(trace, withChanges);
  const contexts = options.states;
  if (contexts === undefined) return { types: stepTypes(withChanges), states };
  const sample = contexts[0];
  if (sample === undefined || contexts.length !== states.length) {
    throw new RangeError(
      `${contexts.length} contexts for a trace of ${states.length} states (steps + 1)`,
    );
  }
  const model = itfModelVariables(sample);
  return {
    types: [
      ...stepTypes(withChanges),
      ...model.names.map((n) => [n, model.types[n] as ItfType] as [string, ItfType]),
    ],
    states: states.map((s, i) => ({ ...s, ...model.values(contexts[i] as DecodedContext) })),
  };
}

/** The trace's `#meta`: the format, kvcheck's source, what was violated where, the types. */
function itfHeader(
  trace: Trace,
  meta: TraceMeta,
  source: string,
  types: readonly [string, ItfType][],
): ItfTrace['#meta'] {
  return {
    format: 'ITF',
    'format-description': itfFormatDescription,
    source,
    description: `${meta.property} violated in ${meta.scenario} × ${meta.variant}: ${trace.message}`,
    scenario: meta.scenario,
    variant: meta.variant,
    property: meta.property,
    statement: meta.statement,
    violation: trace.message,
    varTypes: Object.fromEntries(types.map(([name, t]) => [name, itfTypeText(t)])),
  };
}

/**
 * The ITF trace of `trace` as data: `states[0]` is the initial state (every region of every
 * request in its initial state), then one state per step, so `states.length` is
 * `trace.steps.length + 1` and `states[i]['#meta'].index === i`. Every state holds exactly the
 * variables of `vars`, and `#meta.varTypes` types each of them. With `options.states`, the
 * model's state variables follow the step variables; throws a RangeError when their number is
 * not `steps + 1`. Deterministic.
 */
export function itfTrace(trace: Trace, meta: TraceMeta, options: ItfOptions = {}): ItfTrace {
  const { types, states } = itfBody(trace, options);
  return {
    '#meta': itfHeader(trace, meta, options.source ?? 'kvcheck', types),
    vars: types.map(([name]) => name),
    states,
  };
}

/**
 * A lasso in ITF, as the ADR reads `loop`: `states[loop]` to the last state form the cycle, and
 * the run goes on from the last state back to `states[loop]`. The states are `itfTrace`'s (the
 * initial state, then one per step) without the last one, which is `states[loop]` again; the
 * step that closes the cycle is named in `#meta.loopEvent` (`DECODE_STEP b1`).
 */
export interface ItfLasso extends Omit<ItfTrace, '#meta'> {
  readonly '#meta': ItfTrace['#meta'] & { readonly loopEvent: string };
  readonly loop: number;
}

/**
 * The ITF lasso of `lasso` as data: `itfTrace(lasso, …)` less its last state, with
 * `loop: lasso.loop` and the closing step's event in `#meta.loopEvent`, so `states.length` is
 * `lasso.steps.length`. Throws a RangeError when `loop` is not a step index
 * (`0 <= loop < steps.length`).
 */
export function itfLasso(lasso: LassoTrace, meta: TraceMeta, options: ItfOptions = {}): ItfLasso {
  const { loop, steps } = lasso;
  if (!Number.isInteger(loop) || loop < 0 || loop >= steps.length) {
    throw new RangeError(`lasso loop ${loop} is not a step index of its ${steps.length} steps`);
  }
  const full = itfTrace(lasso, meta, options);
  const closing = full.states.at(-1)?.event ?? '';
  return {
    ...full,
    '#meta': { ...full['#meta'], loopEvent: closing },
    states: full.states.slice(0, -1),
    loop,
  };
}

/** `value` as ITF's JSON text: `safeJson` (2-space indent, HTML-safe) and a trailing newline. */
function itfText(value: ItfTrace | ItfLasso): string {
  return `${safeJson(value)}\n`;
}

/**
 * The ITF trace of `trace` as JSON text (2-space indent, trailing newline). `<`, `>` and `&` are
 * written as `\u` escapes, so the text embeds safely in HTML; `JSON.parse` returns `itfTrace(…)`.
 * Deterministic.
 */
export function toItf(trace: Trace, meta: TraceMeta, options: ItfOptions = {}): string {
  return itfText(itfTrace(trace, meta, options));
}

/**
 * The ITF lasso of `lasso` as JSON text, written as `toItf` writes a trace; `JSON.parse`
 * returns `itfLasso(…)`. Deterministic; throws as `itfLasso` does.
 */
export function toItfLasso(lasso: LassoTrace, meta: TraceMeta, options: ItfOptions = {}): string {
  return itfText(itfLasso(lasso, meta, options));
}

/**
 * The file name kvcheck gives one trace in ITF, counterexample or lasso alike:
 * `<scenario>.<variant>.<property>.itf.json` (the ADR's extension).
 */
export function itfFileName(meta: Pick<TraceMeta, 'scenario' | 'variant' | 'property'>): string {
  return `${meta.scenario}.${meta.variant}.${meta.property}.itf.json`;
}
