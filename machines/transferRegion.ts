/**
 * The KV transfer channel of one request's bootstrap room, as KVPoll sees it
 * (`disaggregation/base/conn.py`): Bootstrapping (sender created) → WaitingForInput (decode's
 * destination pages arrived) → Transferring (last chunk enqueued) → Success (KV and aux written
 * into decode's pages). Failed is sticky and reachable from every state, Success included: an
 * abort after Success fails the room (`update_status` lets Failed override Success).
 *
 * Decode does not wait for prefill's sender. Its receiver is WaitingForInput once it has the
 * prefill server's bootstrap info, which is per server, not per request (`MooncakeKVReceiver`
 * and the `CommonKVReceiver` subclasses call `update_status(room, WaitingForInput)` in their
 * constructors), so decode may preallocate and send its destination before prefill has opened
 * the room, or for a room prefill never opens (retired at admission, #38935). The metadata then
 * waits on prefill's bootstrap thread (`transfer_infos[room]`): the room is `awaitingSender`, and
 * a sender created later starts at WaitingForInput (`update_status` keeps the larger status).
 * Each state records its KVPoll value on entry, so `kvPollMonotone` checks the machine rather
 * than trusting its shape.
 *
 * With chunked prefill, each non-final chunk's KV lands with its own KV_WRITE_DONE while the room
 * stays Transferring. An abort from either side (SENDER_ABORTED, RECEIVER_ABORTED) fails the room
 * at once, and a write still in flight is dropped with it, unless the scenario has `lateWrites`:
 * then the room waits in `draining` (KVPoll Failed, a posted write still on the wire) until that
 * write lands with a KV_WRITE_DONE of its own, into the pages and aux slot decode sent, and only
 * then is `failed`. That is where decode's deferred release (#35049) ends, or where a write
 * after free lands (B4).
 *
 * With shared rooms (requests naming one `room`), what the incarnations share is in `rooms.ts`:
 * decode's status entry, read by decode's commit and failure polls, and prefill's
 * `transfer_infos`, which decides whose pages a chunk lands in.
 *
 * Left out: multiple TP ranks (their MIN-reduction), and a late write after a TRANSFER_FAIL (a
 * dead peer's writes are dropped).
 */
import { and } from 'xstate';
import { kvPoll } from './context.ts';
import { forRequest } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

/**
 * What the push and pull regions of request `rid` share: the entry action that records a KVPoll
 * value, a fault and an abort failing the room, an abort that drains a write already posted
 * (with late writes, which pull mode always has), and the `draining` and `failed` states.
 */
export function roomParts(rid: RequestId) {
  const poll = (value: number) => ({ type: 'recordPoll', params: { rid, poll: value } }) as const;
  const draining: RegionConfig = {
    entry: poll(kvPoll.failed),
    on: {
      KV_WRITE_DONE: {
        guard: forRequest(rid),
        target: 'failed',
        actions: { type: 'landLateWrite', params: { rid } },
      },
    },
  };
  return {
    poll,
    fault: {
      guard: and([forRequest(rid), 'transferFaultsEnabled']),
      target: 'failed',
      actions: 'spendTransferFault',
    } as const,
    aborted: { guard: forRequest(rid), target: 'failed' } as const,
    // With late writes, an abort does not cancel a write already posted.
    abortedWhileWriting: {
      guard: and([
        forRequest(rid),
        'lateWritesEnabled',
        { type: 'kvWritePending', params: { rid } },
      ]),
      target: 'draining',
      actions: { type: 'startDraining', params: { rid } },
    } as const,
    draining,
    failed: { type: 'final', entry: poll(kvPoll.failed) } satisfies RegionConfig,
  };
}

/** The transfer-channel region of request `rid`. */
export function transferRegion(rid: RequestId): RegionConfig {
  const { poll, fault, aborted, abortedWhileWriting, draining, failed } = roomParts(rid);
  return {
    initial: 'unopened',
    states: {
      unopened: {
        on: {
          SENDER_CREATED: { guard: forRequest(rid), target: 'bootstrapping' },
          METADATA_SENT: { guard: forRequest(rid), target: 'awaitingSender' },
        },
      },
      // Decode's destination arrived before prefill created a sender (or will never create one).
      // The room is already in prefill's table, so decode's abort (the receiver's ABORT to
      // prefill's bootstrap thread) fails it there: `abandoned`, Failed with no sender.
      awaitingSender: {
        entry: poll(kvPoll.waitingForInput),
        on: {
          SENDER_CREATED: { guard: forRequest(rid), target: 'waitingForInput' },
          RECEIVER_ABORTED: { guard: forRequest(rid), target: 'abandoned' },
        },
      },
      // Upstream a sender created later would find the room Failed (`update_status` keeps
      // Failed); here no sender comes: the client's abort reaches prefill at the same moment, and
      // decode aborts no other way before prefill has finished with the request.
      abandoned: { type: 'final', entry: poll(kvPoll.failed) },
      bootstrapping: {
        entry: poll(kvPoll.bootstrapping),
        on: {
          // Prefill's bootstrap thread files decode's metadata under the room alone: the
          // metadata of another incarnation of a shared room satisfies this sender too.
          METADATA_SENT: {
            guard: { type: 'isForRoom', params: { rid } },
            target: 'waitingForInput',
          },
          SENDER_ABORTED: aborted,
          RECEIVER_ABORTED: aborted,
          TRANSFER_FAIL: fault,
        },
      },
      waitingForInput: {
        entry: poll(kvPoll.waitingForInput),
        on: {
          KV_CHUNK_SENT: { guard: forRequest(rid), target: 'transferring' },
          SENDER_ABORTED: aborted,
          RECEIVER_ABORTED: aborted,
          TRANSFER_FAIL: fault,
        },
      },
      // Chunks land one KV_WRITE_DONE at a time; the last chunk (with the aux data) ends in
      // Success. A later chunk sent while earlier ones are in flight changes nothing here.
      transferring: {
        entry: poll(kvPoll.transferring),
        on: {
          KV_WRITE_DONE: [
            {
              // The last chunk's write completes: the transfer worker sets Success
              // (`transfer_worker`, `is_last`), whatever prefill's scheduler is doing meanwhile.
              guard: { type: 'lastChunkSent', params: { rid } },
              target: 'success',
              actions: { type: 'writeTransferredKv', params: { rid } },
            },
            {
              guard: { type: 'kvWritePending', params: { rid } },
              actions: { type: 'writeTransferredKv', params: { rid } },
            },
          ],
          SENDER_ABORTED: [abortedWhileWriting, aborted],
          RECEIVER_ABORTED: [abortedWhileWriting, aborted],
          TRANSFER_FAIL: fault,
        },
      },
      draining,
      // Not final: `update_status` lets Failed override any status, Success included
      // (`CommonKVManager.update_status` keeps the larger status, except that Failed always
      // wins). An abort after Success (`sender.abort()` on prefill, the receiver's
      // abort on decode) fails the room for whichever side has not consumed the Success yet. A
      // transfer fault does not: once the KV has landed no write is left to fail.
      success: {
        entry: poll(kvPoll.success),
        on: { SENDER_ABORTED: aborted, RECEIVER_ABORTED: aborted },
      },
      failed,
    },
  };
}
