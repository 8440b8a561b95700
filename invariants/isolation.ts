/**
 * Tenant isolation: the properties the 2026 incident broke. A rejected prompt was swapped for a
 * one-token placeholder, prefilled and handed off anyway; decode committed the full length and
 * attended over pages that still held another tenant's KV.
 */
import { slotOf } from '../machines/kvPagePool.ts';
import { property } from './property.ts';
import {
  isDecoding,
  regionPath,
  rejectedBy,
  requestEntries,
  tenantOf,
  wasRejected,
  who,
} from './vocabulary.ts';

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
    trigger: {
      fires: (s) => requestEntries(s).some(([, r]) => wasRejected(r)),
      vacuity: 'no request was rejected at intake',
    },
  },
  (s) => {
    for (const [rid, r] of requestEntries(s)) {
      if (!wasRejected(r) || !(r.kvSent || r.committed)) continue;
      const what = [
        r.kvSent ? 'KV was sent for its room' : '',
        r.committed ? 'decode committed it' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `${who(s, rid)} was rejected at intake by ${rejectedBy(r)}, yet ${what}`;
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
    trigger: {
      fires: (s) => requestEntries(s).some(([, r]) => wasRejected(r)),
      vacuity: 'no request was rejected at intake',
    },
  },
  (s) => {
    for (const [rid, r] of requestEntries(s)) {
      const held: string[] = [];
      if (r.rejectedOnPrefill) {
        if (regionPath(s, rid, 'transfer') !== 'unopened') held.push('a bootstrap room');
        if (r.prefilled > 0) held.push('a prefill forward');
        if (r.prefillPages.length > 0) held.push(`prefill pages ${r.prefillPages.join(', ')}`);
      }
      if (r.rejectedOnDecode) {
        if (r.decodePages.length > 0) held.push(`decode pages ${r.decodePages.join(', ')}`);
        if (r.auxSlot !== undefined && r.auxSlot !== null) {
          held.push(`decode metadata slot ${r.auxSlot}`);
        }
        if (r.reads.some((x) => x.node === 'decode')) held.push('a decode forward');
      }
      if (held.length > 0) {
        return `${who(s, rid)} was rejected at intake by ${rejectedBy(r)}, yet has ${held.join(', ')}`;
      }
    }
    return null;
  },
);

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
    trigger: {
      fires: (s) => requestEntries(s).some(([, r]) => r.reads.some((x) => x.writer !== null)),
      vacuity: 'no request read a slot that any request had written',
    },
  },
  (s) => {
    for (const [rid, r] of requestEntries(s)) {
      const own = tenantOf(s, rid);
      const foreign = r.reads.find((x) => x.writer !== null && tenantOf(s, x.writer) !== own);
      if (foreign?.writer) {
        return `${who(s, rid)} read ${foreign.node} page ${foreign.page}, last written by ${who(s, foreign.writer)}`;
      }
    }
    return null;
  },
);

/**
 * Decode runs a request only over KV that request wrote.
 *
 * Guards: #38704 (transferred-length coverage): decode committed `seq_len` = the full prompt
 * after a one-page transfer, with no check of what arrived.
 */
export const coverageBeforeCommit = property(
  'While decode runs a committed request, every position below its sequence length holds KV that request wrote.',
  {
    guards: 'the 2026 incident; #38704 (decode-side coverage check)',
    trigger: {
      fires: (s) => requestEntries(s).some(([rid]) => isDecoding(s, rid)),
      vacuity: 'decode never ran a committed request',
    },
  },
  (s) => {
    const pool = s.context.decodePool;
    for (const [rid, r] of requestEntries(s)) {
      if (!isDecoding(s, rid)) continue;
      const missing: string[] = [];
      for (let pos = 0; pos < r.seqLen; pos++) {
        const slot = slotOf(r.decodePages, pos, pool.pageSize);
        const writer = slot === null ? null : pool.writer[slot];
        if (writer !== rid) missing.push(`${pos} (${writer ?? 'never written'})`);
      }
      if (missing.length > 0) {
        return `${who(s, rid)} runs with seq_len ${r.seqLen} but ${r.kvArrived} position(s) arrived; positions not its own: ${missing.join(', ')}`;
      }
    }
    return null;
  },
);
