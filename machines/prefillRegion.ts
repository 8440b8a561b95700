/**
 * The prefill side of one request, after SGLang's `disaggregation/prefill.py`:
 * intake (tokenizer limit, then scheduler limit) → bootstrap queue (a KV sender is created) →
 * waiting queue (once decode has sent its destination pages) → forward (prefill pages written)
 * → inflight (last chunk sent) → released on the room's Success or Failure.
 *
 * A prompt the scheduler rejects takes one of two paths, chosen by the variant:
 * - `admissionRetire` (#38935): retired at once with its 400, no sender, no pages;
 * - otherwise the placeholder path: the prompt is swapped for one token and the request goes on
 *   with a pending abort that nothing on this path reads. The `placeholder` subtree is that
 *   request: the same lifecycle, tagged `rejected`, whose forward result is retired instead of
 *   sent when `retireAbortedResult` (#36988) is on.
 * On Success the inflight queue sets FINISH_LENGTH(0) unconditionally, so a placeholder's pending
 * abort is lost and prefill answers 200 (#33507).
 *
 * Left out: chunked prefill (one chunk carries the whole prompt), optimistic prefill, the radix
 * cache (released pages are freed), client aborts and bootstrap timeouts on this side.
 */
import { and } from 'xstate';
import { forRequest, inState, notify, stateId } from './regionIds.ts';
import type { RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

type Kind = 'admitted' | 'placeholder';

function lifecycle(rid: RequestId, kind: Kind): RegionConfig {
  const p = { rid };
  const side = { rid, side: 'prefill' } as const;
  const send = {
    guard: forRequest(rid),
    target: 'inflight',
    actions: [{ type: 'markKvSent', params: p }, notify(rid, 'KV_CHUNK_SENT')],
  } as const;
  return {
    initial: 'bootstrapping',
    tags: kind === 'placeholder' ? ['rejected'] : [],
    states: {
      bootstrapping: {
        on: {
          PREFILL_BOOTSTRAPPED: {
            guard: and([forRequest(rid), inState(rid, 'transfer', 'waitingForInput')]),
            target: 'waiting',
          },
          PREFILL_RELEASE: {
            guard: and([forRequest(rid), inState(rid, 'transfer', 'failed')]),
            target: stateId(rid, 'prefill', 'done.failed'),
            actions: [
              { type: 'markAborted', params: p },
              { type: 'replyError', params: { ...side, status: 500 } },
            ],
          },
        },
      },
      waiting: {
        on: {
          PREFILL_FORWARD: {
            guard: { type: 'prefillFits', params: p },
            target: 'forwarded',
            actions: { type: 'runPrefillForward', params: p },
          },
        },
      },
      forwarded: {
        on: {
          SEND_KV:
            kind === 'placeholder'
              ? [
                  {
                    guard: and([forRequest(rid), 'retireAbortedResult']),
                    target: stateId(rid, 'prefill', 'done.retired'),
                    actions: [
                      { type: 'releasePages', params: side },
                      { type: 'replyError', params: { ...side, status: 400 } },
                      notify(rid, 'SENDER_ABORTED'),
                    ],
                  },
                  send,
                ]
              : send,
        },
      },
      inflight: {
        on: {
          PREFILL_RELEASE: [
            {
              guard: and([forRequest(rid), inState(rid, 'transfer', 'success')]),
              target: stateId(rid, 'prefill', 'done.finished'),
              actions: [
                { type: 'releasePages', params: side },
                { type: 'replyPrefillFinished', params: p },
              ],
            },
            {
              guard: and([forRequest(rid), inState(rid, 'transfer', 'failed')]),
              target: stateId(rid, 'prefill', 'done.failed'),
              actions: [
                { type: 'releasePages', params: side },
                { type: 'markAborted', params: p },
                { type: 'replyError', params: { ...side, status: 500 } },
              ],
            },
          ],
        },
      },
    },
  };
}

/** The prefill-side region of request `rid`. */
export function prefillRegion(rid: RequestId): RegionConfig {
  const p = { rid };
  const side = { rid, side: 'prefill' } as const;
  return {
    initial: 'idle',
    states: {
      idle: { on: { DISPATCH: { guard: forRequest(rid), target: 'received' } } },
      received: {
        on: {
          PREFILL_INTAKE: [
            {
              guard: { type: 'tokenizerRejects', params: p },
              target: 'done.clientError',
              actions: [
                { type: 'markRejected', params: side },
                { type: 'replyError', params: { ...side, status: 400 } },
              ],
            },
            {
              guard: and([{ type: 'prefillSchedulerRejects', params: p }, 'admissionRetire']),
              target: 'done.retired',
              actions: [
                { type: 'markRejected', params: side },
                { type: 'replyError', params: { ...side, status: 400 } },
              ],
            },
            {
              guard: { type: 'prefillSchedulerRejects', params: p },
              target: 'placeholder',
              actions: [
                { type: 'swapForPlaceholder', params: side },
                notify(rid, 'SENDER_CREATED'),
              ],
            },
            {
              guard: forRequest(rid),
              target: 'admitted',
              actions: [{ type: 'admit', params: side }, notify(rid, 'SENDER_CREATED')],
            },
          ],
        },
      },
      admitted: lifecycle(rid, 'admitted'),
      placeholder: lifecycle(rid, 'placeholder'),
      done: {
        // Entered only through explicit targets; `initial` is required of a compound state.
        initial: 'finished',
        states: {
          clientError: { type: 'final', tags: ['rejected'] },
          retired: { type: 'final', tags: ['rejected'] },
          finished: { type: 'final' },
          failed: { type: 'final' },
        },
      },
    },
  };
}
