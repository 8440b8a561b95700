/**
 * The KV transfer of one request in pull mode (`transfer: pull`), after vLLM's NIXL connector
 * (`vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py`). Prefill computes with no
 * handshake, and when the request finishes `NixlConnectorScheduler.request_finished` keeps its
 * blocks (`delay_free_blocks`) under a lease and returns their ids in `kv_transfer_params`. Decode
 * allocates its own blocks (`update_state_after_alloc`) and the worker's `start_load_kv` posts a
 * one-sided NIXL READ of prefill's blocks into them; the READ carries the notification that
 * tells prefill it may free (`_get_new_notifs`, `get_finished`), and decode's
 * `_pop_done_transfers` makes the request runnable.
 *
 * The region keeps the push region's state names where the two protocols meet, so that both
 * sides read it as they read KVPoll: `waitingForInput` (prefill may compute: no handshake),
 * `leased` (prefill finished; its pages are held for decode's READ), `transferring` (the READ is
 * in flight), `success` (the READ has landed and its notification reached prefill), `failed`.
 * The READ copies prefill's pages when it lands (`writeTransferredKv`), so a page prefill freed
 * meanwhile (its lease expired, `LEASE_EXPIRED` in `prefillRegion.ts`) and gave to another
 * request is read as that request's KV.
 *
 * A decode abort before the READ is posted sends prefill a notification only (`request_finished`
 * queues an empty receive): the room fails and prefill frees. An abort while the READ is in
 * flight cannot cancel it: the room drains it (`draining`) and the READ lands in the blocks
 * decode allocated, which decode keeps until then (#32255's delayed free; B11 frees them at
 * once). Prefill's own abort after it finished changes nothing here: its request is already
 * finished, and its blocks wait for the notification or the lease.
 *
 * Left out: the handshake's side channel, heartbeats as messages (the lease's expiry is one
 * event), a decode rejection's notification before admission (#41269; without it prefill's
 * blocks wait for the lease, which frees them too, so no property here tells the two apart).
 */
import { kvPoll } from './context.ts';
import { forRequest } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';
import { roomParts } from './transferRegion.ts';

/** The pull-mode transfer region of request `rid`. */
export function pullTransferRegion(rid: RequestId): RegionConfig {
  // The READ, once posted, cannot be cancelled: an abort while it is in flight drains it.
  const { poll, fault, aborted, abortedWhileWriting, draining, failed } = roomParts(rid);
  return {
    initial: 'unopened',
    states: {
      unopened: {
        on: {
          SENDER_CREATED: { guard: forRequest(rid), target: 'waitingForInput' },
          RECEIVER_ABORTED: aborted,
        },
      },
      // No handshake: prefill computes as soon as it has admitted the request.
      waitingForInput: {
        entry: poll(kvPoll.waitingForInput),
        on: {
          // `request_finished`: the blocks stay allocated under a lease, their ids go to decode.
          KV_CHUNK_SENT: { guard: forRequest(rid), target: 'leased' },
          SENDER_ABORTED: aborted,
          RECEIVER_ABORTED: aborted,
        },
      },
      leased: {
        entry: poll(kvPoll.waitingForInput),
        on: {
          // Decode allocated its blocks and posted the READ (`start_load_kv`).
          METADATA_SENT: { guard: forRequest(rid), target: 'transferring' },
          // Decode gave up before reading: a notification only, and prefill frees.
          RECEIVER_ABORTED: aborted,
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
          RECEIVER_ABORTED: [abortedWhileWriting, aborted],
          TRANSFER_FAIL: fault,
        },
      },
      draining,
      success: { type: 'final', entry: poll(kvPoll.success) },
      failed,
    },
  };
}
