import {
  allocatePages,
  canAllocate,
  freeCount,
  freePages,
  slotOf,
} from '../../machines/kvPagePool.ts';
import {
  allocate,
  clearRow,
  codeOf,
  poolHarness,
  poolOf,
  rowPages,
  rowSlot,
  write,
  writersOf,
} from './poolHarness.ts';

describe('initPool', () => {
  it('starts with every page free in ascending order, unowned and never written', () => {
    const h = poolHarness(3, 2);
    const pool = poolOf(h);
    expect(pool.free).toEqual([0, 1, 2]);
    expect(pool.owner).toEqual([null, null, null]);
    expect(pool.writer).toEqual([null, null, null, null, null, null]);
    expect(pool.strayWrites).toEqual([]);
    expect(h.pool.pages).toBe(3);
    expect(freeCount(h.words, h.pool)).toBe(3);
  });
});

describe('allocatePages', () => {
  it('takes pages from the head of the free list and records the owner', () => {
    const h = poolHarness(4, 1);
    expect(allocate(h, 'a1', 2)).toEqual([0, 1]);
    expect(rowPages(h, 'a1')).toEqual([0, 1]);
    expect(poolOf(h).free).toEqual([2, 3]);
    expect(poolOf(h).owner).toEqual(['a1', 'a1', null, null]);
  });

  it('refuses an allocation larger than the free list and leaves the pool alone', () => {
    const h = poolHarness(2, 1);
    const before = Array.from(h.words);
    expect(canAllocate(h.words, h.pool, 3)).toBe(false);
    expect(allocatePages(h.words, h.pool, codeOf(h, 'a1'), 3, 0, rowSlot(h, 'a1'))).toBe(false);
    expect(Array.from(h.words)).toEqual(before);
    expect(poolOf(h).free).toEqual([0, 1]);
  });

  it('allows an allocation of exactly the free pages', () => {
    const h = poolHarness(2, 1);
    expect(canAllocate(h.words, h.pool, 2)).toBe(true);
    allocate(h, 'a1', 2);
    expect(poolOf(h).free).toEqual([]);
  });

  it('does not clear the last writers of the pages it hands out', () => {
    const h = poolHarness(2, 1);
    const a = allocate(h, 'a1', 1);
    write(h, 'a1', a, 0, 1);
    freePages(h.words, h.pool, a);
    clearRow(h, 'a1');
    expect(allocate(h, 'b1', 1)).toEqual([0]);
    expect(poolOf(h).writer[0]).toBe('a1');
  });
});

describe('freePages', () => {
  it('prepends the freed pages in ascending order and clears their owner', () => {
    const h = poolHarness(5, 1);
    allocate(h, 'a1', 4);
    freePages(h.words, h.pool, [3, 1]);
    expect(poolOf(h).free).toEqual([1, 3, 4]);
    expect(poolOf(h).owner).toEqual(['a1', null, 'a1', null, null]);
  });

  it('hands the just-freed pages out first (LIFO reuse)', () => {
    const h = poolHarness(6, 1);
    allocate(h, 'a1', 2);
    const b = allocate(h, 'b1', 2);
    freePages(h.words, h.pool, b);
    clearRow(h, 'b1');
    const c = allocate(h, 'c1', 2);
    expect(b).toEqual([2, 3]);
    expect(c).toEqual([2, 3]);
  });

  it('keeps the last writer of every slot of a freed page (no scrub)', () => {
    const h = poolHarness(2, 2);
    const a = allocate(h, 'a1', 2);
    write(h, 'a1', a, 0, 3);
    freePages(h.words, h.pool, a);
    expect(poolOf(h).writer).toEqual(['a1', 'a1', 'a1', null]);
    expect(poolOf(h).owner).toEqual([null, null]);
  });

  it('leaves the words unchanged when there is nothing to free', () => {
    const h = poolHarness(2, 1);
    const before = Array.from(h.words);
    freePages(h.words, h.pool, []);
    expect(Array.from(h.words)).toEqual(before);
  });

  it('puts a page on the free list twice when it is freed twice, as upstream does', () => {
    const h = poolHarness(3, 1);
    const a = allocate(h, 'a1', 1);
    freePages(h.words, h.pool, a);
    freePages(h.words, h.pool, a);
    expect(poolOf(h).free).toEqual([0, 0, 1, 2]);
  });

  it('hands a double-freed page out twice in one allocation', () => {
    const h = poolHarness(3, 1);
    const a = allocate(h, 'a1', 1);
    freePages(h.words, h.pool, a);
    freePages(h.words, h.pool, a);
    expect(allocate(h, 'b1', 2)).toEqual([0, 0]);
  });

  it('frees a page listed twice in one call only once', () => {
    const h = poolHarness(3, 1);
    allocate(h, 'a1', 2);
    freePages(h.words, h.pool, [1, 1]);
    expect(poolOf(h).free).toEqual([1, 2]);
  });
});

