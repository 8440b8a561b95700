/**
 * Vector contexts: a machine context `{ words: Int32Array, ...static fields }` whose `words` is
 * the whole state, every other field being static (the same object in every state of a run, not
 * part of the state's identity). Updates are written once against the vector, as in-place
 * mutations of `context.words`, and run two ways:
 * - under XState, `vectorAssign`'s assignment copies `words`, runs the update on the copy and
 *   returns `{ words: copy }`, so every snapshot keeps its own vector (immutable for XState);
 * - under the fast engine, the compiled action copies the context once per macrostep and runs
 *   every later in-place update of that macrostep on the same copy (see `behaviour.ts`).
 * The engine finds the update of an assignment through `inPlaceUpdateOf`. It fingerprints a
 * vector context by `hashWords` alone (see `stateStore.ts`).
 */
import {
  type ActionFunction,
  type AnyEventObject,
  assign,
  type EventObject,
  type MachineContext,
  type ParameterizedObject,
  type ProvidedActor,
} from 'xstate';
import type { WordDiffer } from './wordDiff.ts';

/** A context whose state is exactly its `words`; every other field is static across a run. */
export interface VectorContext {
  readonly words: Int32Array;
}

/** Whether `c` is an object whose `words` is an `Int32Array` (a `VectorContext`). */
export function isVectorContext(c: unknown): c is VectorContext {
  return (
    typeof c === 'object' && c !== null && (c as { words?: unknown }).words instanceof Int32Array
  );
}

/**
 * An in-place update: mutates `context.words` (and nothing else: not the static fields, not the
 * event, not the params) from the context, the event and the action's params. It must not keep
 * `args`, `context` or its `words` beyond the call (the engine reuses all three).
 */
export type InPlaceUpdate<C extends VectorContext, E extends EventObject, P> = (
  context: C,
  args: { readonly event: E },
  params: P,
) => void;

/** An in-place update with its types erased, as the engine calls it. */
export type AnyInPlaceUpdate = InPlaceUpdate<VectorContext, EventObject, unknown>;

const inPlace = new WeakMap<object, AnyInPlaceUpdate>();

/**
 * The in-place update that `vectorAssign` attached to `assignment` (an `assign` action's
 * assignment), or undefined for any other assignment.
 */
export function inPlaceUpdateOf(assignment: unknown): AnyInPlaceUpdate | undefined {
  return typeof assignment === 'function' ? inPlace.get(assignment) : undefined;
}

/**
 * An XState `assign` action running `update` on a copy of the context's words: when XState runs
 * it, the assignment copies `context.words` (`slice()`), calls `update({ ...context, words:
 * copy }, { event }, params)` and returns `{ words: copy }`, which XState merges into a new
 * context; the previous snapshot's words are never touched. The assignment function carries
 * `update` (`inPlaceUpdateOf`), so the fast engine runs it in place on a per-macrostep copy
 * instead, with the same result. Typed like `assign`: inside `setup({ actions })` its context,
 * event and params are inferred from the machine's types, or can be given explicitly.
 */
export function vectorAssign<
  TContext extends MachineContext & VectorContext,
  TExpressionEvent extends AnyEventObject,
  TParams extends ParameterizedObject['params'] | undefined = undefined,
  TEvent extends EventObject = TExpressionEvent,
  TActor extends ProvidedActor = never,
>(
  update: InPlaceUpdate<TContext, TExpressionEvent, TParams>,
): ActionFunction<TContext, TExpressionEvent, TEvent, TParams, TActor, never, never, never, never> {
  const assignment = (
    args: { readonly context: TContext; readonly event: TExpressionEvent },
    params: TParams,
  ): Partial<TContext> => {
    const copy = args.context.words.slice();
    update({ ...args.context, words: copy }, { event: args.event }, params);
    return { words: copy } as unknown as Partial<TContext>;
  };
  inPlace.set(assignment, update as unknown as AnyInPlaceUpdate);
  return assign<TContext, TExpressionEvent, TParams, TEvent, TActor>(assignment);
}

/**
 * Lane a's term for word `w` at position `i`: Murmur3's `fmix32` of the word xor a
 * position-dependent key. For a fixed position it is a bijection of the word.
 */
function termA(i: number, w: number): number {
  let h = w ^ Math.imul(i + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Lane b's term: the same shape with other constants (`fmix32`'s alternative constants). */
function termB(i: number, w: number): number {
  let h = w ^ Math.imul(i + 1, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  return h ^ (h >>> 15);
}

/**
 * Hashes `words` into two 32-bit halves, written to `out[0]` and `out[1]` (no allocation):
 * each half is the sum, modulo 2^32, of one term per word (`termA`, `termB`), a bijection of
 * the word at its position, as Zobrist hashing sums one random key per (position, value). A sum
 * can be updated from a parent's by the words that differ (`hashWordsFrom`), so a successor
 * costs a comparison per word and two terms per changed word. Two vectors that differ in one
 * word always differ in both halves; beyond that the 64 bits are taken as uniform, with the
 * birthday bound of `collisionProbability`.
 */
export function hashWords(words: Int32Array, out: Uint32Array): void {
  let a = 0;
  let b = 0;
  const n = words.length;
  for (let i = 0; i < n; i++) {
    const w = words[i] as number;
    a = (a + termA(i, w)) | 0;
    b = (b + termB(i, w)) | 0;
  }
  out[0] = a;
  out[1] = b;
}

/**
 * `hashWords(words, out)`, computed from the hash (`a`, `b`) of `parent`, a vector of the same
 * length: only the words that differ, which `diff` (a `WordDiffer` of that length) finds, are
 * hashed. Returns how many words differ; their indices are then `diff.changed[0 .. count)`.
 */
export function hashWordsFrom(
  parent: Int32Array,
  a0: number,
  b0: number,
  words: Int32Array,
  out: Uint32Array,
  diff: WordDiffer,
): number {
  let a = a0;
  let b = b0;
  const count = diff.diff(parent, words);
  const changed = diff.changed;
  for (let k = 0; k < count; k++) {
    const i = changed[k] as number;
    const w = words[i] as number;
    const p = parent[i] as number;
    a = (a + termA(i, w) - termA(i, p)) | 0;
    b = (b + termB(i, w) - termB(i, p)) | 0;
  }
  out[0] = a;
  out[1] = b;
  return count;
}
