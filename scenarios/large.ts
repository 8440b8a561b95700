import type { Scenario } from '../machines/scenario.ts';

/**
 * The incident at scale: three tenants, four requests, prefill in two chunks, a transfer
 * failure and a client abort as possible events (a fault budget of one each: either may strike
 * any request at any point of any interleaving, once per run). It keeps `incident`'s order
 * relations with the smallest sizes that allow a two-chunk prompt: context window 10, prefill
 * pool 4, decode pool 5, reserve 0, so prefill's scheduler limit is min(9, 3) - 0 = 3 and
 * decode's is min(9, 4) - 0 = 4. B's 3-token prompt passes the tokenizer (3 < 10), is rejected
 * by prefill's scheduler (3 >= 3) and accepted by decode's (3 < 4); the context window exceeds
 * the prefill pool. A's 2-token prompt is prefilled in two chunks and decoded for one step, so
 * that `fixed` too runs decode over reused pages (the `someRequestDecoded` witness); tenant C's
 * two 1-token requests are interchangeable, so symmetry reduction halves the space.
 *
 * Named (`--scenario incident-large`) but not run by default: the fast engine's exhaustive run
 * with symmetry takes about half an hour on two worker threads, or on one thread depth first
 * (`fixed` passes: 111,801,096 representatives, 223,588,019 states, every required witness
 * reached; docs/performance.md gives the figures), so `kvcheck all` and the test suite leave it
 * out, and the benchmark runs it under a time bound.
 */
export const incidentLarge: Scenario = {
  name: 'incident-large',
  description:
    'Three tenants, four requests, two-chunk prefill, one transfer failure and one client abort possible, with the incident’s order relations.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
    { id: 'c1', tenant: 'C', promptLen: 1, outputLen: 1 },
    { id: 'c2', tenant: 'C', promptLen: 1, outputLen: 1 },
  ],
  pageSize: 1,
  prefillPoolTokens: 4,
  decodePoolTokens: 5,
  contextLen: 10,
  reserve: 0,
  transferFaults: true,
  maxTransferFaults: 1,
  prefillChunks: 2,
  clientAborts: true,
  maxClientAborts: 1,
  witnesses: [
    'someRequestRejected',
    'someRequestDecoded',
    'pageReusedAcrossTenants',
    'transferFailed',
    'clientAborted',
    'chunkedTransfer',
  ],
};
