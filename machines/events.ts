/**
 * The event alphabet of the composed serving system. Every event names the request it concerns
 * (`rid`); which request moves next is the checker's choice, so interleavings are explored, not
 * assumed. Time (`TIMEOUT`) and faults (`TRANSFER_FAIL`) are events too.
 */
import type { RequestId } from './scenario.ts';

/** An event addressed to one request's regions. */
interface RequestEvent<T extends string> {
  readonly type: T;
  readonly rid: RequestId;
}

/** Events the environment (router, schedulers, transfer worker, timers, faults) sends. */
export type ExternalEvent =
  /** router → prefill and decode: the request is posted to both sides with one bootstrap room */
  | RequestEvent<'DISPATCH'>
  /** prefill tokenizer + scheduler: the two length checks run and the request is queued or rejected */
  | RequestEvent<'PREFILL_INTAKE'>
  /** decode tokenizer + scheduler: the same checks against decode's own pool */
  | RequestEvent<'DECODE_INTAKE'>
  /** decode scheduler: pages are preallocated for the full length and their ids sent to prefill */
  | RequestEvent<'DECODE_PREALLOC'>
  /** prefill scheduler: `pop_bootstrapped` sees WaitingForInput, inits the sender, queues the request */
  | RequestEvent<'PREFILL_BOOTSTRAPPED'>
  /** prefill scheduler: the forward pass allocates prefill pages and writes the prompt's KV */
  | RequestEvent<'PREFILL_FORWARD'>
  /** prefill scheduler: the batch result sends the last KV chunk (or retires an aborted result) */
  | RequestEvent<'SEND_KV'>
  /**
   * transfer worker → decode: the KV chunk (and, with the last chunk, the aux data) lands in
   * decode's pages; room Success. With `lateWrites`, also a write still in flight after the room
   * failed, which then leaves `draining` for Failed.
   */
  | RequestEvent<'KV_WRITE_DONE'>
  /** prefill scheduler: the inflight queue polls the room and releases the request */
  | RequestEvent<'PREFILL_RELEASE'>
  /** decode scheduler: `pop_transferred` sees Success and commits the request (seq_len set) */
  | RequestEvent<'DECODE_COMMIT'>
  /** decode scheduler: the room polled Failed; the request is aborted and its pages freed */
  | RequestEvent<'DECODE_TRANSFER_FAILED'>
  /** decode scheduler: one decode forward: store the new token's KV, attend over [0, seq_len] */
  | RequestEvent<'DECODE_STEP'>
  /** decode scheduler: `check_finished` ends the request; its pages are freed */
  | RequestEvent<'DECODE_FINISH'>
  /** decode scheduler: `retract_decode`: the batch's next step finds no page; KV to host, pages freed */
  | RequestEvent<'DECODE_RETRACT'>
  /** decode scheduler: `resume_retracted_reqs`: pages again, KV loaded back from host */
  | RequestEvent<'DECODE_RESUME'>
  /** timer → decode or prefill: the handshake or the KV can no longer come (the other side has retired it) */
  | RequestEvent<'TIMEOUT'>
  /** timer → prefill, pull mode: the lease on a finished request's blocks expires and prefill frees them */
  | RequestEvent<'LEASE_EXPIRED'>
  /** fault → transfer: the room fails (dead peer, RDMA error) */
  | RequestEvent<'TRANSFER_FAIL'>
  /** router → client: the router returns its reply for the request */
  | RequestEvent<'ROUTER_REPLY'>
  /** client → router: the client gives up on the request (disconnect, cancel) */
  | RequestEvent<'CLIENT_ABORT'>
  /** prefill scheduler: processing the batch result hits an error (a grammar rejects the first token) while the last chunk is in flight */
  | RequestEvent<'PREFILL_ERROR'>;

/** Events one region raises for another inside the same step (statechart broadcast). */
export type InternalEvent =
  /** prefill → transfer: a KV sender was created; the room starts Bootstrapping */
  | RequestEvent<'SENDER_CREATED'>
  /** decode → transfer: destination pages and the aux slot were sent; WaitingForInput */
  | RequestEvent<'METADATA_SENT'>
  /** prefill → transfer: the last chunk was enqueued; Transferring */
  | RequestEvent<'KV_CHUNK_SENT'>
  /** prefill → transfer: the sender was aborted or its bootstrap timed out; the room fails */
  | RequestEvent<'SENDER_ABORTED'>
  /** decode → transfer: the receiver was aborted; the room fails */
  | RequestEvent<'RECEIVER_ABORTED'>
  /** router → prefill and decode: `abort_request` for a request the client gave up on */
  | RequestEvent<'REQUEST_ABORTED'>;

/** Every event the composed machine accepts. */
export type ServingEvent = ExternalEvent | InternalEvent;

/** Type names of the events the environment can send, in a fixed order. */
export const externalEventTypes = [
  'DISPATCH',
  'PREFILL_INTAKE',
  'DECODE_INTAKE',
  'DECODE_PREALLOC',
  'PREFILL_BOOTSTRAPPED',
  'PREFILL_FORWARD',
  'SEND_KV',
  'KV_WRITE_DONE',
  'PREFILL_RELEASE',
  'DECODE_COMMIT',
  'DECODE_TRANSFER_FAILED',
  'DECODE_STEP',
  'DECODE_FINISH',
  'DECODE_RETRACT',
  'DECODE_RESUME',
  'TIMEOUT',
  'LEASE_EXPIRED',
  'TRANSFER_FAIL',
  'ROUTER_REPLY',
  'CLIENT_ABORT',
  'PREFILL_ERROR',
] as const satisfies readonly ExternalEvent['type'][];

/** Who performs each external event, for traces and sequence diagrams. */
export const eventActor: Readonly<Record<ExternalEvent['type'], string>> = {
  DISPATCH: 'router',
  PREFILL_INTAKE: 'prefill scheduler',
  DECODE_INTAKE: 'decode scheduler',
  DECODE_PREALLOC: 'decode scheduler',
  PREFILL_BOOTSTRAPPED: 'prefill scheduler',
  PREFILL_FORWARD: 'prefill scheduler',
  SEND_KV: 'prefill scheduler',
  KV_WRITE_DONE: 'transfer',
  PREFILL_RELEASE: 'prefill scheduler',
  DECODE_COMMIT: 'decode scheduler',
  DECODE_TRANSFER_FAILED: 'decode scheduler',
  DECODE_STEP: 'decode scheduler',
  DECODE_FINISH: 'decode scheduler',
  DECODE_RETRACT: 'decode scheduler',
  DECODE_RESUME: 'decode scheduler',
  TIMEOUT: 'timer',
  LEASE_EXPIRED: 'timer',
  TRANSFER_FAIL: 'fault',
  ROUTER_REPLY: 'router',
  CLIENT_ABORT: 'client',
  PREFILL_ERROR: 'prefill scheduler',
};
