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
 * With the scenario's `prefillErrors`, an admitted request's batch result may hit an error while
 * its last chunk is in flight (`PREFILL_ERROR`, #30937); the catalogue's B2 and B6 switches
 * change how that error is handled. B1's switch blinds both retire gates; B7's lets an abort
 * finish a request whose chunk result is still in flight (see `abortBeforeResult`).
 *
 * With a prefix cache (a scenario whose requests name a `prefix`), the first forward reuses a
 * matching cache node and releasing inserts the prefix (`prefixCache.ts`); with `lateWrites`,
 * release on a failed room waits until the room has drained its in-flight write.
 *
 * A request whose handshake can no longer come (decode retired it at admission, #38935, while
 * prefill admitted it) fails on `TIMEOUT` in its bootstrap queue, as the sender's bootstrap
 * timeout (`_check_bootstrap_timeout`) fails the room and `pop_bootstrapped` answers 500; it
 * holds no pages yet.
 *
 * Left out: optimistic prefill (#26780), and bootstrap timeouts of a handshake that could still
 * come (a slow decode): like decode's, this side's `TIMEOUT` only ends a wait that never ends.
 */
import { and, or } from 'xstate';
import { forRequest, inState, notify, stateId } from './regionIds.ts';
import type { RequestId, TransferMode } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';
import { sideRegion } from './sideRegion.ts';

type Kind = 'admitted' | 'placeholder';

function lifecycle(rid: RequestId, kind: Kind, transfer: TransferMode): RegionConfig {
  const p = { rid };
  const side = { rid, side: 'prefill' } as const;
  const aborted = stateId(rid, 'prefill', 'done.aborted');
  const clientAbort = (release: boolean) => ({
    guard: forRequest(rid),
    target: aborted,
    actions: [
      ...(release ? [{ type: 'releasePages', params: side } as const] : []),
      { type: 'replyError', params: { ...side, status: 499 } } as const,
      notify(rid, 'SENDER_ABORTED'),
    ],
  });
  // The sender's bootstrap timeout (`_check_bootstrap_timeout`): decode has finished without
  // sending its destination (retired at admission, #38935) and the room is still Bootstrapping,
  // so the handshake can no longer come. The room fails and `pop_bootstrapped` streams
  // `prepare_abort(500)`.
  const bootstrapTimeout = {
    guard: and([
      forRequest(rid),
      inState(rid, 'decode', 'done'),
      inState(rid, 'transfer', 'bootstrapping'),
    ]),
    target: stateId(rid, 'prefill', 'done.failed'),
    actions: [
      { type: 'markAborted', params: { ...side, cause: 'bootstrapTimeout' } },
      { type: 'replyError', params: { ...side, status: 500 } },
      notify(rid, 'SENDER_ABORTED'),
    ],
  } as const;
  const send = {
    guard: forRequest(rid),
    target: 'inflight',
    actions: [{ type: 'sendLastChunk', params: p }, notify(rid, 'KV_CHUNK_SENT')],
  } as const;
  // #36988: a result whose request carries a pending abort is retired, not sent. A placeholder
  // always carries one (its scheduler rejection); an admitted request once its client aborted.
  const retire = {
    guard:
      kind === 'placeholder'
        ? and([forRequest(rid), 'retireAbortedResult'])
        : and([{ type: 'clientAborted', params: p }, 'retireAbortedResult']),
    target: stateId(rid, 'prefill', kind === 'placeholder' ? 'done.retired' : 'done.aborted'),
    actions: [
      { type: 'releasePages', params: side },
      { type: 'replyError', params: { ...side, status: kind === 'placeholder' ? 400 : 499 } },
      notify(rid, 'SENDER_ABORTED'),
    ],
  } as const;
  // B7 (#36926): with `lateResultNotRetired`, an abort finishes a request whose chunk result is
  // still in flight; the late result is dropped without releasing its KV. Otherwise the abort
  // waits for the result (`process_pending_chunked_abort`, #36988's retire).
  const abortBeforeResult = {
    ...clientAbort(false),
    guard: and([forRequest(rid), 'lateResultNotRetired']),
  } as const;
  // A prefill error found after the last chunk was enqueued (`prefillErrors`, #30937). Fixed:
  // the abort is pending, the sender is aborted at once (the room fails, decode is told) and the
  // KV is released once, at the terminal cleanup. B2 leaves the abort pending and unread; B6
  // releases the KV at once and again at the terminal cleanup.
  const errorWhileInflight = (
    fault?: 'successOverwritesPendingAbort' | 'errorReleasesKvImmediately',
  ) =>
    and([
      forRequest(rid),
      'prefillErrorsEnabled',
      inState(rid, 'transfer', 'transferring'),
      ...(fault ? [fault] : []),
    ]);
  const errorAbort = { type: 'markAborted', params: { ...side, cause: 'prefillError' } } as const;
  const prefillError = [
    {
      guard: errorWhileInflight('successOverwritesPendingAbort'),
      actions: errorAbort,
    },
    {
      guard: errorWhileInflight('errorReleasesKvImmediately'),
      actions: [
        errorAbort,
        { type: 'releasePrefillPagesKeepRow', params: p },
        notify(rid, 'SENDER_ABORTED'),
      ],
    },
    {
      guard: errorWhileInflight(),
      actions: [errorAbort, notify(rid, 'SENDER_ABORTED')],
    },
  ] as const;
  // Pull mode: the lease on the finished request's blocks expires and prefill's
  // `get_finished` frees them (`_reqs_to_send`). With heartbeats (#41383) decode keeps the lease
  // alive while it tracks the request, so it expires only once decode is done with it; B10's
  // fixed timeout expires whether or not decode's READ has landed.
  const leaseExpired = {
    guard: and([
      forRequest(rid),
      or([inState(rid, 'transfer', 'leased'), inState(rid, 'transfer', 'transferring')]),
      or(['leaseExpiresUnderRead', inState(rid, 'decode', 'done')]),
    ]),
    target: stateId(rid, 'prefill', 'done.finished'),
    actions: [
      { type: 'releasePages', params: side },
      { type: 'replyPrefillFinished', params: p },
    ],
  } as const;
  const chunkAndSend = {
    guard: and([
      { type: 'prefillFits', params: p },
      { type: 'moreChunksAfterThis', params: p },
    ]),
    actions: [
      { type: 'runPrefillChunk', params: p },
      { type: 'sendChunk', params: p },
      notify(rid, 'KV_CHUNK_SENT'),
    ],
  } as const;
  const lastChunk = {
    guard: { type: 'prefillFits', params: p },
    target: 'forwarded',
    actions: { type: 'runPrefillChunk', params: p },
  } as const;
  // Chunked prefill applies to admitted prompts; a one-token placeholder is one chunk.
  const chunking: RegionConfig['states'] =
    kind === 'admitted'
      ? {
          // A chunked request in the running batch: `abort_request` defers its abort to the
          // next chunk result (`process_pending_chunked_abort`).
          chunked: {
            on: {
              PREFILL_FORWARD: [
                { ...clientAbort(true), guard: { type: 'clientAborted', params: p } },
                chunkAndSend,
                lastChunk,
              ],
              REQUEST_ABORTED: abortBeforeResult,
            },
          },
        }
      : {};
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
              { type: 'markAborted', params: { ...side, cause: 'transferFailed' } },
              { type: 'replyError', params: { ...side, status: 500 } },
            ],
          },
          REQUEST_ABORTED: clientAbort(false),
          TIMEOUT: bootstrapTimeout,
        },
      },
      waiting: {
        on: {
          PREFILL_FORWARD:
            kind === 'admitted' ? [{ ...chunkAndSend, target: 'chunked' }, lastChunk] : lastChunk,
          REQUEST_ABORTED: clientAbort(false),
        },
      },
      ...chunking,
      forwarded: {
        on:
          kind === 'admitted'
            ? { SEND_KV: [retire, send], REQUEST_ABORTED: abortBeforeResult }
            : { SEND_KV: [retire, send] },
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
                { type: 'markAborted', params: { ...side, cause: 'transferFailed' } },
                { type: 'replyError', params: { ...side, status: 500 } },
              ],
            },
          ],
          // `sender.abort()`: the room fails, even after Success (Failed overrides it in
          // `update_status`); the release then sees Failed and answers 500.
          REQUEST_ABORTED: { guard: forRequest(rid), actions: notify(rid, 'SENDER_ABORTED') },
          ...(kind === 'admitted' ? { PREFILL_ERROR: prefillError } : {}),
          ...(transfer === 'pull' ? { LEASE_EXPIRED: leaseExpired } : {}),
        },
      },
    },
  };
}

/** The prefill-side region of request `rid`. */
export function prefillRegion(rid: RequestId, transfer: TransferMode = 'push'): RegionConfig {
  return sideRegion(rid, 'prefill', (id, kind) => lifecycle(id, kind, transfer));
}
