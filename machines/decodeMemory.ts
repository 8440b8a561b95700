/**
 * Decode's memory accounting, after SGLang's PD decode (`disaggregation/decode.py`,
 * `managers/schedule_batch.py`): the prealloc queue's budget (`_allocatable_tokens`), retraction
 * of running requests when the batch's next step finds no page (`retract_decode`, KV offloaded
 * to host) and their resumption (`resume_retracted_reqs`, KV loaded back). Updates and guards
 * written against the state vector, as in `servingUpdates.ts`.
 */
import type { ServingContext } from './context.ts';
import {
  allocatePages,
  canAllocate,
  forEachWriter,
  freeCount,
  writePositions,
} from './kvPagePool.ts';
import { F } from './layout.ts';
import { pagesFor, type RequestId } from './scenario.ts';
import { at, freeRow, pagesIn } from './servingUpdates.ts';
import { listAt, listClear, listLen, listPush } from './vectorOps.ts';

/**
 * What decode's memory accounting needs besides the vector: `num_reserved_decode_tokens`
 * (scaled) and each request's `max_new_tokens`, by request index.
 */
export interface DecodeBudget {
  readonly reserved: number;
  readonly outputs: readonly number[];
}

/**
 * Whether the request at index `i` is in decode's running batch: committed, not answered by
 * decode, not retracted, and still generating (a request that has produced its last token leaves
 * the batch in the same iteration's `check_finished`).
 */
function inRunningBatch(c: ServingContext, i: number, budget: DecodeBudget): boolean {
  const w = c.words;
  const b = c.layout.block(i);
  return (
    w[b + F.committed] === 1 &&
    w[b + F.decodeReplyStatus] === 0 &&
    !isRetracted(c, b) &&
    (w[b + F.generated] as number) < (budget.outputs[i] as number)
  );
}

/** Whether the request at block `b` is in decode's transfer queue: preallocated, not committed. */
function inTransferQueue(c: ServingContext, b: number): boolean {
  const w = c.words;
  return (
    listLen(w, b, c.layout.lists.decodePages) > 0 &&
    w[b + F.committed] === 0 &&
    w[b + F.decodeReplyStatus] === 0
  );
}

/** Whether the request at block `b` is retracted: its KV is on the host. */
function isRetracted(c: ServingContext, b: number): boolean {
  return c.layout.mechanisms.retraction && listLen(c.words, b, c.layout.lists.hostKv) > 0;
}

/** Decode's accounting of tokens a request has (`len(origin_input_ids) + len(output_ids)`). */
function accountedTokens(c: ServingContext, b: number): number {
  return (c.words[b + F.decodeLen] as number) + (c.words[b + F.generated] as number);
}

/** Decode's queues as `_allocatable_tokens` counts them. */
interface DecodeQueues {
  /** Free tokens (free pages × page size). */
  readonly free: number;
  readonly running: number;
  readonly transferring: number;
  readonly retracted: number;
  /** Tokens the running batch holds (`retractable_tokens` in `pop_preallocated`). */
  readonly retractable: number;
  /** The largest `max_new_tokens + input - retractable` over the running batch (0: none). */
  readonly single: number;
  /** What the retracted requests need to resume, reserve included. */
  readonly retractedNeed: number;
}

function decodeQueues(c: ServingContext, budget: DecodeBudget): DecodeQueues {
  const L = c.layout;
  let running = 0;
  let transferring = 0;
  let retracted = 0;
  let retractable = 0;
  let retractedNeed = 0;
  // The largest `max_new_tokens + input` in the running batch; `single` subtracts `retractable`.
  let largestNeed = 0;
  for (let i = 0; i < L.requests.length; i++) {
    const b = L.block(i);
    if (inRunningBatch(c, i, budget)) {
      running++;
      retractable += accountedTokens(c, b);
      const need = (budget.outputs[i] as number) + (c.words[b + F.decodeLen] as number);
      largestNeed = Math.max(largestNeed, need);
    } else if (inTransferQueue(c, b)) transferring++;
    else if (isRetracted(c, b)) {
      retracted++;
      retractedNeed += accountedTokens(c, b) + budget.reserved;
    }
  }
  const single = running > 0 ? Math.max(0, largestNeed - retractable) : 0;
  const free = freeCount(c.words, L.decode) * L.pageSize;
  return { free, running, transferring, retracted, retractable, single, retractedNeed };
}

/**
 * Whether decode's prealloc queue preallocates `rid` now, by SGLang's budget
 * (`DecodePreallocQueue.pop_preallocated` and `_allocatable_tokens` in `disaggregation/decode.py`):
 * no retracted request is waiting (`process_decode_queue` preallocates nothing while one is), and
 * the request's prompt plus the reserve, and its prompt plus `max_new_tokens` less what the
 * running batch could give back by retraction, both fit in the free tokens less the larger of
 * the reserve per running and transferring request and the largest single running request's
 * need with all others retracted, less what retracted requests need to resume.
 */
