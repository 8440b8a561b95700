import type { Scenario } from '../machines/scenario.ts';

/**
 * The first layer of the fix: both pools at twice the context window (20 tokens against 10), so
 * each scheduler limit is min(9, 19) - 5 = 4, and every prompt (1 and 3 tokens) stays below the
 * reject band [4, 10). Nothing is rejected, so every variant must pass.
 */
export const pool2x: Scenario = {
  name: 'pool-2x',
  description:
    'Pools twice the context window and every prompt below the scheduler’s reject band: nothing is rejected.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
  ],
  pageSize: 1,
  prefillPoolTokens: 20,
  decodePoolTokens: 20,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestDecoded', 'pageReusedAcrossTenants'],
};
