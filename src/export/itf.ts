/**
 * A counterexample in the Informal Trace Format (ITF) that Apalache and Quint read and write
 * (https://apalache-mc.org/docs/adr/015adr-trace.html): a `#meta` header, the variable names, and
 * one state per step after the initial one. Integers are `{ "#bigint": "…" }`, records are plain
 * objects, lists are arrays. `docs/trace-format.md` documents the variables.
 */
import type { RegionSnapshot, Trace } from '../checker/outcome.ts';
import { changeText } from './changeText.ts';
import { safeJson } from './escape.ts';
import type { TraceMeta } from './sequenceDiagram.ts';

/** Where ITF is specified; the `format-description` of every trace kvcheck writes. */
export const itfFormatDescription = 'https://apalache-mc.org/docs/adr/015adr-trace.html';

/** An ITF integer. */
export interface ItfBigint {
  readonly '#bigint': string;
}

/** One ITF state: the step number, the event and its actor, every region, and what changed. */
export interface ItfState {
  readonly '#meta': { readonly index: number };
  readonly step: ItfBigint;
  /** `EVENT rid` (`PREFILL_INTAKE b1`), or `init` for state 0. */
  readonly event: string;
  /** Who acted (`prefill scheduler`), or `init` for state 0. */
  readonly actor: string;
  /** Request id → region (`router`, `prefill`, `transfer`, `decode`) → state path. */
  readonly regions: RegionSnapshot;
  /** The step's change records told as sentences (`changeText`; absent with `changes: false`). */
  readonly changes?: readonly string[];
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
}

/** The region state every request starts in: `idle`, except the transfer room (`unopened`). */
export const initialRegionState: Readonly<Record<string, string>> = {
  router: 'idle',
  prefill: 'idle',
  transfer: 'unopened',
  decode: 'idle',
};

function bigint(n: number): ItfBigint {
  return { '#bigint': String(n) };
}

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

/**
 * The ITF trace of `trace` as data: `states[0]` is the initial state (every region of every
 * request in its initial state), then one state per step, so `states.length` is
 * `trace.steps.length + 1` and `states[i]['#meta'].index === i`.
 */
export function itfTrace(trace: Trace, meta: TraceMeta, options: ItfOptions = {}): ItfTrace {
  const withChanges = options.changes ?? true;
  const initial: ItfState = {
    '#meta': { index: 0 },
    step: bigint(0),
    event: 'init',
    actor: 'init',
    regions: initialRegions(trace),
    ...(withChanges ? { changes: [] } : {}),
  };
  const states = [
    initial,
    ...trace.steps.map(
      (s, i): ItfState => ({
        '#meta': { index: i + 1 },
        step: bigint(s.step),
        event: `${s.event} ${s.rid}`,
        actor: s.actor,
        regions: s.regions,
        ...(withChanges ? { changes: s.changes.map(changeText) } : {}),
      }),
    ),
  ];
  return {
    '#meta': {
      format: 'ITF',
      'format-description': itfFormatDescription,
      source: options.source ?? 'kvcheck',
      description: `${meta.property} violated in ${meta.scenario} × ${meta.variant}: ${trace.message}`,
      scenario: meta.scenario,
      variant: meta.variant,
      property: meta.property,
      statement: meta.statement,
      violation: trace.message,
    },
    vars: ['step', 'event', 'actor', 'regions', ...(withChanges ? ['changes'] : [])],
    states,
  };
}

/**
 * The ITF trace of `trace` as JSON text (2-space indent, trailing newline). `<`, `>` and `&` are
 * written as `\u` escapes, so the text embeds safely in HTML; `JSON.parse` returns `itfTrace(…)`.
 * Deterministic.
 */
export function toItf(trace: Trace, meta: TraceMeta, options: ItfOptions = {}): string {
  return `${safeJson(itfTrace(trace, meta, options))}\n`;
}