export function preallocWithinBudget(
  c: ServingContext,
  rid: RequestId,
  budget: DecodeBudget,
): boolean {
  const q = decodeQueues(c, budget);
  if (q.retracted > 0) return false;
  const { i, b } = at(c, rid);
  const input = c.words[b + F.decodeLen] as number;
  const allocatable =
    q.free - Math.max(budget.reserved * (q.running + q.transferring), q.single) - q.retractedNeed;
  const required = input + budget.reserved;
  return Math.max(required, input + (budget.outputs[i] as number) - q.retractable) <= allocatable;
}

/**
 * Whether the running batch's next decode step needs more pages than are free
 * (`ScheduleBatch.check_decode_mem`: a page for each request whose row is full).
 */
function decodeBatchShort(c: ServingContext, budget: DecodeBudget): boolean {
  const L = c.layout;
  const w = c.words;
  let need = 0;
  for (let i = 0; i < L.requests.length; i++) {
    if (!inRunningBatch(c, i, budget)) continue;
    const b = L.block(i);
    if (Math.floor((w[b + F.seqLen] as number) / L.pageSize) >= listLen(w, b, L.lists.decodePages))
      need++;
  }
  return need > freeCount(w, L.decode);
}

/**
 * Whether decode retracts `rid` now (`ScheduleBatch.retract_decode`): the batch's next step does
 * not fit, the batch has another request (the last one is never retracted), and `rid` comes
 * first in retraction order: fewest output tokens, then the longest input. Requests equal in
 * both may each be the one (the engine's order among them is its batch order, which the model
 * does not keep).
 */
export function retractionVictim(c: ServingContext, rid: RequestId, budget: DecodeBudget): boolean {
  const L = c.layout;
  const r = at(c, rid);
  if (!L.mechanisms.retraction || !inRunningBatch(c, r.i, budget)) return false;
  if (!decodeBatchShort(c, budget)) return false;
  const w = c.words;
  const out = w[r.b + F.generated] as number;
  const input = w[r.b + F.decodeLen] as number;
  let others = 0;
  for (let i = 0; i < L.requests.length; i++) {
    if (i === r.i || !inRunningBatch(c, i, budget)) continue;
    others++;
    const b = L.block(i);
    const o = w[b + F.generated] as number;
    if (o < out || (o === out && (w[b + F.decodeLen] as number) > input)) return false;
  }
  return others > 0;
}

/**
 * Decode retracts `rid` (`retract_decode` → `release_req`): in PD decode the request's KV is
 * copied to host memory (`Req.offload_kv_cache`), one entry per position `[0, seq_len)` with the
 * slot's last writer, and its pages are freed without being cleared.
 */
export function retractDecode(c: ServingContext, rid: RequestId): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  const row = pagesIn(c, r.b, L.lists.decodePages);
  forEachWriter(w, L.decode, L.pageSize, row, w[r.b + F.seqLen] as number, (_page, writer) =>
    listPush(w, r.b, L.lists.hostKv, writer),
  );
  freeRow(c, r.b, 'decode');
  w[L.retractPending] = 1;
}

/**
 * Whether retracted request `rid` resumes now (`DecodePreallocQueue.resume_retracted_reqs`):
 * the batch has run a step since the last retraction (the engine resumes at the start of the
 * next iteration, after the forward of the one that retracted), and its pages for
 * `seq_len` positions plus the reserve fit in the free tokens less the reserve per running and
 * transferring request.
 */
export function resumeFits(c: ServingContext, rid: RequestId, budget: DecodeBudget): boolean {
  const L = c.layout;
  const w = c.words;
  if (w[L.retractPending] === 1) return false;
  const { b } = at(c, rid);
  const q = decodeQueues(c, budget);
  const pages = pagesFor(listLen(w, b, L.lists.hostKv), L.pageSize);
  const allocatable = q.free - budget.reserved * (q.running + q.transferring);
  return pages * L.pageSize + budget.reserved <= allocatable && canAllocate(w, L.decode, pages);
}

/**
 * A retracted request resumes: pages for its `seq_len` positions are allocated (`_pre_alloc`)
 * and its host copy is loaded into them (`Req.load_kv_cache`), each slot taking the writer it
 * had when it was offloaded; the host copy is released.
 */
export function resumeDecode(c: ServingContext, rid: RequestId): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  const host = L.lists.hostKv;
  const len = listLen(w, r.b, host);
  if (!allocatePages(w, L.decode, r.code, pagesFor(len, L.pageSize), r.b, L.lists.decodePages))
    return;
  const row = pagesIn(c, r.b, L.lists.decodePages);
  const provenance = (pos: number): number => listAt(w, r.b, host, pos);
  writePositions(w, L.decode, L.pageSize, r.code, row, 0, len, provenance);
  listClear(w, r.b, host);
}

/** A retracted request leaves without resuming (its client aborted): its host copy is dropped. */
export function dropHostCopy(c: ServingContext, rid: RequestId): void {
  listClear(c.words, at(c, rid).b, c.layout.lists.hostKv);
}
