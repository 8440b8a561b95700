import type { Scenario } from '../machines/scenario.ts';

/**
 * Isolation on pages that really are reused: every prompt fits everywhere (limits
 * min(9, 9) - 5 = 4 against prompts of 2 and 3), and pools of 10 tokens are small enough that a
 * finished request's pages are handed to the other tenant, still holding its KV.
 */
export const happy: Scenario = {
  name: 'happy',
  description:
    'Every prompt fits everywhere; pools small enough that pages change hands between tenants.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestDecoded', 'pageReusedAcrossTenants'],
};
