/**
 * The lifecycle of one KV page, the specification the pool data in `kvPagePool.ts` follows:
 * a free page is allocated to one request, written by it (or, by a stray transfer write, by
 * another), and freed. Freeing does not scrub: the last writer survives into the next
 * allocation, which is what makes a read of a reused page a cross-tenant read.
 *
 * The composed system keeps pages as data (one record per page in each pool) rather than as one
 * region per page, so that allocation can take the head of the free list in one step; the tests
 * check that every page's history in an exhaustive run is a run of this machine.
 */
import { assign, setup } from 'xstate';
import type { RequestId } from './scenario.ts';

/** A page's owner and last writer. */
export interface PageContext {
  readonly owner: RequestId | null;
  readonly lastWriter: RequestId | null;
}

/** Operations on one page. */
export type PageEvent =
  /** allocator → page: handed to a request */
  | { readonly type: 'ALLOCATE'; readonly rid: RequestId }
  /** request or transfer → page: KV written into a slot */
  | { readonly type: 'WRITE'; readonly rid: RequestId }
  /** allocator → page: returned to the free list, contents kept */
  | { readonly type: 'FREE' };

/** One KV page: `free` ⇄ `held`; writes relabel the last writer; FREE keeps it. */
export const pageMachine = setup({
  types: { context: {} as PageContext, events: {} as PageEvent },
  guards: {
    writerHoldsPage: ({ context, event }) => event.type === 'WRITE' && context.owner === event.rid,
  },
  actions: {
    takeOwner: assign({ owner: ({ event }) => (event.type === 'ALLOCATE' ? event.rid : null) }),
    recordWriter: assign({
      lastWriter: ({ context, event }) => (event.type === 'WRITE' ? event.rid : context.lastWriter),
    }),
    dropOwner: assign({ owner: null }),
  },
}).createMachine({
  id: 'page',
  initial: 'free',
  context: { owner: null, lastWriter: null },
  states: {
    free: {
      on: {
        ALLOCATE: { target: 'held', actions: 'takeOwner' },
        WRITE: { target: 'writtenAfterFree', actions: 'recordWriter' },
      },
    },
    held: {
      tags: ['holdsPages'],
      on: {
        WRITE: [
          { guard: 'writerHoldsPage', actions: 'recordWriter' },
          { target: 'writtenAfterFree', actions: 'recordWriter' },
        ],
        FREE: { target: 'free', actions: 'dropOwner' },
      },
    },
    writtenAfterFree: {
      description: 'A write landed in a page its writer does not hold: the page is corrupt.',
      type: 'final',
    },
  },
});
