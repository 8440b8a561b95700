import type { Scenario } from '../machines/scenario.ts';

/**
 * Big pools do not close the reject path: with both pools at 20 tokens the scheduler limit is
 * min(9, 19) - 5 = 4, so B's 5-token prompt passes the tokenizer (5 < 10) and is rejected by the
 * scheduler on both sides. Before the code fix it is still handed off as a placeholder, though
 * both sides agree on its one-token length, so no foreign KV is read.
 */
export const band: Scenario = {
  name: 'band',
  description:
    'Pools twice the context window, and a prompt inside the band maxReqInputLen <= len < contextLen: rejected by the scheduler on both sides.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 5, outputLen: 2 },
  ],
  pageSize: 1,
  prefillPoolTokens: 20,
  decodePoolTokens: 20,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestRejected', 'someRequestDecoded'],
};
