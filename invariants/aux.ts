/**
 * Metadata (aux) slots: decode's first output token comes from the aux data prefill writes into
 * a slot of decode's metadata pool, a pool apart from the KV pages. A slot reused while a stale
 * aux write is still in flight hands one room's first token to another (#17259, #22716), which
 * decode's `bootstrap_room` check (#17430) exists to refuse. Only scenarios with `auxSlots`
 * model the pool; elsewhere the property holds trivially.
 */

import { auxHolder } from '../machines/servingUpdates.ts';
import type { RequestView } from '../machines/servingView.ts';
import { property } from './property.ts';
import { requestsOf, someRequest, who } from './vocabulary.ts';

/** Whether decode committed `r`. */
function committed(r: RequestView): boolean {
  return r.committed;
}

/** Decode's first token for a request comes from aux data written for the same room. */
export const auxSlotIntegrity = property(
  'Decode takes a request’s first token only from aux data written for that request’s own room.',
  {
    guards:
      '#17259, #22716 (a reused metadata slot gives a request another room’s first token); #17430 (room check), #27374 (reset on free)',
    reads: { request: ['firstTokenForeign', 'committed', 'auxSlot', 'dstAux', 'auxIn'] },
    trigger: {
      fires: (s) => s.context.layout.mechanisms.auxSlots && someRequest(s, committed),
      vacuity: 'the scenario has no aux slots, or decode never committed a request',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      if (!r.firstTokenForeign) continue;
      const slot = r.auxSlot !== -1 ? r.auxSlot : r.dstAux;
      const holder = slot === -1 ? -1 : auxHolder(s.context, slot);
      const holderId = holder === -1 ? undefined : s.context.layout.requests[holder];
      const from = holderId === undefined ? 'no room' : who(s, holderId);
      return `${who(s, r.id)} took its first token from metadata slot ${slot === -1 ? '?' : slot}, which held the aux data of ${from}`;
    }
    return null;
  },
);
