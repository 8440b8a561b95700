/**
 * Variants: named sets of behaviour switches. A switch changes one guard or one action of the
 * composed machine, never the shape of the code around it, so each variant's diagram differs
 * from the next by the edges its switches enable or disable.
 */

/** Which reply the router returns to the client. */
export type RouterPolicy = 'decodeOnly' | 'failFast';

/** The engine behaviours that decide whether the reject path can leak. */
export interface Switches {
  /**
   * #38935: a request rejected at intake is retired at `PrefillBootstrapQueue.add` and
   * `DecodePreallocQueue.add` with its original error; it never gets a sender or pages.
   * Off: it continues as a one-token placeholder with a pending abort (`to_finish`).
   */
  readonly admissionRetire: boolean;
  /**
   * #36988: a prefill result whose request carries a pending abort is retired after the
   * forward: its last chunk is never sent and the room is marked Failed.
   */
  readonly retireAbortedResult: boolean;
  /**
   * #38704: before commit, decode checks that the transferred KV covers the length it
   * preallocated, and fails the request otherwise.
   */
  readonly coverageCheck: boolean;
  /**
   * `decodeOnly`: the router waits for both sides and returns decode's reply (mini_lb).
   * `failFast`: a prefill error is returned to the client as soon as prefill replies.
   */
  readonly routerPolicy: RouterPolicy;
  /**
   * Fault B4 (#24527, #24580, #27372, #35049): decode frees an aborted request's pages at once,
   * while a KV write for its room is still in flight; the pages are reallocated and the late
   * write lands in another request's pages. Off (the correct engine, #35049's deferred
   * release): the pages are freed only after the in-flight write has drained. Matters only in
   * scenarios with `lateWrites`.
   */
  readonly releaseBeforeDrain: boolean;
  /**
   * Fault B5 (#17259, #22716; the check is #17430): decode commits without checking that the
   * aux data in its metadata slot carries its own bootstrap room, so a stale aux write from
   * another room, landing in a reused slot, becomes its first token. Off: a mismatch aborts the
   * request. Matters only in scenarios with `auxSlots`.
   */
  readonly auxRoomUnchecked: boolean;
  /**
   * Fault B8 (#37160): the prefix cache keys KV by tokens only and ignores the per-tenant cache
   * salt (`extra_key`), so a request reuses prefix pages another tenant inserted. Off: different
   * salts never share cache nodes. Matters only in scenarios whose requests name a `prefix`.
   */
  readonly saltIgnored: boolean;
  /**
   * Fault B1 (#30233, #32605/#34208; fixed by #36988 and #38935): the PD queues' abort gates
   * test `req.finished()` (`finished_reason`) instead of `is_aborted(req)`, so an abort still
   * pending in `to_finish` passes them. An intake rejection is carried only in `to_finish`
   * (`set_finish_with_abort`), so neither the admission retire nor the post-forward retire sees
   * it: the one-token placeholder is handed off as before the fixes. Off: both gates see it.
   */
  readonly abortGatesMissPendingAbort: boolean;
  /**
   * Fault B2 (#33507/#33508; #30937): nothing on the inflight path reads a pending abort. An
   * error found after the last chunk was enqueued is left in `to_finish`: the sender is not
   * aborted, the transfer completes, and the Success branch sets FINISH_LENGTH(0) over the
   * abort, so the error is lost and the client gets 200. Off: the error aborts the sender at
   * once (#36988, #36612 notify decode) and is reported at the terminal cleanup. Matters only
   * in scenarios with `prefillErrors`.
   */
  readonly successOverwritesPendingAbort: boolean;
  /**
   * Fault B3 (#24159, #29017; mini_lb and the PD router join on both legs): decode waits for KV
   * that will never come with no timeout, so the router's join on decode never returns and the
   * client is never answered. Off: `SGLANG_DISAGGREGATION_WAITING_TIMEOUT` ends the wait and
   * decode answers 500, which the router forwards.
   */
  readonly decodeWaitsForeverForKv: boolean;
  /**
   * Fault B6 (#30937): an error found while the last chunk is in flight releases the request's
   * prefill KV at once, while its row and the transfer still reference it; the inflight queue's
   * terminal cleanup then releases the same pages again. Off: the release waits for the
   * transfer's terminal state and happens once. Matters only in scenarios with `prefillErrors`.
   */
  readonly errorReleasesKvImmediately: boolean;
  /**
   * Fault B7 (#36926; fixed by #36988): with overlap scheduling, an abort finishes a request
   * whose final or middle chunk result is still in flight; the late result is then dropped for a
   * finished request without being retired, so its prefill KV is never released. Off: the abort
   * waits for the result, which is retired (released once, the abort streamed once). Matters
   * only in scenarios with `clientAborts`.
   */
  readonly lateResultNotRetired: boolean;
  /**
   * Fault B9 (#40125, #28003; the check is #40185): a client-supplied bootstrap room that a live
   * request already holds is accepted, so two incarnations share the room's status entries and
   * prefill's `transfer_infos`. Off (every built-in variant): the router answers 400 to a
   * request whose room another request in flight holds, and posts it to neither side. Matters
   * only in scenarios whose requests name a `room`.
   */
  readonly duplicateRoomAccepted: boolean;
  /**
   * Fault B10 (vLLM's `VLLM_NIXL_ABORT_REQUEST_TIMEOUT`; #52234, aws-do-eks#84): in pull mode
   * prefill frees a finished request's blocks when a fixed timeout expires, whether or not decode
   * has read them, and a READ that comes later copies whatever the blocks hold then. Off (the
   * heartbeat lease, #41383): the lease is extended while decode tracks the request, so it
   * expires only once decode is done with it. Matters only with `transfer: pull`.
   */
  readonly leaseExpiresUnderRead: boolean;
}

