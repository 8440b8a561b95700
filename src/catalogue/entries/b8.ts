/**
 * B8: the prefix cache ignores the per-tenant cache salt (#37160: external KV storage keyed by
 * tokens only), so a request of tenant B reuses the cached prefix pages tenant A inserted.
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/** Two tenants whose prompts start with the same one-token prefix (a shared system prompt). */
export const sharedPrefix: Scenario = {
  name: 'shared-prefix',
  description:
    'Two tenants’ prompts start with the same token; prefill’s prefix cache may keep the first one’s prefix pages for later requests.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 1, prefix: { group: 'sys', len: 1 } },
    { id: 'b1', tenant: 'B', promptLen: 2, outputLen: 2, prefix: { group: 'sys', len: 1 } },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestDecoded', 'pageReusedAcrossTenants', 'prefixLookupFindsOtherTenant'],
};

/** Catalogue entry B8. */
export const entry: CatalogueEntry = {
  id: 'B8',
  description:
    'The prefix cache keys KV by tokens only and ignores the cache salt: tenant B’s prompt hits the prefix pages tenant A inserted.',
  upstream: ['#37160'],
  variant: faultVariant(
    'b8-salt-ignored',
    '`fixed` whose prefix cache ignores the per-tenant cache salt (B8, #37160).',
    'saltIgnored',
  ),
  scenario: sharedPrefix,
};
