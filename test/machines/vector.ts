/**
 * Test helpers for the serving context as a state vector (`machines/layout.ts`): updates run
 * in place, so a test copies the words once and applies its updates to the copy; assertions
 * read the decoded context (`machines/contextCodec.ts`), which has the old plain-JSON shape.
 */
import type { DecodedContext, RequestState, ServingContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';

/** An update of `servingUpdates.ts`, bound to its arguments: it writes `c.words` in place. */
export type Update = (c: ServingContext) => void;

/** A copy of `c` with its own words (the layout is shared: it is static). */
export function copyContext(c: ServingContext): ServingContext {
  return { layout: c.layout, words: c.words.slice() };
}

/** A copy of `c` with `updates` applied to it left to right; `c` itself is left alone. */
export function applyUpdates(c: ServingContext, ...updates: readonly Update[]): ServingContext {
  const next = copyContext(c);
  for (const update of updates) update(next);
  return next;
}

/** The context decoded into plain JSON. */
export function decoded(c: ServingContext): DecodedContext {
  return decodeContext(c);
}

/** The decoded record of request `rid`; throws if the context has none. */
export function req(c: ServingContext, rid: string): RequestState {
  const r = decodeContext(c).requests[rid];
  if (!r) throw new Error(`no request ${rid} in context`);
  return r;
}

/** The words of `c` as a plain array, to compare two states' words with `toEqual`. */
export function wordsOf(c: ServingContext): number[] {
  return Array.from(c.words);
}
