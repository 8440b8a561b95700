/**
 * The router's view of one request (`disaggregation/mini_lb.py`): it posts the request to both
 * sides with one bootstrap room, then returns a reply. Under `decodeOnly` (mini_lb) it waits for
 * both sides and returns decode's status and body, ignoring prefill's; under `failFast` a prefill
 * error is returned as soon as prefill replies.
 */
import { and } from 'xstate';
import { forRequest, inState } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

/** The router region of request `rid`. */
export function routerRegion(rid: RequestId): RegionConfig {
  return {
    initial: 'idle',
    states: {
      idle: { on: { DISPATCH: { guard: forRequest(rid), target: 'awaiting' } } },
      awaiting: {
        on: {
          ROUTER_REPLY: [
            {
              guard: and([
                'routerFailFast',
                inState(rid, 'prefill', 'done'),
                { type: 'prefillReplyIsError', params: { rid } },
              ]),
              target: 'replied',
              actions: { type: 'forwardReply', params: { rid, side: 'prefill' } },
            },
            {
              guard: and([
                forRequest(rid),
                inState(rid, 'prefill', 'done'),
                inState(rid, 'decode', 'done'),
              ]),
              target: 'replied',
              actions: { type: 'forwardReply', params: { rid, side: 'decode' } },
            },
          ],
        },
      },
      replied: { type: 'final' },
    },
  };
}
