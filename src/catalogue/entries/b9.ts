/**
 * B9: two requests name the same client-supplied bootstrap room (#40125, #28003). SGLang keys
 * both sides' per-room state by the room alone, so the second request's decode metadata replaces
 * the first's in prefill's `transfer_infos`, one incarnation's chunks land in the other's pages,
 * and a Success or Failed one sets is what the other's poll reads (see `machines/rooms.ts`).
 * #40185 refuses a client-supplied room that a live request holds.
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/** Two tenants whose clients supply the same bootstrap room. */
export const roomCollision: Scenario = {
  name: 'room-collision',
  description:
    'Two tenants’ clients supply the same bootstrap room; both sides keep one status entry and one destination per room.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2, room: 'r7' },
    { id: 'b1', tenant: 'B', promptLen: 2, outputLen: 2, room: 'r7' },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestDecoded'],
};

/** Catalogue entry B9. */
export const entry: CatalogueEntry = {
  id: 'B9',
  description:
    'A client-supplied bootstrap room another live request holds is accepted: the two requests share the room’s status and destination, and one’s KV lands in the other’s pages.',
  upstream: ['#40125', '#28003', '#27643', '#40185'],
  variant: faultVariant(
    'b9-duplicate-room',
    '`fixed` that accepts a client-supplied bootstrap room a live request holds (B9, #40125).',
    'duplicateRoomAccepted',
  ),
  scenario: roomCollision,
};
