/**
 * Bootstrap rooms shared by several requests (incarnations), after SGLang's per-room tables. Both
 * sides key what they know of a transfer by the room alone (`CommonKVManager.request_status`,
 * prefill's `transfer_infos[room]` filled by its bootstrap thread), with no incarnation id, and a
 * client may supply the room (`GenerateReqInput.bootstrap_room`; #40125, #28003). Two requests
 * that name one room therefore share:
 *
 * - prefill's `transfer_infos[room]`: the destination (pages) of the last decode incarnation whose
 *   metadata arrived. The transfer worker writes every chunk of the room there, whichever
 *   incarnation's sender sent it (`roomDst`). Prefill's `clear()` after a request's release pops
 *   it, a live incarnation's entry included.
 * - decode's status entry: `update_status` keeps the larger status and lets Failed override,
 *   and every receiver of the room polls the same entry until it concludes. A Success or Failed
 *   that one incarnation's transfer set is what another incarnation's poll reads, until decode's
 *   `clear()` (at commit, or when it ends a failed request) removes the entry (`roomConcluded`).
 *
 * The request's own transfer region stays its own view of the room; these words carry what the
 * incarnations share. Every function here does nothing without shared rooms.
 */
import { kvPoll, type ServingContext } from './context.ts';
import { F, type RequestPlace } from './layout.ts';

/** `roomConcluded` values. */
const concluded = { none: 0, success: 1, failed: 2 } as const;

/** The word of `what` for request `r`'s room. */
function roomWord(c: ServingContext, r: RequestPlace, what: 'roomDst' | 'roomConcluded'): number {
  return c.layout[what] + (c.layout.roomOf[r.i] as number);
}

/** Decode's metadata for `r` reaches prefill's bootstrap thread: `transfer_infos[room]` is `r`'s. */
export function registerDestination(c: ServingContext, r: RequestPlace): void {
  if (c.layout.mechanisms.sharedRooms) c.words[roomWord(c, r, 'roomDst')] = r.code;
}

/**
 * The code of the request whose destination the transfer worker writes `r`'s chunks into: `r`
 * itself without shared rooms, else whatever `transfer_infos[room]` holds (0: nothing).
 */
export function destinationOf(c: ServingContext, r: RequestPlace): number {
  return c.layout.mechanisms.sharedRooms ? (c.words[roomWord(c, r, 'roomDst')] as number) : r.code;
}

/** Prefill's `clear()` for `r`'s room: `transfer_infos[room]` is popped, whoever registered it. */
export function clearPrefillEntry(c: ServingContext, r: RequestPlace): void {
  if (c.layout.mechanisms.sharedRooms) c.words[roomWord(c, r, 'roomDst')] = 0;
}

/**
 * `r`'s room reached KVPoll `poll`: on Failed or Success, decode's shared entry keeps Success
 * unless Failed overrides it. Other values change nothing here.
 */
export function concludeRoom(c: ServingContext, r: RequestPlace, poll: number): void {
  if (!c.layout.mechanisms.sharedRooms) return;
  const at = roomWord(c, r, 'roomConcluded');
  if (poll === kvPoll.failed) c.words[at] = concluded.failed;
  else if (poll === kvPoll.success && c.words[at] === concluded.none)
    c.words[at] = concluded.success;
}

/** Decode's `clear()` for `r`'s room (at commit, or ending a failed request). */
export function clearDecodeEntry(c: ServingContext, r: RequestPlace): void {
  if (c.layout.mechanisms.sharedRooms) c.words[roomWord(c, r, 'roomConcluded')] = concluded.none;
}

/** Whether decode's entry for `r`'s room reads Success (or Failed, with `failed`). */
export function roomEntryIs(c: ServingContext, r: RequestPlace, failed: boolean): boolean {
  if (!c.layout.mechanisms.sharedRooms) return false;
  const want = failed ? concluded.failed : concluded.success;
  return c.words[roomWord(c, r, 'roomConcluded')] === want;
}

/** Records on `r` a `roomCrossed` bit (see `layout.ts`). */
export function markCrossed(c: ServingContext, r: RequestPlace, bit: 1 | 2 | 4): void {
  c.words[r.b + F.roomCrossed] = (c.words[r.b + F.roomCrossed] as number) | bit;
}

/**
 * Whether another request of `r`'s room is in flight at the router: dispatched and not yet
 * answered. What a router that refuses a client-supplied room already in use checks (#40185).
 */
export function roomHeld(c: ServingContext, r: RequestPlace): boolean {
  const L = c.layout;
  if (!L.mechanisms.sharedRooms) return false;
  for (let i = 0; i < L.requests.length; i++) {
    if (i === r.i || L.roomOf[i] !== L.roomOf[r.i]) continue;
    const b = L.block(i);
    if (c.words[b + F.dispatched] === 1 && c.words[b + F.clientReplyStatus] === 0) return true;
  }
  return false;
}
