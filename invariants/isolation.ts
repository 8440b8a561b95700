/**
 * Tenant isolation: the properties the 2026 incident broke. A rejected prompt was swapped for a
 * one-token placeholder, prefilled and handed off anyway; decode committed the full length and
 * attended over pages that still held another tenant's KV.
 */
import { type PoolView, poolView, type RequestView } from '../machines/servingView.ts';
import { property, type Trigger } from './property.ts';
import {
  isDecoding,
  rejectedBy,
  requestsOf,
  type ServingState,
  senderCreated,
  someRequest,
  tenantOfCode,
  wasRejected,
  who,
  writerAtPosition,
} from './vocabulary.ts';

/** Nodes in the decoded read set's order. */
const readOrder = ['decode', 'prefill'] as const;

/** The intake-rejection properties can fail only once some request was rejected at intake. */
const someRejectedTrigger: Trigger = {
  fires: (s) => someRequest(s, wasRejected),
  vacuity: 'no request was rejected at intake',
};

/**
 * A rejected request is never handed off to decode.
 *
 * Guards: the 2026 incident and #30233/#32605: an intake-rejected request got a sender, prefill
 * sent one page and decode committed it (fixed by #38935 at admission and #36988 after forward).
 */
export const rejectedNeverHandedOff = property(
  'A request rejected at intake on either side never has KV sent for its room and is never committed by decode.',
  {
    guards: 'the 2026 incident; #30233, #32605; fixed by #38935 and #36988',
    reads: { request: ['rejectedOnPrefill', 'rejectedOnDecode', 'kvSent', 'committed'] },
    trigger: someRejectedTrigger,
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (!wasRejected(r) || !(r.kvSent || r.committed)) continue;
      const what = [
        r.kvSent ? 'KV was sent for its room' : '',
        r.committed ? 'decode committed it' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `${who(s, r.id)} was rejected at intake by ${rejectedBy(r)}, yet ${what}`;
    }
    return null;
  },
);

/**
 * A request rejected at intake holds nothing on the side that rejected it: no bootstrap room
 * opened by prefill's sender, no page, no metadata slot, no forward.
 *
 * Guards: #38935 ("Do not admit intake-rejected requests to a PD handoff"): it retires such a
 * request at `PrefillBootstrapQueue.add` and `DecodePreallocQueue.add`, before a sender, a
 * receiver or any page exists. #36988 alone stops the leak after the forward, but the placeholder
 * still gets a sender, prefill pages and a forward, and decode still preallocates for it.
 *
 * Per side, as the engine is: decode's receiver learns the prefill server's bootstrap address
 * from a per-server table (`prefill_info_table` in `disaggregation/common/conn.py`), not from the
 * request's sender, so a request that only prefill rejected may still be preallocated on decode
 * until decode's waiting timeout. That is decode's side, which did not reject it; this property
 * does not claim it away. (The model does not yet let decode preallocate before prefill's
 * sender opened the room.)
 */
export const rejectedHoldsNothing = property(
  'A request rejected at intake by a side never runs a forward there and never holds a page or a metadata slot there; one rejected by prefill never opens a bootstrap room.',
  {
    guards: '#38935 (retire intake-rejected requests before the PD handoff)',
    reads: {
      request: [
        'rejectedOnPrefill',
        'rejectedOnDecode',
        'prefilled',
        'prefillPages',
        'decodePages',
        'auxSlot',
        'reads',
      ],
      regions: ['transfer'],
    },
    trigger: someRejectedTrigger,
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (holdsOnRejectingSide(s, r)) return heldOnRejectingSide(s, r);
    }
    return null;
  },
);

/** Whether `r` holds anything on a side that rejected it (allocation-free). */
function holdsOnRejectingSide(s: ServingState, r: RequestView): boolean {
  return (
    (r.rejectedOnPrefill &&
      (senderCreated(s, r.id) || r.prefilled > 0 || r.pageCount('prefill') > 0)) ||
    (r.rejectedOnDecode && (r.pageCount('decode') > 0 || r.auxSlot !== -1 || r.readOn('decode')))
  );
}

