/**
 * The bounds of one model-checking run: tenants, requests and the sizes that decide verdicts.
 *
 * Lengths are abstract (a handful of tokens) but their order relations are the deployment's:
 * prompt length against the context window, against each pool's scheduler limit
 * (`maxReqInputLen`) and against each pool's capacity.
 */

/** A request id: a short identifier, also used as a state-node key (no dots). */
export type RequestId = string;

/** A tenant name, as a router or gateway would label the customer. */
export type TenantId = string;

/** Which server a pool or an attention read belongs to. */
export type NodeRole = 'prefill' | 'decode';

/** How KV moves from prefill to decode (see `Scenario.transfer`). */
export type TransferMode = 'push' | 'pull';

/** One client request as the router receives it. */
export interface RequestSpec {
  /** Unique id; letters, digits, `_` and `-`, starting with a letter. */
  readonly id: RequestId;
  /** The tenant that sent it. */
  readonly tenant: TenantId;
  /** Prompt length in tokens (at least 1). */
  readonly promptLen: number;
  /** Tokens to generate (`max_new_tokens`, at least 1); the first one comes from prefill. */
  readonly outputLen: number;
  /**
   * The shared prefix the prompt starts with (absent: none). Requests naming the same `group`
   * start with the same `len` tokens (`1 <= len <= promptLen`), which prefill's prefix cache
   * may share between them when their cache salts match (see `machines/prefixCache.ts`). Naming
   * a prefix on any request turns the cache on.
   */
  readonly prefix?: { readonly group: string; readonly len: number };
  /**
   * A client-supplied bootstrap room (`GenerateReqInput.bootstrap_room`; absent: the router
   * draws one, and drawn rooms are taken as distinct). Requests naming the same room collide:
   * both sides key their per-room state (KVPoll status, prefill's `transfer_infos`) by the room
   * alone, so the incarnations share it (see `machines/rooms.ts`).
   */
  readonly room?: string;
}

/** The deployment, scaled down: the order relations between these numbers are what matters. */
export interface Scenario {
  /** Name used on the command line and in reports. */
  readonly name: string;
  /** One sentence saying what the scenario shows. */
  readonly description: string;
  /** Requests in dispatch order. */
  readonly requests: readonly RequestSpec[];
  /** Tokens per KV page (`--page-size`). */
  readonly pageSize: number;
  /** Prefill KV pool capacity in tokens (`max_total_num_tokens` on prefill). */
  readonly prefillPoolTokens: number;
  /** Decode KV pool capacity in tokens. */
  readonly decodePoolTokens: number;
  /** Advertised context window in tokens. */
  readonly contextLen: number;
  /** The scheduler's reserve subtracted from `max_req_len` (5 in SGLang). */
  readonly reserve: number;
  /** Whether a room may fail at any point before Success (dead peer, RDMA error). */
  readonly transferFaults: boolean;
  /**
   * With `transferFaults`: at most this many rooms fail in one run, at least 1 (absent: any
   * number). A fault budget, as TLA+ specifications bound failures: it keeps a scenario with
   * several requests finite in practice while still placing the fault at every point of every
   * interleaving.
   */
  readonly maxTransferFaults?: number;
  /**
   * Chunked prefill: a prompt is computed in this many chunks (at least 1); each chunk but the
   * last sends its page-aligned prefix of KV at once. A one-token placeholder is one chunk.
   */
  readonly prefillChunks: number;
  /** Whether a client may abort a request before the router has replied. */
  readonly clientAborts: boolean;
  /** With `clientAborts`: at most this many clients abort in one run, at least 1 (absent: any). */
  readonly maxClientAborts?: number;
  /**
   * Late transfer writes (absent: off). A KV write the transfer worker has posted is not
   * cancelled when the room fails on an abort: it lands afterwards, into the destination pages
   * and aux slot that decode sent in its metadata. Off: an abort drops a write still in flight.
   */
  readonly lateWrites?: boolean;
  /**
   * Decode's metadata (aux) slots, a pool of this many (absent: not modelled). A slot is taken
   * at prealloc, written by prefill's last chunk with the room's aux data, read at commit for
   * the first token, and freed (and its room reset, #27374) when decode releases the request.
   */
  readonly auxSlots?: number;
  /**
   * Prefill errors after the forward (absent: off). Processing a request's batch result may hit
   * an error (a grammar rejecting the first output token, #30937) after its last chunk was
   * enqueued and before the write completes; the abort is pending (`to_finish`) while the
   * transfer is in flight.
   */
  readonly prefillErrors?: boolean;
  /**
   * Decode's `num_reserved_decode_tokens`, scaled (absent: 0). Decode's prealloc queue keeps this
   * many tokens free per running or transferring request before it preallocates another, and a
   * retracted request needs this many on top of its own to resume. SGLang's default, 512 tokens,
   * is below one token at the pools of ten tokens the built-in scenarios use; the budget's other
   * term (every running request must be able to finish with the others retracted) applies at
   * any reserve.
   */
  readonly decodeReservedTokens?: number;
  /**
   * How KV moves from prefill to decode (absent: `push`). `push` is SGLang's: prefill's transfer
   * worker writes into the pages decode preallocated and sent (`transferRegion.ts`). `pull` is
   * vLLM's NIXL connector: prefill finishes, keeps its pages under a lease and hands their ids
   * on; decode allocates its own and reads prefill's with a one-sided READ, then notifies
   * prefill, which frees them, or frees them when the lease expires
   * (`pullTransferRegion.ts`). Pull mode takes no chunked prefill, aux slots, prefill errors or
   * shared rooms (those mechanisms are SGLang's push path's), and its READ, once posted, is
   * never cancelled: it lands as a late write does.
   */
  readonly transfer?: TransferMode;
  /** Witnesses this scenario must reach for a pass to count (see `invariants/witnesses.ts`). */
  readonly witnesses: readonly string[];
}

