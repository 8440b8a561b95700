import {
  exclusivePageOwnership,
  freedExactlyOnce,
  noReadAfterFree,
  noWriteAfterFree,
  poolAccounting,
} from '../../invariants/pool.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import { buildState, compose, expectWellDescribed, holding } from './buildState.ts';

/** a1 holding decode page 0 and b1 holding decode pages 1 and 2, consistently. */
const consistent = () =>
  buildState({
    requests: { a1: { decodePages: [0] }, b1: { decodePages: [1, 2] } },
    decodePool: compose(holding('a1', [0]), holding('b1', [1, 2])),
  });

describe.each([
  ['exclusivePageOwnership', exclusivePageOwnership],
  ['freedExactlyOnce', freedExactlyOnce],
  ['noWriteAfterFree', noWriteAfterFree],
  ['poolAccounting', poolAccounting],
])('%s', (_name, p) => {
  it('is a state property with a one-sentence statement and what it guards', () => {
    expectWellDescribed(p, 'state');
  });

  it('holds in the initial state and while requests hold their own pages', () => {
    expect(p(buildState())).toBe(true);
    expect(p(consistent())).toBe(true);
    expect(p.explain(consistent())).toBeNull();
  });
});

describe('exclusivePageOwnership', () => {
  it('is violated when two requests hold the same page', () => {
    const s = buildState({
      requests: { a1: { decodePages: [0] }, b1: { decodePages: [0] } },
      decodePool: holding('a1', [0]),
    });
    expect(exclusivePageOwnership(s)).toBe(false);
    expect(exclusivePageOwnership.explain(s)).toBe('decode page 0 is held by both a1 and b1');
  });

  it('is violated when a held page is owned by someone else in the pool', () => {
    const s = buildState({
      requests: { b1: { prefillPages: [3] } },
      prefillPool: holding('a1', [3]),
    });
    expect(exclusivePageOwnership.explain(s)).toBe('prefill page 3 is held by b1 but owned by a1');
  });

  it('is violated when a held page has no owner in the pool', () => {
    const s = buildState({ requests: { b1: { prefillPages: [3] } } });
    expect(exclusivePageOwnership.explain(s)).toBe(
      'prefill page 3 is held by b1 but owned by nobody',
    );
  });

  it('is violated when the pool names an owner whose row does not hold the page', () => {
    const s = buildState({ decodePool: holding('a1', [4]) });
    expect(exclusivePageOwnership.explain(s)).toBe(
      'decode page 4 is owned by a1 but not in its row',
    );
  });
});

describe('freedExactlyOnce', () => {
  it('is violated when a page is on the free list twice', () => {
    const s = buildState({ decodePool: (pool) => ({ ...pool, free: [2, ...pool.free] }) });
    expect(freedExactlyOnce(s)).toBe(false);
    expect(freedExactlyOnce.explain(s)).toBe('decode page 2 is on the free list twice');
  });

  it('is violated when a page is free while a request still holds it', () => {
    const s = buildState({
      requests: { a1: { prefillPages: [0] } },
      prefillPool: (pool) => ({ ...pool, owner: pool.owner.map((o, p) => (p === 0 ? 'a1' : o)) }),
    });
    expect(freedExactlyOnce.explain(s)).toBe('prefill page 0 is free while a1 still holds it');
  });
});

describe('noWriteAfterFree', () => {
  it('is violated by a recorded stray write, naming the writer and the page', () => {
    const stray = (pool: PagePool): PagePool => ({ ...pool, strayWrites: [{ page: 2, by: 'a1' }] });
    const s = buildState({ decodePool: stray });
    expect(noWriteAfterFree(s)).toBe(false);
    expect(noWriteAfterFree.explain(s)).toBe('a1 wrote decode page 2 without holding it');
  });
});

describe('noReadAfterFree', () => {
  it('holds while no read touched a page its reader did not hold', () => {
    expect(noReadAfterFree(consistent())).toBe(true);
  });

  it('is violated by a recorded read of a freed page, naming the reader, the node and the page', () => {
    const s = buildState({
      requests: { a1: { kvArrived: 1, readAfterFree: { prefill: 3, decode: null } } },
    });
    expect(noReadAfterFree(s)).toBe(false);
    expect(noReadAfterFree.explain(s)).toBe(
      'a1 (tenant A): its KV was read from prefill page 3, which it no longer held',
    );
  });
});

describe('poolAccounting', () => {
  it('is violated when a held page is still counted as free', () => {
    const s = buildState({ requests: { a1: { decodePages: [0] } } });
    expect(poolAccounting(s)).toBe(false);
    expect(poolAccounting.explain(s)).toBe('decode pool: free=10 held=1 capacity=10');
  });

  it('is violated when a page is neither free nor held (a leak)', () => {
    const s = buildState({ prefillPool: holding('a1', [5]) });
    expect(poolAccounting.explain(s)).toBe('prefill pool: free=7 held=0 capacity=8');
  });
});
