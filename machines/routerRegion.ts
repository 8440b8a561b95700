/**
 * The router's view of one request (`disaggregation/mini_lb.py`): it posts the request to both
 * sides with one bootstrap room, then returns a reply. Under `decodeOnly` (mini_lb) it waits for
 * both sides and returns decode's status and body, ignoring prefill's; under `failFast` a prefill
 * error is returned as soon as prefill replies. A client that gives up (when the scenario allows
 * client aborts) gets 499, and both sides are told to abort the request. A router that checks
 * client-supplied bootstrap rooms (#40185; off under the fault `duplicateRoomAccepted`) refuses
 * a request whose room another request in flight holds, with a 400, before posting it.
 */
import { and } from 'xstate';
import { forRequest, inState, notify, roomRefused } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

/** The router region of request `rid`. */
export function routerRegion(rid: RequestId): RegionConfig {
  return {
    initial: 'idle',
    states: {
      idle: {
        on: {
          DISPATCH: [
            {
              // #40185: a client-supplied room another request in flight holds is refused.
              guard: and([forRequest(rid), roomRefused(rid)]),
              target: 'replied',
              actions: { type: 'refuseRoom', params: { rid } },
            },
            {
              guard: forRequest(rid),
              target: 'awaiting',
              actions: { type: 'markDispatched', params: { rid } },
            },
          ],
        },
      },
      awaiting: {
        on: {
          // The client gives up: the router answers 499 and calls `abort_request` on both sides.
          CLIENT_ABORT: {
            guard: and([forRequest(rid), 'clientAbortsEnabled']),
            target: 'replied',
            actions: [
              { type: 'markClientAborted', params: { rid } },
              notify(rid, 'REQUEST_ABORTED'),
            ],
          },
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
