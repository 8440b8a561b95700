/**
 * Properties of terminal states, where no event is enabled: nothing is stuck, everyone got an
 * answer, and no page is still held. They stand in for liveness on the finite, acyclic spaces
 * kvcheck explores: every run ends in a terminal state.
 */
import { cachedPages } from '../machines/prefixCache.ts';
import { property, type Trigger } from './property.ts';
import { heldPages, regionIn, regionPath, requestIds, who } from './vocabulary.ts';

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
    trigger: terminalReached,
  },
  (s) => {
    for (const rid of requestIds(s)) {
      for (const region of ['prefill', 'decode'] as const) {
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
    trigger: terminalReached,
  },
  (s) => {
    for (const rid of requestIds(s)) {
      if (s.context.requests[rid]?.clientReply == null) {
        return `${who(s, rid)} never got a reply (router in ${regionPath(s, rid, 'router')})`;
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
    trigger: terminalReached,
  },
  (s) => {
    for (const node of ['prefill', 'decode'] as const) {
      const held = heldPages(s, node);
      const first = held[0];
      if (first)
        return `${node} page ${first.page} is still held by ${who(s, first.rid)} at quiescence`;
      const pool = node === 'prefill' ? s.context.prefillPool : s.context.decodePool;
      // An unlocked prefix-cache page is evictable, hence available (SGLang's idle check counts
      // available + evictable); a locked one is still in use.
      const locked = Object.values(s.context.requests).find(
        (r) => (r.cachedPrefix?.lockRef ?? 0) > 0,
      );
      if (node === 'prefill' && locked?.cachedPrefix) {
        return `prefill cache pages ${locked.cachedPrefix.pages.join(', ')} are still locked at quiescence`;
      }
      const evictable = node === 'prefill' ? cachedPages(s.context).length : 0;
      if (pool.free.length + evictable !== pool.owner.length) {
        return `${node} pool: ${pool.free.length} of ${pool.owner.length} pages free at quiescence`;
      }
    }
    return null;
  },
);
