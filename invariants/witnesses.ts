/**
 * Witnesses: situations that must be reachable in a scenario, so that a pass is not vacuous.
 * A scenario names the ones it must reach; the checker reports every one.
 */
import { witness } from './property.ts';
import { heldPages, requestEntries, tenantOf, wasRejected } from './vocabulary.ts';

/** Some request was rejected at intake (the reject path was exercised). */
export const someRequestRejected = witness(
  'Some request is rejected at intake by a tokenizer or scheduler limit.',
  (s) => requestEntries(s).some(([, r]) => wasRejected(r)),
);

/** Some request ran a decode forward (attention over decode's pages was exercised). */
export const someRequestDecoded = witness(
  'Some request runs at least one decode step over its KV.',
  (s) => requestEntries(s).some(([, r]) => r.reads.some((x) => x.node === 'decode')),
);

/** A page changed hands between tenants with the old tenant's KV still in it. */
export const pageReusedAcrossTenants = witness(
  'A request holds a page that still holds KV written by another tenant.',
  (s) =>
    (['prefill', 'decode'] as const).some((node) => {
      const pool = node === 'prefill' ? s.context.prefillPool : s.context.decodePool;
      return heldPages(s, node).some(({ page, rid }) => {
        const slots = pool.writer.slice(page * pool.pageSize, (page + 1) * pool.pageSize);
        return slots.some((w) => w !== null && tenantOf(s, w) !== tenantOf(s, rid));
      });
    }),
);
