/**
 * Prefix-cache isolation: prefill's radix cache shares KV pages between requests whose prompts
 * start with the same tokens, and its key carries the tenant's cache salt (`extra_key`) so that
 * tenants never share a node. A store that keys by tokens alone (#37160) hands one tenant's
 * cached prefix to another. Only scenarios whose requests name a `prefix` have a cache;
 * elsewhere the property holds trivially.
 */
import { nodeOwnerOf } from '../machines/prefixCache.ts';
import type { RequestId } from '../machines/scenario.ts';
import type { RequestView } from '../machines/servingView.ts';
import { property } from './property.ts';
import { requestsOf, someRequest, who } from './vocabulary.ts';

/** Whether `r`'s prefill row starts with locked prefix-cache pages. */
function reusesPrefix(r: RequestView): boolean {
  return r.listLen(r.layout.lists.prefixPages) > 0;
}

/** A request reuses cached prefix pages only from a node inserted under its own tenant's salt. */
export const prefixSharingRespectsSalt = property(
  'A request reuses prefix-cache pages only if they were inserted under its own tenant’s cache salt.',
  {
    guards:
      '#37160 (external KV storage keys ignore cache_salt); RadixKey extra_key: different salts never share prefix nodes',
    reads: { request: ['prefixPages', 'cachedPages'] },
    trigger: {
      fires: (s) => someRequest(s, reusesPrefix),
      vacuity: 'no request reused prefix-cache pages',
    },
  },
  (s) => {
    const L = s.context.layout;
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const slot = L.lists.prefixPages;
      if (r.listLen(slot) === 0) continue;
      const owner = nodeOwnerOf(s.context, r.listAt(slot, 0));
      if (owner !== -1 && L.tenants[owner] !== r.tenant) {
        const pages = r.list(slot).join(', ');
        return `${who(s, r.id)} reuses prefill cache page(s) ${pages}, inserted by ${who(s, L.requests[owner] as RequestId)} under another tenant’s salt`;
      }
    }
    return null;
  },
);
