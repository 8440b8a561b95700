/**
 * Prefix-cache isolation: prefill's radix cache shares KV pages between requests whose prompts
 * start with the same tokens, and its key carries the tenant's cache salt (`extra_key`) so that
 * tenants never share a node. A store that keys by tokens alone (#37160) hands one tenant's
 * cached prefix to another. Only scenarios whose requests name a `prefix` have a cache;
 * elsewhere the property holds trivially.
 */
import { nodeOwnerOf } from '../machines/prefixCache.ts';
import { property } from './property.ts';
import { requestEntries, tenantOf, who } from './vocabulary.ts';

/** A request reuses cached prefix pages only from a node inserted under its own tenant's salt. */
export const prefixSharingRespectsSalt = property(
  'A request reuses prefix-cache pages only if they were inserted under its own tenant’s cache salt.',
  {
    guards:
      '#37160 (external KV storage keys ignore cache_salt); RadixKey extra_key: different salts never share prefix nodes',
    trigger: {
      fires: (s) => requestEntries(s).some(([, r]) => (r.prefixPages?.length ?? 0) > 0),
      vacuity: 'no request reused prefix-cache pages',
    },
  },
  (s) => {
    for (const [rid, r] of requestEntries(s)) {
      const first = r.prefixPages?.[0];
      if (first === undefined) continue;
      const owner = nodeOwnerOf(s.context, first);
      if (owner !== null && tenantOf(s, owner) !== tenantOf(s, rid)) {
        const pages = (r.prefixPages ?? []).join(', ');
        return `${who(s, rid)} reuses prefill cache page(s) ${pages}, inserted by ${who(s, owner)} under another tenant’s salt`;
      }
    }
    return null;
  },
);
