/**
 * Tenant isolation: the properties the 2026 incident broke. A rejected prompt was swapped for a
 * one-token placeholder, prefilled and handed off anyway; decode committed the full length and
 * attended over pages that still held another tenant's KV.
 */
import { slotOf } from '../machines/kvPagePool.ts';
import { property } from './property.ts';
import { isDecoding, requestEntries, tenantOf, wasRejected, who } from './vocabulary.ts';

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
      const by = [r.rejectedOnPrefill ? 'prefill' : '', r.rejectedOnDecode ? 'decode' : '']
        .filter(Boolean)
        .join(' and ');
      const what = [
        r.kvSent ? 'KV was sent for its room' : '',
        r.committed ? 'decode committed it' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `${who(s, rid)} was rejected at intake by ${by}, yet ${what}`;
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
