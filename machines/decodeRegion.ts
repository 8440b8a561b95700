/**
 * The decode side of one request, after SGLang's `disaggregation/decode.py`:
 * intake (the same two length checks, against decode's own pool) → prealloc queue (pages for the
 * full length are allocated and their ids sent to prefill) → transfer queue (waiting for the
 * room) → commit on Success (`seq_len` set to the preallocated length) → running (each decode
 * step stores one token's KV, then attends over `[0, seq_len]`) → finished, pages freed.
 *
 * Without `admissionRetire`, a prompt decode's scheduler rejects becomes a one-token placeholder
 * (`placeholder`, tagged `rejected`) that is preallocated, transferred and committed like any
 * other. Its pending abort lands at commit, before any decode forward: the prebuilt-extend batch
 * that takes a transferred request into decode runs no forward, and its result handler
 * (`process_batch_result_prebuilt` in SGLang's scheduler output processor) calls
 * `check_finished()` on each request and releases the KV of those that finished, so a
 * placeholder leaves with its 400 and never runs a decode step. Commit checks only the
 * room (there is one room per request here); `coverageCheck` (#38704) adds the check that the
 * transferred KV covers what was preallocated. Decode preallocates without waiting for prefill's
 * sender (see `transferRegion.ts`), so a request whose KV can no longer come (prefill retired it
 * at admission) may hold pages until its waiting timeout fails it on `TIMEOUT` and frees them.
 *
 * With `auxSlots`, commit also checks that the aux data in the request's metadata slot carries
 * its own room (#17430) and fails the request otherwise. With `lateWrites`, an abort while a
 * write for the room is in flight keeps the pages until it drains (see `releasePages`).
 *
 * Decode's memory accounting follows SGLang's: the prealloc queue preallocates only within its
 * budget (`decodeBudgetAllows`, see `decodeMemory.ts`), and when the running batch's next
 * step finds no page, `retract_decode` retracts running requests (`running` → `retracted`), their
 * KV copied to host and their pages freed, until `resume_retracted_reqs` gives them pages again
 * and loads the copy back (`retracted` → `running`).
 *
 * Left out: the decode radix cache; the prealloc and retracted queues' first-in-first-out order
 * (any waiting request may go next, which allows more interleavings than the engine has).
 */
import { and, not, or } from 'xstate';
import type { AbortCause } from './context.ts';
import { forRequest, inState, notify, stateId } from './regionIds.ts';
import type { RequestId, TransferMode } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';
import { sideRegion } from './sideRegion.ts';

type Kind = 'admitted' | 'placeholder';

