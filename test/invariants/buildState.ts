/**
 * Hand-built `ServingState`s for the invariant tests: the initial context of a scenario plus
 * targeted edits, so each test states only what makes its property hold or fail. Edits are made
 * on the decoded (plain JSON) context, which is then encoded into the state vector.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';
import { initialContext, type RequestState } from '../../machines/context.ts';
import { decodeContext, encodeContext } from '../../machines/contextCodec.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import { layoutOf } from '../../machines/layout.ts';
import type { RequestId, Scenario } from '../../machines/scenario.ts';
import { incident } from '../../scenarios/index.ts';

/** A request's four region values, as the machine's snapshot shows them. */
export interface Regions {
  readonly router: unknown;
  readonly prefill: unknown;
  readonly transfer: unknown;
  readonly decode: unknown;
}

/** Where every request starts. */
export const idleRegions: Regions = {
  router: 'idle',
  prefill: 'idle',
  transfer: 'unopened',
  decode: 'idle',
};

/** Every region of a request that has finished on both sides and been answered. */
export const settledRegions: Regions = {
  router: 'replied',
  prefill: { done: 'finished' },
  transfer: 'success',
  decode: { done: 'finished' },
};

/** Edits on top of a scenario's initial state; anything left out keeps its initial value. */
export interface StateEdits {
  readonly regions?: Readonly<Record<RequestId, Partial<Regions>>>;
  readonly requests?: Readonly<Record<RequestId, Partial<RequestState>>>;
  readonly prefillPool?: (pool: PagePool) => PagePool;
  readonly decodePool?: (pool: PagePool) => PagePool;
}

/**
 * The initial state of `scenario` with `edits` applied. The default scenario is `incident`:
 * a1 of tenant A and b1 of tenant B, page size 1, prefill pool 8 pages, decode pool 10.
 */
export function buildState(edits: StateEdits = {}, scenario: Scenario = incident): ServingState {
  const ctx = decodeContext(initialContext(scenario));
  const value: Record<RequestId, Record<string, unknown>> = {};
  const requests: Record<RequestId, RequestState> = {};
  for (const [rid, r] of Object.entries(ctx.requests)) {
    value[rid] = { ...idleRegions, ...edits.regions?.[rid] };
    requests[rid] = { ...r, ...edits.requests?.[rid] };
  }
  return {
    value,
    context: encodeContext(layoutOf(scenario), {
      ...ctx,
      requests,
      prefillPool: edits.prefillPool ? edits.prefillPool(ctx.prefillPool) : ctx.prefillPool,
      decodePool: edits.decodePool ? edits.decodePool(ctx.decodePool) : ctx.decodePool,
    }),
  };
}

/** `pool` with `pages` owned by `rid` and taken off the free list. */
export function holding(rid: RequestId, pages: readonly number[]) {
  return (pool: PagePool): PagePool => ({
    ...pool,
    free: pool.free.filter((p) => !pages.includes(p)),
    owner: pool.owner.map((o, p) => (pages.includes(p) ? rid : o)),
  });
}

/** `pool` with each listed slot's last writer set. */
export function writtenBy(slots: Readonly<Record<number, RequestId>>) {
  return (pool: PagePool): PagePool => ({
    ...pool,
    writer: pool.writer.map((w, slot) => slots[slot] ?? w),
  });
}

/** Applies pool edits left to right. */
export function compose(...edits: ((pool: PagePool) => PagePool)[]) {
  return (pool: PagePool): PagePool => edits.reduce((p, edit) => edit(p), pool);
}

/** Expectations every property shares: one sentence, a guards note, and its kind. */
export function expectWellDescribed(
  p: { readonly statement: string; readonly guards: string; readonly kind: string },
  kind: 'state' | 'terminal',
): void {
  expectOneSentence(p.statement);
  expect(p.guards.trim()).not.toBe('');
  expect(p.kind).toBe(kind);
}

/** A non-empty single sentence: a capital first, a period last, no sentence break inside. */
export function expectOneSentence(statement: string): void {
  expect(statement).toMatch(/^[A-Z].*\.$/);
  expect(statement).not.toMatch(/[.!?]\s+[A-Z]/);
}