describe('writePositions', () => {
  it('records the writer of each written slot', () => {
    const h = poolHarness(3, 2);
    const a = allocate(h, 'a1', 2);
    write(h, 'a1', a, 1, 3);
    expect(poolOf(h).writer).toEqual([null, 'a1', 'a1', null, null, null]);
    expect(poolOf(h).strayWrites).toEqual([]);
  });

  it('performs a write into a page the writer does not own and records it as stray', () => {
    const h = poolHarness(2, 1);
    const a = allocate(h, 'a1', 1);
    freePages(h.words, h.pool, a);
    write(h, 'a1', a, 0, 1);
    expect(poolOf(h).writer[0]).toBe('a1');
    expect(poolOf(h).strayWrites).toEqual([{ page: 0, by: 'a1' }]);
  });

  it('records a stray write into a page another request holds', () => {
    const h = poolHarness(2, 1);
    const a = allocate(h, 'a1', 1);
    freePages(h.words, h.pool, a);
    allocate(h, 'b1', 1);
    write(h, 'a1', a, 0, 1);
    expect(poolOf(h).owner[0]).toBe('b1');
    expect(poolOf(h).writer[0]).toBe('a1');
    expect(poolOf(h).strayWrites).toEqual([{ page: 0, by: 'a1' }]);
  });

  it('records one stray write per page, however many of its slots were written', () => {
    const h = poolHarness(2, 2);
    write(h, 'a1', [1], 0, 2);
    expect(poolOf(h).strayWrites).toEqual([{ page: 1, by: 'a1' }]);
  });

  it('skips positions beyond the row', () => {
    const h = poolHarness(2, 1);
    const a = allocate(h, 'a1', 1);
    write(h, 'a1', a, 0, 3);
    expect(poolOf(h).writer).toEqual(['a1', null]);
  });
});

describe('slotOf and forEachWriter with pageSize 2', () => {
  it('maps positions to page * 2 + offset along the row, and past the row to -1', () => {
    const row = [5, 2];
    expect([0, 1, 2, 3, 4].map((pos) => slotOf(row, pos, 2))).toEqual([10, 11, 4, 5, -1]);
  });

  it('lists the last writer of each position in order, with null for a slot never written', () => {
    const h = poolHarness(3, 2);
    const a = allocate(h, 'a1', 1);
    write(h, 'a1', a, 0, 2);
    freePages(h.words, h.pool, a);
    const b = allocate(h, 'b1', 2);
    write(h, 'b1', b, 0, 1);
    expect(b).toEqual([0, 1]);
    expect(writersOf(h, b, 4)).toEqual([
      { page: 0, writer: 'b1' },
      { page: 0, writer: 'a1' },
      { page: 1, writer: null },
      { page: 1, writer: null },
    ]);
  });

  it('stops at the end of the row', () => {
    expect(writersOf(poolHarness(2, 2), [1], 4)).toEqual([
      { page: 1, writer: null },
      { page: 1, writer: null },
    ]);
  });
});