function lifecycle(rid: RequestId, kind: Kind, transfer: TransferMode): RegionConfig {
  const p = { rid };
  const side = { rid, side: 'decode' } as const;
  const fail = (release: boolean, cause: AbortCause) => [
    ...(release ? [{ type: 'releasePages', params: side } as const] : []),
    { type: 'markAborted', params: { ...side, cause } } as const,
    { type: 'replyError', params: { ...side, status: 500 } } as const,
  ];
  const failed = stateId(rid, 'decode', 'done.failed');
  // Decode's poll reads the room's status entry, which another incarnation of a shared room may
  // have concluded (see `rooms.ts`).
  const roomFailed = or([inState(rid, 'transfer', 'failed'), { type: 'roomFailed', params: p }]);
  const transferFailed = (release: boolean) => ({
    guard: and([forRequest(rid), roomFailed]),
    target: failed,
    actions: fail(release, 'transferFailed'),
  });
  const timeout = {
    guard: and([
      forRequest(rid),
      inState(rid, 'prefill', 'done'),
      not(inState(rid, 'transfer', 'success')),
      not(inState(rid, 'transfer', 'failed')),
      // Draining is KVPoll Failed: decode's poll sees the failure, not a silence.
      not(inState(rid, 'transfer', 'draining')),
      // B3 (#24159): without the waiting timeout the wait never ends.
      not('decodeWaitsForeverForKv'),
    ]),
    target: failed,
    actions: fail(false, 'waitTimeout'),
  };
  const clientAbort = (release: boolean) => ({
    guard: forRequest(rid),
    target: stateId(rid, 'decode', 'done.aborted'),
    actions: [
      ...(release ? [{ type: 'releasePages', params: side } as const] : []),
      { type: 'replyError', params: { ...side, status: 499 } } as const,
      notify(rid, 'RECEIVER_ABORTED'),
    ],
  });
  // SGLang's waiting timeout. Pull mode has none: decode posts the READ itself, and it lands or
  // fails (vLLM's only timeout is prefill's lease).
  const waitTimeout = <T>(t: T) => (transfer === 'push' ? { TIMEOUT: t } : {});
  // A client abort of a running request lands in `check_finished` after the next decode step
  // (`process_batch_result_decode`).
  const abortAfterStep = {
    target: stateId(rid, 'decode', 'done.aborted'),
    actions: [
      { type: 'runDecodeStep', params: p },
      { type: 'releasePages', params: side },
      { type: 'replyError', params: { ...side, status: 499 } },
    ],
  } as const;
  const committed = or([inState(rid, 'transfer', 'success'), { type: 'roomSucceeded', params: p }]);
  // The placeholder's commit: the prebuilt batch's `check_finished()` promotes its pending
  // abort, and `release_kv_cache` frees its pages, with no forward in between.
  const commit =
    kind === 'placeholder'
      ? {
          guard: and([forRequest(rid), committed]),
          target: stateId(rid, 'decode', 'done.aborted'),
          actions: [
            { type: 'commitDecode', params: p } as const,
            { type: 'releasePages', params: side } as const,
            { type: 'replyError', params: { ...side, status: 400 } } as const,
          ],
        }
      : {
          guard: and([forRequest(rid), committed]),
          target: 'running',
          actions: { type: 'commitDecode', params: p } as const,
        };
  const running: RegionConfig = {
    tags: ['decoding'],
    on: {
      DECODE_STEP: [
        {
          ...abortAfterStep,
          guard: and([
            { type: 'decodeStepFits', params: p },
            { type: 'clientAborted', params: p },
          ]),
        },
        {
          guard: { type: 'decodeStepFits', params: p },
          actions: { type: 'runDecodeStep', params: p },
        },
      ],
      // `retract_decode` when the batch's next step finds no page (see `retractionVictim`).
      DECODE_RETRACT: {
        guard: { type: 'retractionVictim', params: p },
        target: 'retracted',
        actions: { type: 'retractDecode', params: p },
      },
      DECODE_FINISH: {
        guard: { type: 'generationDone', params: p },
        target: stateId(rid, 'decode', 'done.finished'),
        actions: [
          { type: 'releasePages', params: side },
          { type: 'replyDecodeFinished', params: p },
        ],
      },
    },
  };
  // In the retracted queue: KV on host, no pages. A client abort lands when the queue next looks
  // at the request (`resume_retracted_reqs` checks `to_abort` first).
  const retracted: RegionConfig = {
    on: {
      DECODE_RESUME: [
        {
          guard: { type: 'clientAborted', params: p },
          target: stateId(rid, 'decode', 'done.aborted'),
          actions: [
            { type: 'dropHostCopy', params: p },
            { type: 'replyError', params: { ...side, status: 499 } },
          ],
        },
        {
          guard: { type: 'resumeFits', params: p },
          target: 'running',
          actions: { type: 'resumeDecode', params: p },
        },
      ],
    },
  };
  return {
    initial: 'preallocPending',
    tags: kind === 'placeholder' ? ['rejected'] : [],
    states: {
      preallocPending: {
        on: {
          DECODE_PREALLOC: {
            // The receiver needs the prefill server's bootstrap info, not the request's sender:
            // decode preallocates whether or not prefill has opened the room yet (its own room
            // is unopened or Bootstrapping then, or, with a shared room, wherever another
            // incarnation's metadata moved it), unless the room has failed.
            guard: and([
              { type: 'decodePreallocFits', params: p },
              { type: 'decodeBudgetAllows', params: p },
              // Pull mode: decode gets the request with prefill's block ids once prefill has
              // finished it (`kv_transfer_params`), and posts its READ as it allocates.
              transfer === 'pull'
                ? inState(rid, 'transfer', 'leased')
                : not(inState(rid, 'transfer', 'failed')),
            ]),
            target: 'awaitingKv',
            actions: [{ type: 'preallocateDecode', params: p }, notify(rid, 'METADATA_SENT')],
          },
          DECODE_TRANSFER_FAILED: transferFailed(false),
          ...waitTimeout(timeout),
          REQUEST_ABORTED: clientAbort(false),
        },
      },
      awaitingKv: {
        on: {
          DECODE_COMMIT: [
            {
              guard: and(['coverageCheck', { type: 'coverageIncomplete', params: p }, committed]),
              target: failed,
              actions: fail(true, 'commitRefused'),
            },
            {
              // The aux data in the metadata slot carries another room: decode's room check
              // (#17430) fails the request, unless B5 removes the check.
              guard: and([
                not('auxRoomUnchecked'),
                { type: 'auxRoomMismatch', params: p },
                committed,
              ]),
              target: failed,
              actions: fail(true, 'commitRefused'),
            },
            commit,
          ],
          // The waiting timeout also ends a preallocated request whose KV can no longer come:
          // prefill retired it at admission and never opened the room (#38935).
          ...waitTimeout({ ...timeout, actions: fail(true, 'waitTimeout') }),
          DECODE_TRANSFER_FAILED: transferFailed(true),
          REQUEST_ABORTED: clientAbort(true),
        },
      },
      ...(kind === 'admitted' ? { running, retracted } : {}),
    },
  };
}

/** The decode-side region of request `rid`. */
export function decodeRegion(rid: RequestId, transfer: TransferMode = 'push'): RegionConfig {
  return sideRegion(rid, 'decode', (id, kind) => lifecycle(id, kind, transfer));
}
