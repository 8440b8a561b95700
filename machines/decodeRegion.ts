/**
 * The decode side of one request, after SGLang's `disaggregation/decode.py`:
 * intake (the same two length checks, against decode's own pool) → prealloc queue (pages for the
 * full length are allocated and their ids sent to prefill) → transfer queue (waiting for the
 * room) → commit on Success (`seq_len` set to the preallocated length) → running (each decode
 * step stores one token's KV, then attends over `[0, seq_len]`) → finished, pages freed.
 *
 * Without `admissionRetire`, a prompt decode's scheduler rejects becomes a one-token placeholder
 * (`placeholder`, tagged `rejected`) that is preallocated, transferred and committed like any
 * other; `check_finished` promotes its pending abort after its first step. Commit checks only the
 * room (there is one room per request here); `coverageCheck` (#38704) adds the check that the
 * transferred KV covers what was preallocated. A request whose handshake can no longer come
 * (prefill retired it at admission) fails on `TIMEOUT`; it holds no pages yet.
 *
 * With `auxSlots`, commit also checks that the aux data in the request's metadata slot carries
 * its own room (#17430) and fails the request otherwise. With `lateWrites`, an abort while a
 * write for the room is in flight keeps the pages until it drains (see `releasePages`).
 *
 * Left out: the decode radix cache, retraction.
 */
import { and, not } from 'xstate';
import { forRequest, inState, notify, stateId } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';
import { sideRegion } from './sideRegion.ts';

type Kind = 'admitted' | 'placeholder';

function lifecycle(rid: RequestId, kind: Kind): RegionConfig {
  const p = { rid };
  const side = { rid, side: 'decode' } as const;
  const fail = (release: boolean) => [
    ...(release ? [{ type: 'releasePages', params: side } as const] : []),
    { type: 'markAborted', params: p } as const,
    { type: 'replyError', params: { ...side, status: 500 } } as const,
  ];
  const failed = stateId(rid, 'decode', 'done.failed');
  const transferFailed = (release: boolean) => ({
    guard: and([forRequest(rid), inState(rid, 'transfer', 'failed')]),
    target: failed,
    actions: fail(release),
  });
  const timeout = {
    guard: and([
      forRequest(rid),
      inState(rid, 'prefill', 'done'),
      not(inState(rid, 'transfer', 'success')),
      not(inState(rid, 'transfer', 'failed')),
      // B3 (#24159): without the waiting timeout the wait never ends.
      not('decodeWaitsForeverForKv'),
    ]),
    target: failed,
    actions: fail(false),
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
  const abortAfterStep = {
    target: stateId(rid, 'decode', 'done.aborted'),
    actions: [
      { type: 'runDecodeStep', params: p },
      { type: 'releasePages', params: side },
      { type: 'replyError', params: { ...side, status: kind === 'placeholder' ? 400 : 499 } },
    ],
  } as const;
  const end = kind === 'placeholder' ? 'done.aborted' : 'done.finished';
  const endActions =
    kind === 'placeholder'
      ? [
          { type: 'releasePages', params: side } as const,
          { type: 'replyError', params: { ...side, status: 400 } } as const,
        ]
      : [
          { type: 'releasePages', params: side } as const,
          { type: 'replyDecodeFinished', params: p } as const,
        ];
  return {
    initial: 'preallocPending',
    tags: kind === 'placeholder' ? ['rejected'] : [],
    states: {
      preallocPending: {
        on: {
          DECODE_PREALLOC: {
            guard: and([
              { type: 'decodePreallocFits', params: p },
              inState(rid, 'transfer', 'bootstrapping'),
            ]),
            target: 'awaitingKv',
            actions: [{ type: 'preallocateDecode', params: p }, notify(rid, 'METADATA_SENT')],
          },
          DECODE_TRANSFER_FAILED: transferFailed(false),
          TIMEOUT: timeout,
          REQUEST_ABORTED: clientAbort(false),
        },
      },
      awaitingKv: {
        on: {
          DECODE_COMMIT: [
            {
              guard: and([
                'coverageCheck',
                { type: 'coverageIncomplete', params: p },
                inState(rid, 'transfer', 'success'),
              ]),
              target: failed,
              actions: fail(true),
            },
            {
              // The aux data in the metadata slot carries another room: decode's room check
              // (#17430) fails the request, unless B5 removes the check.
              guard: and([
                not('auxRoomUnchecked'),
                { type: 'auxRoomMismatch', params: p },
                inState(rid, 'transfer', 'success'),
              ]),
              target: failed,
              actions: fail(true),
            },
            {
              guard: and([forRequest(rid), inState(rid, 'transfer', 'success')]),
              target: 'running',
              actions: { type: 'commitDecode', params: p },
            },
          ],
          // No TIMEOUT here: decode reaches awaitingKv only after the room left Bootstrapping,
          // and prefill then finishes only through Success or Failed, which decode polls.
          DECODE_TRANSFER_FAILED: transferFailed(true),
          REQUEST_ABORTED: clientAbort(true),
        },
      },
      running: {
        tags: ['decoding'],
        on: {
          // A pending abort (a placeholder's rejection, or the client's abort) is promoted by
          // `check_finished` after one more decode step.
          DECODE_STEP:
            kind === 'placeholder'
              ? { ...abortAfterStep, guard: { type: 'decodeStepFits', params: p } }
              : [
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
          DECODE_FINISH: {
            guard: { type: 'generationDone', params: p },
            target: stateId(rid, 'decode', end),
            actions: endActions,
          },
        },
      },
    },
  };
}

/** The decode-side region of request `rid`. */
export function decodeRegion(rid: RequestId): RegionConfig {
  return sideRegion(rid, 'decode', lifecycle);
}
