/**
 * State identity for traversal: the state value plus the context's dynamic parts, as JSON.
 * The context is built in a fixed key order and holds no Set or Map, so equal states give equal
 * keys; the static tenant table is left out.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';

/** The key of a plain serving state. */
export function stateKey(s: ServingState): string {
  const c = s.context;
  return JSON.stringify([s.value, c.prefillPool, c.decodePool, c.requests]);
}
