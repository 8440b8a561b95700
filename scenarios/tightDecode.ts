import type { Scenario } from '../machines/scenario.ts';

/**
 * A decode pool too small for every admitted request to run to its last token at once: a
 * one-token prompt that generates four tokens and a two-token prompt that generates three (four
 * positions of KV each at the end) against a decode pool of six pages. The prealloc budget lets
 * both in (each fits with nothing running), and once both run, the batch's next step finds no
 * page: decode retracts the request with fewer output tokens (of two equal, the longer prompt),
 * copies its KV to host, lets the other finish, and resumes it. Without the budget and retraction the two would wait on each other
 * for a page forever. Nothing is rejected, so every variant must pass.
 */
export const tightDecode: Scenario = {
  name: 'tight-decode',
  description:
    'A decode pool too small for both requests to finish at once: decode retracts one to host and resumes it after the other finishes.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 4 },
    { id: 'b1', tenant: 'B', promptLen: 2, outputLen: 3 },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 6,
  contextLen: 10,
  reserve: 2,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  witnesses: ['someRequestDecoded', 'requestRetracted'],
};
