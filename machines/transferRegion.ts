/**
 * The KV transfer channel of one request's bootstrap room, as KVPoll sees it
 * (`disaggregation/base/conn.py`): Bootstrapping (sender created) → WaitingForInput (decode's
 * destination pages arrived) → Transferring (last chunk enqueued) → Success (KV and aux written
 * into decode's pages). Failed is reachable from every state before Success and is sticky.
 * Each state records its KVPoll value on entry, so `kvPollMonotone` checks the machine rather
 * than trusting its shape.
 *
 * Left out: multiple TP ranks (their MIN-reduction), room-id collisions, `clear()`.
 */
import { and } from 'xstate';
import { kvPoll } from './context.ts';
import { forRequest } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

/** The transfer-channel region of request `rid`. */
export function transferRegion(rid: RequestId): RegionConfig {
  const poll = (value: number) => ({ type: 'recordPoll', params: { rid, poll: value } }) as const;
  const fault = {
    guard: and([forRequest(rid), 'transferFaultsEnabled']),
    target: 'failed',
  } as const;
  const aborted = { guard: forRequest(rid), target: 'failed' } as const;
  return {
    initial: 'unopened',
    states: {
      unopened: { on: { SENDER_CREATED: { guard: forRequest(rid), target: 'bootstrapping' } } },
      bootstrapping: {
        entry: poll(kvPoll.bootstrapping),
        on: {
          METADATA_SENT: { guard: forRequest(rid), target: 'waitingForInput' },
          SENDER_ABORTED: aborted,
          TRANSFER_FAIL: fault,
        },
      },
      waitingForInput: {
        entry: poll(kvPoll.waitingForInput),
        on: {
          KV_CHUNK_SENT: { guard: forRequest(rid), target: 'transferring' },
          SENDER_ABORTED: aborted,
          TRANSFER_FAIL: fault,
        },
      },
      transferring: {
        entry: poll(kvPoll.transferring),
        on: {
          KV_WRITE_DONE: {
            guard: forRequest(rid),
            target: 'success',
            actions: { type: 'writeTransferredKv', params: { rid } },
          },
          TRANSFER_FAIL: fault,
        },
      },
      success: { type: 'final', entry: poll(kvPoll.success) },
      failed: { type: 'final', entry: poll(kvPoll.failed) },
    },
  };
}
