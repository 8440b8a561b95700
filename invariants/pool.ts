/**
 * Page-pool properties: the allocator's own bookkeeping, which SGLang checks when idle
 * (`check_memory`) and which every isolation argument rests on.
 */
import type { PagePool } from '../machines/kvPagePool.ts';
import { cachedPages } from '../machines/prefixCache.ts';
import { property, type Trigger } from './property.ts';
import { heldPages, type ServingState } from './vocabulary.ts';

const nodes = ['prefill', 'decode'] as const;

function poolOf(s: ServingState, node: (typeof nodes)[number]): PagePool {
  return node === 'prefill' ? s.context.prefillPool : s.context.decodePool;
}

/** Pool properties can fail only once some page is held or cached. */
const somePageHeld: Trigger = {
  fires: (s) =>
    nodes.some((node) => heldPages(s, node).length > 0) || cachedPages(s.context).length > 0,
  vacuity: 'no page was ever held',
};

/** A page has one holder, and the pool's owner field agrees with the requests' rows. */
export const exclusivePageOwnership = property(
  'A page is held by at most one live request, and the pool records that request as its owner.',
  { guards: '#35049 (a page reallocated while a transfer still writes it)', trigger: somePageHeld },
  (s) => {
    for (const node of nodes) {
      const pool = poolOf(s, node);
      const seen = new Map<number, string>();
      for (const { page, rid } of heldPages(s, node)) {
        const other = seen.get(page);
        if (other !== undefined) return `${node} page ${page} is held by both ${other} and ${rid}`;
        seen.set(page, rid);
        if (pool.owner[page] !== rid) {
          return `${node} page ${page} is held by ${rid} but owned by ${pool.owner[page] ?? 'nobody'}`;
        }
      }
      const orphan = pool.owner.findIndex((o, page) => o !== null && seen.get(page) !== o);
      if (orphan >= 0)
        return `${node} page ${orphan} is owned by ${pool.owner[orphan]} but not in its row`;
    }
    return null;
  },
);

/** No page is freed twice or freed while still held. */
export const freedExactlyOnce = property(
  'Every page is on its free list at most once, and never while a request holds it.',
  {
    guards: '#30937 (a double release on an error during transfer)',
    trigger: {
      fires: (s) =>
        nodes.some((node) => {
          const pool = poolOf(s, node);
          return pool.free.some((page) =>
            pool.writer
              .slice(page * pool.pageSize, (page + 1) * pool.pageSize)
              .some((w) => w !== null),
          );
        }),
      vacuity: 'no written page was ever freed',
    },
  },
  (s) => {
    for (const node of nodes) {
      const pool = poolOf(s, node);
      const dup = pool.free.find((p, i) => pool.free.indexOf(p) !== i);
      if (dup !== undefined) return `${node} page ${dup} is on the free list twice`;
      const held = heldPages(s, node).find(({ page }) => pool.free.includes(page));
      if (held) return `${node} page ${held.page} is free while ${held.rid} still holds it`;
    }
    return null;
  },
);

/** KV lands only in pages the writing request holds. */
export const noWriteAfterFree = property(
  'KV is written only into pages that the writing request holds.',
  {
    guards: '#24527, #35049 (a late transfer write into a freed, reallocated page)',
    trigger: {
      fires: (s) =>
        Object.values(s.context.requests).some((r) => r.draining === true) ||
        nodes.some((node) => poolOf(s, node).strayWrites.length > 0),
      vacuity: 'no transfer write was in flight after its room was aborted',
    },
  },
  (s) => {
    for (const node of nodes) {
      const stray = poolOf(s, node).strayWrites[0];
      if (stray) return `${stray.by} wrote ${node} page ${stray.page} without holding it`;
    }
    return null;
  },
);

/** Free plus held (plus cached) equals capacity, on each node. */
export const poolAccounting = property(
  'On each node, free pages plus pages held by live requests (or by the prefix cache) equal the pool’s capacity.',
  {
    guards: 'SGLang’s own idle check (`check_memory`: available + evictable == size)',
    trigger: somePageHeld,
  },
  (s) => {
    for (const node of nodes) {
      const pool = poolOf(s, node);
      const held = heldPages(s, node).length;
      const capacity = pool.owner.length;
      // Pages of prefill's prefix cache count as held (by the cache), as SGLang's protected
      // and evictable sizes do; there are none unless a scenario names a prefix.
      const cached = node === 'prefill' ? cachedPages(s.context).length : 0;
      if (pool.free.length + held + cached !== capacity) {
        const inCache = cached > 0 ? ` cached=${cached}` : '';
        return `${node} pool: free=${pool.free.length} held=${held}${inCache} capacity=${capacity}`;
      }
    }
    return null;
  },
);
