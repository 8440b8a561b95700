/**
 * The engine's initial state, taken from XState itself (`initialTransition`), so that context
 * factories, input, initial entry actions and the initial macrostep are XState's own. Also the
 * check that the initial context is plain JSON, since state identity is its JSON text, unless it
 * is a vector context, whose identity is its words alone (`vectorContext.ts`).
 */
import { type AnyStateMachine, initialTransition } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import type { EngineState, ViewCache } from './configView.ts';
import { isVectorContext } from './vectorContext.ts';
import { snapshotParts, UnsupportedFeatureError } from './xstateInternals.ts';

function plainJsonProblem(v: unknown, path: string): string | null {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean') {
    return null;
  }
  if (typeof v === 'number') return Number.isFinite(v) ? null : `non-finite number at ${path}`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = plainJsonProblem(v[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      return `non-plain object (${(v as object).constructor?.name ?? 'unknown'}) at ${path}`;
    }
    for (const [k, inner] of Object.entries(v)) {
      const p = plainJsonProblem(inner, `${path}.${k}`);
      if (p) return p;
    }
    return null;
  }
  return `${typeof v} value at ${path}`;
}

/**
 * The initial state of `machine` under `input`, as XState computes it. Throws
 * `UnsupportedFeatureError` when its context is neither plain JSON nor a vector context.
 */
export function initialState(
  machine: AnyStateMachine,
  compiled: CompiledMachine,
  views: ViewCache,
  input: unknown,
): EngineState {
  const [snapshot] = initialTransition(machine, input);
  const parts = snapshotParts(snapshot);
  if (parts.status === 'error') throw parts.error;
  const problem = isVectorContext(parts.context)
    ? null
    : plainJsonProblem(parts.context, 'context');
  if (problem) throw new UnsupportedFeatureError(problem, `#${compiled.spec.id}`);
  const flags = new Uint8Array(compiled.size);
  for (const n of parts.orders) flags[n] = 1;
  return { view: views.of(flags, parts.status === 'done'), context: parts.context };
}