/** A named variant: switches plus what a reviewer should know about it. */
export interface Variant {
  readonly name: string;
  readonly description: string;
  readonly switches: Switches;
}

const incidentSwitches: Switches = {
  admissionRetire: false,
  retireAbortedResult: false,
  coverageCheck: false,
  routerPolicy: 'decodeOnly',
  releaseBeforeDrain: false,
  auxRoomUnchecked: false,
  saltIgnored: false,
  abortGatesMissPendingAbort: false,
  successOverwritesPendingAbort: false,
  decodeWaitsForeverForKv: false,
  errorReleasesKvImmediately: false,
  lateResultNotRetired: false,
  duplicateRoomAccepted: false,
  leaseExpiresUnderRead: false,
};

/** Every built-in variant, in the order reports list them. */
export const variants: readonly Variant[] = [
  {
    name: 'incident-2026',
    description:
      'The engine before the fixes: rejected prompts become one-token placeholders that are prefilled and handed off; decode commits on Success without a coverage check; the router returns decode’s reply.',
    switches: incidentSwitches,
  },
  {
    name: 'fixed',
    description:
      'Admission retires intake-rejected requests on both sides (#38935) and aborted prefill results are retired, never sent (#36988).',
    switches: {
      ...incidentSwitches,
      admissionRetire: true,
      retireAbortedResult: true,
    },
  },
  {
    name: 'fixed-coverage',
    description: '`fixed` plus decode’s transferred-length coverage check before commit (#38704).',
    switches: {
      ...incidentSwitches,
      admissionRetire: true,
      retireAbortedResult: true,
      coverageCheck: true,
    },
  },
  {
    name: 'retire-only',
    description: '`incident-2026` plus #36988 alone: an aborted prefill result is never sent.',
    switches: { ...incidentSwitches, retireAbortedResult: true },
  },
  {
    name: 'coverage-only',
    description:
      '`incident-2026` plus #38704 alone: decode refuses a handoff with incomplete coverage.',
    switches: { ...incidentSwitches, coverageCheck: true },
  },
];

/** Names of the built-in variants. */
export const variantNames: readonly string[] = variants.map((v) => v.name);

/** The variant called `name`, or undefined. */
export function findVariant(name: string): Variant | undefined {
  return variants.find((v) => v.name === name);
}

/** The built-in variant called `name`; throws naming the built-in variants when there is none. */
export function variantNamed(name: string): Variant {
  const v = findVariant(name);
  if (!v) throw new Error(`no built-in variant "${name}"; built-in: ${variantNames.join(', ')}`);
  return v;
}

/**
 * Whether #38935's admission retire catches an intake-rejected request under `sw`: the fix is
 * on and its gate sees the pending abort (B1's `abortGatesMissPendingAbort` blinds it).
 */
export function admissionRetireEffective(sw: Switches): boolean {
  return sw.admissionRetire && !sw.abortGatesMissPendingAbort;
}

/**
 * Whether #36988's retire of an aborted prefill result fires under `sw`: the fix is on and its
 * gate sees the pending abort (B1's `abortGatesMissPendingAbort` blinds it).
 */
export function retireAbortedResultEffective(sw: Switches): boolean {
  return sw.retireAbortedResult && !sw.abortGatesMissPendingAbort;
}
