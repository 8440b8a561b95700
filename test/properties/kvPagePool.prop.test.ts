/**
 * Random allocate / free / write sequences on one pool, checked against a reference model that
 * only counts pages and remembers who holds which: free + held = capacity, no page held twice,
 * the pages of the latest free are handed out before any other, freeing and allocating never
 * touch last writers, and a write outside the writer's own pages is recorded as stray. The
 * pages freed together are put in order as a set sorted by number would be.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { ascendingDistinct, freePages } from '../../machines/kvPagePool.ts';
import {
  clearRow,
  type PoolHarness,
  poolHarness,
  poolOf,
  tryAllocate,
  write as writeRow,
} from '../machines/poolHarness.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed();

const rids = ['r0', 'r1', 'r2'] as const;
type Rid = (typeof rids)[number];

type Op =
  | { readonly kind: 'alloc'; readonly rid: Rid; readonly n: number }
  | { readonly kind: 'free'; readonly rid: Rid }
  | { readonly kind: 'write'; readonly rid: Rid; readonly from: number; readonly len: number };

const ridArb = fc.constantFrom(...rids);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('alloc'), rid: ridArb, n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('free'), rid: ridArb }),
  fc.record({
    kind: fc.constant('write'),
    rid: ridArb,
    from: fc.nat({ max: 6 }),
    len: fc.integer({ min: 1, max: 4 }),
  }),
);

/** What the reference model knows: counts and who holds what, never the free list's order. */
interface Model {
  readonly capacity: number;
  freeCount: number;
  /** Pages each request holds, in the order it received them. */
  readonly rows: Map<Rid, number[]>;
  /** The row a request held before it last freed, for writes after free. */
  readonly stale: Map<Rid, number[]>;
  /** Pages of the latest free not yet handed out again: the next allocation must take these. */
  justFreed: number[];
}

function holderOf(model: Model, page: number): Rid | null {
  for (const [rid, row] of model.rows) if (row.includes(page)) return rid;
  return null;
}

function allocate(h: PoolHarness, model: Model, rid: Rid, n: number): void {
  const before = poolOf(h);
  const words = Array.from(h.words);
  const got = tryAllocate(h, rid, n);
  if (model.freeCount < n) {
    expect(got).toBeNull();
    expect(Array.from(h.words)).toEqual(words);
    return;
  }
  if (!got) throw new Error(`allocation of ${n} refused with ${model.freeCount} free`);
  expect(got).toHaveLength(n);
  expect(new Set(got).size).toBe(n);
  for (const page of got) expect(holderOf(model, page)).toBeNull();
  const reused = Math.min(n, model.justFreed.length);
  for (const page of got.slice(0, reused)) expect(model.justFreed).toContain(page);
  expect(poolOf(h).writer).toEqual(before.writer);
  model.freeCount -= n;
  model.rows.set(rid, [...(model.rows.get(rid) ?? []), ...got]);
  model.justFreed = model.justFreed.filter((p) => !got.includes(p));
}

function free(h: PoolHarness, model: Model, rid: Rid): void {
  const row = model.rows.get(rid) ?? [];
  const before = poolOf(h);
  freePages(h.words, h.pool, row);
  clearRow(h, rid);
  expect(poolOf(h).writer).toEqual(before.writer);
  model.freeCount += row.length;
  model.rows.delete(rid);
  if (row.length > 0) {
    model.stale.set(rid, row);
    model.justFreed = [...row];
  }
}

function write(h: PoolHarness, model: Model, op: Extract<Op, { kind: 'write' }>): void {
  const row = model.rows.get(op.rid) ?? model.stale.get(op.rid) ?? [];
  const before = poolOf(h);
  writeRow(h, op.rid, row, op.from, op.from + op.len);
  const next = poolOf(h);
  const expectedWriter = [...before.writer];
  const strayPages = new Set<number>();
  for (let pos = op.from; pos < op.from + op.len; pos++) {
    const page = row[Math.floor(pos / h.pageSize)];
    if (page === undefined) continue;
    expectedWriter[page * h.pageSize + (pos % h.pageSize)] = op.rid;
    if (holderOf(model, page) !== op.rid) strayPages.add(page);
  }
  expect(next.writer).toEqual(expectedWriter);
  const added = next.strayWrites.slice(before.strayWrites.length);
  expect(added.every((s) => s.by === op.rid)).toBe(true);
  expect(added.map((s) => s.page).sort((a, b) => a - b)).toEqual(
    [...strayPages].sort((a, b) => a - b),
  );
}

/** The checks that hold after every operation. */
function expectConsistent(h: PoolHarness, model: Model): void {
  const pool = poolOf(h);
  const held = [...model.rows.values()].flat();
  expect(pool.free).toHaveLength(model.freeCount);
  expect(model.freeCount + held.length).toBe(model.capacity);
  expect(new Set(held).size).toBe(held.length);
  expect(new Set(pool.free).size).toBe(pool.free.length);
  for (let page = 0; page < model.capacity; page++) {
    expect(pool.owner[page]).toBe(holderOf(model, page));
    expect(pool.free.includes(page)).toBe(holderOf(model, page) === null);
  }
}

describe(`kvPagePool (seed: ${seed})`, () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(opArb, { maxLength: 30 }),
    ],
    { seed, numRuns: 200 },
  )(
    'keeps page accounting, exclusive ownership, LIFO reuse and provenance',
    (capacity, pageSize, ops) => {
      // Room for every stray write the ops can record: 30 writes of up to 4 pages each.
      const h = poolHarness(capacity, pageSize, { rids, strayCap: 30 * 4 });
      const model: Model = {
        capacity,
        freeCount: capacity,
        rows: new Map(),
        stale: new Map(),
        justFreed: [],
      };
      expectConsistent(h, model);
      for (const op of ops) {
        if (op.kind === 'alloc') allocate(h, model, op.rid, op.n);
        else if (op.kind === 'free') free(h, model, op.rid);
        else write(h, model, op);
        expectConsistent(h, model);
      }
    },
  );

  test.prop([fc.array(fc.integer({ min: -3, max: 12 }), { maxLength: 12 })], {
    seed,
    numRuns: 300,
  })('orders the pages freed together as a sorted set of them', (pages) => {
    const copy = [...pages];
    expect(ascendingDistinct(pages)).toEqual([...new Set(pages)].sort((a, b) => a - b));
    expect(pages).toEqual(copy);
  });
});