/** The violation message of `rejectedHoldsNothing` for `r`, which holds something. */
function heldOnRejectingSide(s: ServingState, r: RequestView): string {
  const held: string[] = [];
  if (r.rejectedOnPrefill) {
    if (senderCreated(s, r.id)) held.push('a bootstrap room');
    if (r.prefilled > 0) held.push('a prefill forward');
    if (r.pageCount('prefill') > 0) held.push(`prefill pages ${r.pages('prefill').join(', ')}`);
  }
  if (r.rejectedOnDecode) {
    if (r.pageCount('decode') > 0) held.push(`decode pages ${r.pages('decode').join(', ')}`);
    if (r.auxSlot !== -1) held.push(`decode metadata slot ${r.auxSlot}`);
    if (r.readOn('decode')) held.push('a decode forward');
  }
  return `${who(s, r.id)} was rejected at intake by ${rejectedBy(r)}, yet has ${held.join(', ')}`;
}

/**
 * Decode (and prefill) read only KV written by the same tenant.
 *
 * Guards: the 2026 incident: 155 replies built over pages that still held earlier requests' KV,
 * because freed pages are not scrubbed.
 */
export const noCrossTenantRead = property(
  'Every KV slot that prefill or decode reads for a request was last written by a request of the same tenant.',
  {
    guards: 'the 2026 incident (155 replies with other tenants’ data); pages are not scrubbed',
    reads: { request: ['reads'] },
    trigger: {
      fires: someWrittenRead,
      vacuity: 'no request read a slot that any request had written',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const message = foreignRead(s, r);
      if (message !== null) return message;
    }
    return null;
  },
);

/** Whether some request read a slot that some request had written. */
function someWrittenRead(s: ServingState): boolean {
  return someRequest(s, (r) => r.readWritten());
}

/**
 * The first read of `r`, in the read set's order, of a slot another tenant last wrote, as a
 * violation message; null when there is none (allocating nothing).
 */
function foreignRead(s: ServingState, r: RequestView): string | null {
  if (!r.readForeign()) return null;
  const L = r.layout;
  for (let n = 0; n < readOrder.length; n++) {
    const node = readOrder[n] as (typeof readOrder)[number];
    const pages = L.pool(node).pages;
    for (let page = 0; page < pages; page++) {
      for (let k = 0; k < L.writerOrder.length; k++) {
        const code = L.writerOrder[k] as number;
        if (code === 0 || !r.hasRead(node, page, code)) continue;
        if (tenantOfCode(s, code) === r.tenant) continue;
        const writer = L.idOf(code);
        if (writer) {
          return `${who(s, r.id)} read ${node} page ${page}, last written by ${who(s, writer)}`;
        }
      }
    }
  }
  return null;
}

/**
 * Decode runs a request only over KV that request wrote.
 *
 * Guards: #38704 (transferred-length coverage): decode committed `seq_len` = the full prompt
 * after a one-page transfer, with no check of what arrived.
 */
export const coverageBeforeCommit = property(
  'While decode runs a committed request, every position below its sequence length holds KV that arrived by its own transfer or that its own decode steps wrote.',
  {
    guards: 'the 2026 incident; #38704 (decode-side coverage check)',
    reads: {
      request: ['seqLen', 'kvArrived', 'decodePages'],
      pool: ['writer'],
      regions: ['decode'],
    },
    trigger: {
      fires: someDecoding,
      vacuity: 'decode never ran a committed request',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (!isDecoding(s, r.id)) continue;
      const pool = poolView(s.context, 'decode');
      if (coversOwnKv(pool, r)) continue;
      const missing: string[] = [];
      for (let pos = 0; pos < r.seqLen; pos++) {
        if (coveredAt(pool, r, pos)) continue;
        const writer = writerAtPosition(pool, r, pos);
        missing.push(`${pos} (${r.layout.idOf(writer) ?? 'never written'})`);
      }
      return `${who(s, r.id)} runs with seq_len ${r.seqLen} but ${r.kvArrived} position(s) arrived; positions not its own: ${missing.join(', ')}`;
    }
    return null;
  },
);

/** Whether decode runs some committed request. */
function someDecoding(s: ServingState): boolean {
  return someRequest(s, decoding);
}

function decoding(r: RequestView, s: ServingState): boolean {
  return isDecoding(s, r.id);
}

/**
 * Whether every position of `r`'s decode row below its sequence length is covered: it arrived
 * by `r`'s transfer (below `kvArrived`; the slot's writer is then whoever computed the prefill
 * slot it was copied from, a cached prefix's inserter included) or `r`'s own decode steps wrote it.
 */
function coversOwnKv(pool: PoolView, r: RequestView): boolean {
  for (let pos = 0; pos < r.seqLen; pos++) {
    if (!coveredAt(pool, r, pos)) return false;
  }
  return true;
}

function coveredAt(pool: PoolView, r: RequestView, pos: number): boolean {
  return pos < r.kvArrived || writerAtPosition(pool, r, pos) === r.code;
}
