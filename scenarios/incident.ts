import type { Scenario } from '../machines/scenario.ts';

/**
 * The 2026 incident, scaled down. Context window 10, prefill pool 8, decode pool 10, reserve 5:
 * prefill's scheduler limit is min(9, 7) - 5 = 2 and decode's is min(9, 9) - 5 = 4, so B's
 * 3-token prompt passes the tokenizer (3 < 10), is rejected by prefill's scheduler (3 >= 2) and
 * accepted by decode's (3 < 4): the configuration in which the context window exceeds the
 * prefill pool. A's request can run to completion first, leaving its KV in freed decode pages.
 */
export const incident: Scenario = {
  name: 'incident',
  description:
    'Context window larger than the prefill pool: B’s prompt passes the tokenizer, is rejected by prefill’s scheduler and accepted by decode, after A’s request has left KV in freed decode pages.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
  ],
  pageSize: 1,
  prefillPoolTokens: 8,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestRejected', 'someRequestDecoded'],
};
