import type { Scenario } from '../machines/scenario.ts';

/**
 * The incident at scale: three tenants, four requests, prefill in two chunks, transfer
 * failures and client aborts. It keeps `incident`'s order relations with the smallest sizes
 * that allow a two-chunk prompt: context window 10, prefill pool 4, decode pool 5, reserve 0,
 * so prefill's scheduler limit is min(9, 3) - 0 = 3 and decode's is min(9, 4) - 0 = 4. B's
 * 3-token prompt passes the tokenizer (3 < 10), is rejected by prefill's scheduler (3 >= 3) and
 * accepted by decode's (3 < 4); the context window exceeds the prefill pool. A's 2-token
 * prompt is prefilled in two chunks; tenant C's two 1-token requests are interchangeable, so
 * symmetry reduction halves the space. Named (`--scenario incident-large`) but not run by
 * default: the fast engine does not finish it in minutes (the README’s performance section
 * gives the figures), so neither the test suite nor `kvcheck all` explores it exhaustively; the
 * benchmark runs it with a time bound, and `kvcheck simulate` walks it.
 */
export const incidentLarge: Scenario = {
  name: 'incident-large',
  description:
    'Three tenants, four requests, two-chunk prefill, transfer failures and client aborts, with the incident’s order relations.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 1 },
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
  prefillChunks: 2,
  clientAborts: true,
  witnesses: ['someRequestRejected', 'someRequestDecoded', 'pageReusedAcrossTenants'],
};
