import {
  allocatePages,
  canAllocate,
  capacityOf,
  createPool,
  freePages,
  type PagePool,
  slotOf,
  writePositions,
  writersOf,
} from '../../machines/kvPagePool.ts';

/** Allocates or fails the test: the tests below only allocate what fits. */
function allocate(pool: PagePool, rid: string, n: number): { pool: PagePool; pages: number[] } {
  const got = allocatePages(pool, rid, n);
  if (!got) throw new Error(`expected ${n} free page(s) for ${rid}, found ${pool.free.length}`);
  return got;
}

describe('createPool', () => {
  it('starts with every page free in ascending order, unowned and never written', () => {
    const pool = createPool(3, 2);
    expect(pool.free).toEqual([0, 1, 2]);
    expect(pool.owner).toEqual([null, null, null]);
    expect(pool.writer).toEqual([null, null, null, null, null, null]);
    expect(pool.strayWrites).toEqual([]);
    expect(capacityOf(pool)).toBe(3);
  });
});

describe('allocatePages', () => {
  it('takes pages from the head of the free list and records the owner', () => {
    const got = allocate(createPool(4, 1), 'a1', 2);
    expect(got.pages).toEqual([0, 1]);
    expect(got.pool.free).toEqual([2, 3]);
    expect(got.pool.owner).toEqual(['a1', 'a1', null, null]);
  });

  it('refuses an allocation larger than the free list and leaves the pool alone', () => {
    const pool = createPool(2, 1);
    expect(canAllocate(pool, 3)).toBe(false);
    expect(allocatePages(pool, 'a1', 3)).toBeNull();
    expect(pool.free).toEqual([0, 1]);
  });

  it('allows an allocation of exactly the free pages', () => {
    const pool = createPool(2, 1);
    expect(canAllocate(pool, 2)).toBe(true);
    expect(allocate(pool, 'a1', 2).pool.free).toEqual([]);
  });

  it('does not clear the last writers of the pages it hands out', () => {
    const a = allocate(createPool(2, 1), 'a1', 1);
    const written = writePositions(a.pool, 'a1', a.pages, 0, 1);
    const freed = freePages(written, a.pages);
    const b = allocate(freed, 'b1', 1);
    expect(b.pages).toEqual([0]);
    expect(b.pool.writer[0]).toBe('a1');
  });
});

describe('freePages', () => {
  it('prepends the freed pages in ascending order and clears their owner', () => {
    const a = allocate(createPool(5, 1), 'a1', 4);
    const freed = freePages(a.pool, [3, 1]);
    expect(freed.free).toEqual([1, 3, 4]);
    expect(freed.owner).toEqual(['a1', null, 'a1', null, null]);
  });

  it('hands the just-freed pages out first (LIFO reuse)', () => {
    const a = allocate(createPool(6, 1), 'a1', 2);
    const b = allocate(a.pool, 'b1', 2);
    const freed = freePages(b.pool, b.pages);
    const c = allocate(freed, 'c1', 2);
    expect(b.pages).toEqual([2, 3]);
    expect(c.pages).toEqual([2, 3]);
  });

  it('keeps the last writer of every slot of a freed page (no scrub)', () => {
    const a = allocate(createPool(2, 2), 'a1', 2);
    const written = writePositions(a.pool, 'a1', a.pages, 0, 3);
    const freed = freePages(written, a.pages);
    expect(freed.writer).toEqual(['a1', 'a1', 'a1', null]);
    expect(freed.owner).toEqual([null, null]);
  });

  it('returns the same pool when there is nothing to free', () => {
    const pool = createPool(2, 1);
    expect(freePages(pool, [])).toBe(pool);
  });

  it('puts a page on the free list twice when it is freed twice, as upstream does', () => {
    const a = allocate(createPool(3, 1), 'a1', 1);
    const once = freePages(a.pool, a.pages);
    const twice = freePages(once, a.pages);
    expect(twice.free).toEqual([0, 0, 1, 2]);
  });

  it('hands a double-freed page out twice in one allocation', () => {
    const a = allocate(createPool(3, 1), 'a1', 1);
    const twice = freePages(freePages(a.pool, a.pages), a.pages);
    expect(allocate(twice, 'b1', 2).pages).toEqual([0, 0]);
  });

  it('frees a page listed twice in one call only once', () => {
    const a = allocate(createPool(3, 1), 'a1', 2);
    expect(freePages(a.pool, [1, 1]).free).toEqual([1, 2]);
  });
});

describe('writePositions', () => {
  it('records the writer of each written slot', () => {
    const a = allocate(createPool(3, 2), 'a1', 2);
    const written = writePositions(a.pool, 'a1', a.pages, 1, 3);
    expect(written.writer).toEqual([null, 'a1', 'a1', null, null, null]);
    expect(written.strayWrites).toEqual([]);
  });

  it('performs a write into a page the writer does not own and records it as stray', () => {
    const a = allocate(createPool(2, 1), 'a1', 1);
    const freed = freePages(a.pool, a.pages);
    const late = writePositions(freed, 'a1', a.pages, 0, 1);
    expect(late.writer[0]).toBe('a1');
    expect(late.strayWrites).toEqual([{ page: 0, by: 'a1' }]);
  });

  it('records a stray write into a page another request holds', () => {
    const a = allocate(createPool(2, 1), 'a1', 1);
    const b = allocate(freePages(a.pool, a.pages), 'b1', 1);
    const late = writePositions(b.pool, 'a1', a.pages, 0, 1);
    expect(late.owner[0]).toBe('b1');
    expect(late.writer[0]).toBe('a1');
    expect(late.strayWrites).toEqual([{ page: 0, by: 'a1' }]);
  });

  it('records one stray write per page, however many of its slots were written', () => {
    const pool = createPool(2, 2);
    const late = writePositions(pool, 'a1', [1], 0, 2);
    expect(late.strayWrites).toEqual([{ page: 1, by: 'a1' }]);
  });

  it('skips positions beyond the row', () => {
    const a = allocate(createPool(2, 1), 'a1', 1);
    const written = writePositions(a.pool, 'a1', a.pages, 0, 3);
    expect(written.writer).toEqual(['a1', null]);
  });
});

describe('slotOf and writersOf with pageSize 2', () => {
  it('maps positions to page * 2 + offset along the row, and past the row to null', () => {
    const row = [5, 2];
    expect([0, 1, 2, 3, 4].map((pos) => slotOf(row, pos, 2))).toEqual([10, 11, 4, 5, null]);
  });

  it('lists the last writer of each position in order, with null for a slot never written', () => {
    const a = allocate(createPool(3, 2), 'a1', 1);
    const aWrote = writePositions(a.pool, 'a1', a.pages, 0, 2);
    const b = allocate(freePages(aWrote, a.pages), 'b1', 2);
    const bWrote = writePositions(b.pool, 'b1', b.pages, 0, 1);
    expect(b.pages).toEqual([0, 1]);
    expect(writersOf(bWrote, b.pages, 4)).toEqual([
      { page: 0, writer: 'b1' },
      { page: 0, writer: 'a1' },
      { page: 1, writer: null },
      { page: 1, writer: null },
    ]);
  });

  it('stops at the end of the row', () => {
    expect(writersOf(createPool(2, 2), [1], 4)).toEqual([
      { page: 1, writer: null },
      { page: 1, writer: null },
    ]);
  });
});