/**
 * The scheduler's input limit on one node: `min(contextLen - 1, poolTokens - 1) - reserve`
 * (SGLang `tp_worker.py`). A prompt of this length or longer is rejected by the scheduler.
 */
export function maxReqInputLen(scenario: Scenario, role: NodeRole): number {
  const pool = role === 'prefill' ? scenario.prefillPoolTokens : scenario.decodePoolTokens;
  return schedulerLimit(scenario.contextLen, pool, scenario.reserve);
}

/**
 * `maxReqInputLen` from plain numbers: `min(contextLen - 1, poolTokens - 1) - reserve`, for a
 * real deployment's sizes as well as a scenario's.
 */
export function schedulerLimit(contextLen: number, poolTokens: number, reserve: number): number {
  return Math.min(contextLen - 1, poolTokens - 1) - reserve;
}

/** Number of pages in a node's pool (capacity rounded down to whole pages). */
export function poolPages(scenario: Scenario, role: NodeRole): number {
  const pool = role === 'prefill' ? scenario.prefillPoolTokens : scenario.decodePoolTokens;
  return Math.floor(pool / scenario.pageSize);
}

/** Pages needed to hold `tokens` KV slots. */
export function pagesFor(tokens: number, pageSize: number): number {
  return Math.ceil(tokens / pageSize);
}

/** Whether any request of `scenario` names a shared prefix: the prefix cache is modelled only then. */
export function prefixCacheOn(scenario: Scenario): boolean {
  return scenario.requests.some((r) => r.prefix !== undefined);
}

/** The request spec for `rid`; throws if the scenario has no such request (a programming error). */
export function requestSpec(scenario: Scenario, rid: RequestId): RequestSpec {
  const spec = scenario.requests.find((r) => r.id === rid);
  if (!spec) throw new Error(`scenario ${scenario.name} has no request ${rid}`);
  return spec;
}

/** Tokens per prefill chunk for a prompt of `len` tokens (the last chunk may be shorter). */
export function chunkTokens(scenario: Scenario, len: number): number {
  return Math.max(1, Math.ceil(len / Math.max(1, scenario.prefillChunks)));
}

/**
 * Each request's room index, in request order: requests naming the same `room` share an index,
 * every other request has one of its own.
 */
export function roomIndices(scenario: Scenario): number[] {
  const named = new Map<string, number>();
  let next = 0;
  return scenario.requests.map((r) => {
    if (r.room === undefined) return next++;
    const known = named.get(r.room);
    if (known !== undefined) return known;
    named.set(r.room, next);
    return next++;
  });
}

/** Whether two requests of `scenario` name the same bootstrap room. */
export function roomsCollide(scenario: Scenario): boolean {
  const rooms = scenario.requests.flatMap((r) => (r.room === undefined ? [] : [r.room]));
  return new Set(rooms).size < rooms.length;
}

/** Distinct tenants in first-appearance order. */
export function tenantsOf(scenario: Scenario): TenantId[] {
  return [...new Set(scenario.requests.map((r) => r.tenant))];
}
