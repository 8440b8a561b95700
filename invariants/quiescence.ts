/**
 * Properties of terminal states, where no event is enabled: nothing is stuck, everyone got an
 * answer, and no page is still held. They stand in for liveness on the finite, acyclic spaces
 * kvcheck explores: every run ends in a terminal state.
 */
import { cachedPageCount } from '../machines/prefixCache.ts';
import type { NodeRole, RequestId } from '../machines/scenario.ts';
import { poolView, type RequestView, requestViews } from '../machines/servingView.ts';
import { property, type Trigger } from './property.ts';
import { regionIn, regionPath, requestIds, type ServingState, who } from './vocabulary.ts';

const sides = ['prefill', 'decode'] as const;

/** Terminal properties can fail wherever nothing can move (triggers run on terminal states). */
const terminalReached: Trigger = {
  fires: () => true,
  vacuity: 'no state where nothing can move was reached',
};

/** Where nothing can move, every request has finished on both sides. */
export const noDeadlock = property(
  'Where no step is possible, every request has finished on both the prefill and the decode side.',
  {
    guards:
      'waiting must end: a request whose handshake can no longer come times out (decode: SGLANG_DISAGGREGATION_WAITING_TIMEOUT; prefill: the sender’s bootstrap timeout)',
    kind: 'terminal',
    reads: { regions: ['prefill', 'decode'] },
    trigger: terminalReached,
  },
  (s) => {
    const rids = requestIds(s);
    for (let i = 0; i < rids.length; i++) {
      const rid = rids[i] as RequestId;
      for (let k = 0; k < sides.length; k++) {
        const region = sides[k] as NodeRole;
        if (!regionIn(s, rid, region, 'done')) {
          return `${who(s, rid)} is stuck: ${region} in ${regionPath(s, rid, region)}`;
        }
      }
    }
    return null;
  },
);

/** Where nothing can move, every request has its one client reply. */
export const everyRequestAnswered = property(
  'Where no step is possible, the router has answered every request.',
  {
    guards: '#24159 (the router hangs when prefill fails); aibrix #2289',
    kind: 'terminal',
    reads: { request: ['clientReplyStatus'], regions: ['router'] },
    trigger: terminalReached,
  },
  (s) => {
    const rs = requestViews(s.context);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (r.clientStatus === 0) {
        return `${who(s, r.id)} never got a reply (router in ${regionPath(s, r.id, 'router')})`;
      }
    }
    return null;
  },
);

/** Where nothing can move, every page is free. */
export const noLeakAtQuiescence = property(
  'Where no step is possible, every page of both pools is free, or an unlocked prefix-cache page.',
  {
    guards: 'SGLang’s idle memory check; #36926 (late chunk result leaks KV)',
    kind: 'terminal',
    reads: {
      request: ['prefillPages', 'decodePages', 'cachedPages', 'cachedLockRef'],
      pool: ['free'],
    },
    trigger: terminalReached,
  },
  (s) => leftAtQuiescence(s, 'prefill') ?? leftAtQuiescence(s, 'decode'),
);

/** What of `node`'s pool is still in use where nothing can move, or null. */
function leftAtQuiescence(s: ServingState, node: NodeRole): string | null {
  const rs = requestViews(s.context);
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    if (r.pageCount(node) > 0) {
      return `${node} page ${r.pageAt(node, 0)} is still held by ${who(s, r.id)} at quiescence`;
    }
  }
  const pool = poolView(s.context, node);
  // An unlocked prefix-cache page is evictable, hence available (SGLang's idle check counts
  // available + evictable); a locked one is still in use.
  if (node === 'prefill') {
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (r.cachedLockRef > 0) {
        return `prefill cache pages ${r.list(r.layout.lists.cachedPages).join(', ')} are still locked at quiescence`;
      }
    }
  }
  const evictable = node === 'prefill' ? cachedPageCount(s.context) : 0;
  if (pool.freeCount + evictable !== pool.capacity) {
    return `${node} pool: ${pool.freeCount} of ${pool.capacity} pages free at quiescence`;
  }
  return null;
}
