/**
 * B5: a metadata (aux) slot is reused while another room's aux write is still in flight; the
 * stale aux lands in the new owner's slot and, without decode's `bootstrap_room` check, becomes
 * its first token. The check (#17430) refuses the commit instead. The stale write comes from an
 * abort, because `fixed` frees the slot at once; #35049 also holds the slot until the write
 * drains, and #22716's source (a second pipeline stage) is not modelled (docs/catalogue.md, B5).
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';
import { lateWrite } from './b4.ts';

/**
 * `late-write` with one metadata slot on decode: A1's client aborts while its last chunk (KV
 * and aux) is in flight, decode frees A1's slot at once and gives it to B1, and A1's aux may
 * land after B1's.
 */
export const auxSlotReuse: Scenario = {
  ...lateWrite,
  name: 'aux-slot-reuse',
  description:
    'One metadata slot on decode: an aborted request’s aux write, still in flight, may land in the slot after it was given to another request.',
  auxSlots: 1,
  witnesses: ['someRequestDecoded', 'clientAborted', 'lateWriteLanded', 'auxSlotReused'],
};

/** Catalogue entry B5. */
export const entry: CatalogueEntry = {
  id: 'B5',
  description:
    'A metadata slot index is reused while another room’s aux write is in flight; decode reads that room’s aux as its first token.',
  upstream: ['#17259', '#22716', '#17430', '#27374'],
  variant: faultVariant(
    'b5-aux-slot-reuse',
    '`fixed` whose decode commits without checking the bootstrap room in its metadata slot (B5, before #17430).',
    'auxRoomUnchecked',
  ),
  scenario: auxSlotReuse,
};
