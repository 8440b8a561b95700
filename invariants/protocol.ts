/**
 * Protocol properties: the KV transfer's status discipline and what the client is told.
 */
import { type AbortCause, abortCauseNames, kvPoll } from '../machines/context.ts';
import type { RequestView } from '../machines/servingView.ts';
import { property } from './property.ts';
import {
  regionAt,
  regionPath,
  requestsOf,
  type ServingState,
  someRequest,
  wasRejected,
  who,
} from './vocabulary.ts';

const pollOfState: Readonly<Record<string, number>> = {
  unopened: -1,
  awaitingSender: kvPoll.waitingForInput,
  abandoned: kvPoll.failed,
  bootstrapping: kvPoll.bootstrapping,
  waitingForInput: kvPoll.waitingForInput,
  leased: kvPoll.waitingForInput,
  transferring: kvPoll.transferring,
  draining: kvPoll.failed,
  success: kvPoll.success,
  failed: kvPoll.failed,
};

/** Whether `r`'s bootstrap room was opened (its transfer region left `unopened`). */
function roomOpened(r: RequestView, s: ServingState): boolean {
  return !regionAt(s, r.id, 'transfer', 'unopened');
}

/** Whether `r` was rejected or aborted and the router answered it. */
function failedAndAnswered(r: RequestView): boolean {
  return r.clientStatus !== 0 && (wasRejected(r) || r.aborted);
}

const causeText: Readonly<Record<AbortCause, string>> = {
  transferFailed: 'the transfer failed',
  bootstrapTimeout: 'the bootstrap timed out',
  prefillError: 'a prefill error',
  waitTimeout: 'the wait for KV timed out',
  commitRefused: 'the commit was refused',
};

/** Who aborted `r` and why, in words: each side with its cause, then the client. */
function abortedBy(r: RequestView): string {
  const parts: string[] = [];
  const side = (name: string, code: number) => {
    const cause = abortCauseNames[code];
    if (cause) parts.push(`on ${name} (${causeText[cause]})`);
  };
  side('prefill', r.prefillAbort);
  side('decode', r.decodeAbort);
  if (r.clientAborted) parts.push('by the client');
  return parts.join(' and ');
}

/** Whether either side replied to `r`. */
function sideReplied(r: RequestView): boolean {
  return r.repliesPrefill + r.repliesDecode > 0;
}

/** KVPoll moves forward only, Failed overrides and sticks, Success means KV was sent. */
export const kvPollMonotone = property(
  'A room’s KVPoll only moves forward (Bootstrapping, WaitingForInput, Transferring, Success), except to Failed, which is final; Success implies KV was sent.',
  {
    guards:
      'SGLang `CommonKVManager.update_status` (max rule; Failed overrides any status, Success included, and is sticky); no resurrection after clear',
    reads: { request: ['kvSent', 'pollFailed', 'pollPeak'], regions: ['transfer'] },
    trigger: {
      fires: (s) => someRequest(s, roomOpened),
      vacuity: 'no bootstrap room was opened',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const rid = r.id;
      const at = regionPath(s, rid, 'transfer');
      const poll = pollOfState[at];
      if (poll === undefined) return `${who(s, rid)}: room in unknown state ${at}`;
      if (r.pollFailed && poll !== kvPoll.failed) {
        return `${who(s, rid)}: room left Failed for ${at}`;
      }
      if (poll !== kvPoll.failed && poll < r.pollPeak) {
        return `${who(s, rid)}: room went back to ${at} (KVPoll ${poll}) after reaching ${r.pollPeak}`;
      }
      if (poll === kvPoll.success && !r.kvSent)
        return `${who(s, rid)}: room is Success but no KV was sent`;
    }
    return null;
  },
);

/** What each `roomCrossed` bit means, as a violation says it. */
const crossedText: readonly [number, string][] = [
  [1, 'acted on a KVPoll status another request of its bootstrap room set'],
  [2, 'received KV another request of its bootstrap room sent'],
  [4, 'sent its KV into another request’s pages, or to no destination, through their shared room'],
];

/** Whether `r` and another request of its room have both been admitted on some side. */
function shareAdmittedRoom(r: RequestView, s: ServingState): boolean {
  const L = r.layout;
  if (!L.mechanisms.sharedRooms || r.prefillLen + r.decodeLen === 0) return false;
  const rs = requestsOf(s);
  for (let i = 0; i < rs.length; i++) {
    const q = rs[i] as RequestView;
    if (q.i !== r.i && L.roomOf[q.i] === L.roomOf[r.i] && q.prefillLen + q.decodeLen > 0) {
      return true;
    }
  }
  return false;
}

/** No status or write of one incarnation of a bootstrap room reaches another. */
export const statusPerIncarnation = property(
  'A request never acts on a KVPoll status, or receives KV, that another request of the same bootstrap room produced.',
  {
    guards:
      '#40185 (a client-supplied room a live request holds is refused); #40125, #28003, #27643 (colliding rooms); #24539 (a Failed re-created after clear)',
    reads: { request: ['roomCrossed', 'prefillLen', 'decodeLen'] },
    trigger: {
      fires: (s) => someRequest(s, shareAdmittedRoom),
      vacuity: 'no two requests of one bootstrap room were admitted',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const crossed = r.roomCrossed;
      if (crossed === 0) continue;
      const what = crossedText.filter(([bit]) => (crossed & bit) !== 0).map(([, t]) => t);
      return `${who(s, r.id)} ${what.join(', and ')}`;
    }
    return null;
  },
);

/** A request that failed anywhere is never answered with a success carrying tokens. */
export const errorReachesClient = property(
  'A request rejected or aborted on either side never gets a success reply with tokens.',
  {
    guards:
      'the 2026 incident (HTTP 200 over another tenant’s KV); #33507 (Success overwrites the pending abort); mini_lb returns decode’s status',
    reads: {
      request: [
        'clientReplyStatus',
        'clientReplyTokens',
        'rejectedOnPrefill',
        'rejectedOnDecode',
        'prefillAbort',
        'decodeAbort',
        'clientAborted',
      ],
    },
    trigger: {
      fires: (s) => someRequest(s, failedAndAnswered),
      vacuity: 'no rejected or aborted request was answered',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const status = r.clientStatus;
      const tokens = r.clientTokens;
      if (status === 0 || status >= 400 || tokens === 0) continue;
      if (wasRejected(r) || r.aborted) {
        const why = wasRejected(r) ? 'rejected at intake' : `aborted ${abortedBy(r)}`;
        return `${who(s, r.id)} was ${why} but the client got ${status} with ${tokens} token(s)`;
      }
    }
    return null;
  },
);

/** One terminal reply per side, and one forwarded to the client. */
export const singleTerminalResponse = property(
  'Each side replies to a request at most once, and the router forwards at most one reply.',
  {
    guards:
      '#36988 (an abort is streamed exactly once); #36926 (a late chunk result after an abort)',
    reads: { request: ['repliesPrefill', 'repliesDecode', 'repliesClient'] },
    trigger: {
      fires: (s) => someRequest(s, sideReplied),
      vacuity: 'no side ever replied',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const prefill = r.repliesPrefill;
      const decode = r.repliesDecode;
      const client = r.repliesClient;
      if (prefill > 1 || decode > 1 || client > 1) {
        return `${who(s, r.id)}: replies prefill=${prefill} decode=${decode} client=${client}`;
      }
    }
    return null;
  },
);
