/**
 * Results as the CLI writes them in JSON (`check --json`, `simulate --json`, `--out-trace`): the
 * Outcome as it is, except that every change record of every trace step also carries its
 * sentence as `text` (`changeText`), so a reader of the JSON needs no renderer of its own.
 * `docs/trace-format.md` documents the shape.
 */
import type {
  PropertyResult,
  ScenarioResult,
  Trace,
  TraceChange,
  TraceStep,
} from '../checker/outcome.ts';
import { changeText } from './changeText.ts';

/** A change record with its sentence. */
export type TextedChange = TraceChange & { readonly text: string };

/** A trace step whose change records carry their sentences. */
export interface TraceStepJson extends Omit<TraceStep, 'changes'> {
  readonly changes: readonly TextedChange[];
}

/** A trace whose steps' change records carry their sentences. */
export interface TraceJson extends Omit<Trace, 'steps'> {
  readonly steps: readonly TraceStepJson[];
}

/** A property result whose trace, if any, carries the sentences. */
export interface PropertyResultJson extends Omit<PropertyResult, 'trace'> {
  readonly trace?: TraceJson;
}

/** `result` (a `ScenarioResult` or an extension of one) with the sentences in its traces. */
export type ResultJson<R extends ScenarioResult> = Omit<R, 'properties'> & {
  readonly properties: readonly PropertyResultJson[];
};

/** `c` with its sentence as `text`. */
function textedChange(c: TraceChange): TextedChange {
  return { ...c, text: changeText(c) };
}

/** `trace` with every change record carrying its sentence; nothing else differs. */
export function traceJson(trace: Trace): TraceJson {
  return {
    ...trace,
    steps: trace.steps.map((s) => ({ ...s, changes: s.changes.map(textedChange) })),
  };
}

function propertyJson(p: PropertyResult): PropertyResultJson {
  const { trace, ...rest } = p;
  return trace === undefined ? rest : { ...rest, trace: traceJson(trace) };
}

/** `result` with every trace's change records carrying their sentences; nothing else differs. */
export function resultJson<R extends ScenarioResult>(result: R): ResultJson<R> {
  return { ...result, properties: result.properties.map(propertyJson) };
}
