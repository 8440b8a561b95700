/**
 * Metadata (aux) slots: decode's first output token comes from the aux data prefill writes into
 * a slot of decode's metadata pool, a pool apart from the KV pages. A slot reused while a stale
 * aux write is still in flight hands one room's first token to another (#17259, #22716), which
 * decode's `bootstrap_room` check (#17430) exists to refuse. Only scenarios with `auxSlots`
 * model the pool; elsewhere the property holds trivially.
 */
import { auxHolder } from '../machines/servingUpdates.ts';
import { property } from './property.ts';
import { requestEntries, who } from './vocabulary.ts';

/** Decode's first token for a request comes from aux data written for the same room. */
export const auxSlotIntegrity = property(
  'Decode takes a request’s first token only from aux data written for that request’s own room.',
  {
    guards:
      '#17259, #22716 (a reused metadata slot gives a request another room’s first token); #17430 (room check), #27374 (reset on free)',
    trigger: {
      fires: (s) =>
        s.context.auxFree !== undefined && requestEntries(s).some(([, r]) => r.committed),
      vacuity: 'the scenario has no aux slots, or decode never committed a request',
    },
  },
  (s) => {
    for (const [rid, r] of requestEntries(s)) {
      if (r.firstTokenForeign !== true) continue;
      const slot = r.auxSlot ?? r.dstAux;
      const holder = slot === undefined || slot === null ? null : auxHolder(s.context, slot);
      const from = holder === null ? 'no room' : who(s, holder);
      return `${who(s, rid)} took its first token from metadata slot ${slot ?? '?'}, which held the aux data of ${from}`;
    }
    return null;
  },
);
