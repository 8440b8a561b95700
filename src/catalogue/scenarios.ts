/**
 * The smallest scenarios that expose the catalogued faults (besides the built-in `incident`).
 * Each has one request: the faults need no second tenant, only the mechanism they live in.
 */
import type { Scenario } from '../../machines/scenario.ts';

const oneRequest = {
  pageSize: 1,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
} as const;

/**
 * Prefill's scheduler rejects the only request (prefill limit 2, decode limit 4, prompt 3);
 * decode accepts it and waits for a handshake that will not come.
 */
export const prefillReject: Scenario = {
  ...oneRequest,
  name: 'prefill-reject',
  description:
    'Prefill’s scheduler rejects the prompt and decode’s accepts it: decode waits for a handshake that will not come.',
  requests: [{ id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 }],
  prefillPoolTokens: 8,
  witnesses: ['someRequestRejected'],
};

/**
 * One admitted request whose batch result may hit a prefill error (a grammar rejecting the first
 * token, #30937) while its last chunk is in flight.
 */
export const prefillError: Scenario = {
  ...oneRequest,
  name: 'prefill-error',
  description:
    'One admitted request; processing its prefill result may hit an error while its last chunk is in flight.',
  requests: [{ id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 }],
  prefillPoolTokens: 10,
  prefillErrors: true,
  witnesses: ['someRequestDecoded'],
};

/** One admitted request whose client may abort at any point before the router replies. */
export const lateAbort: Scenario = {
  ...oneRequest,
  name: 'late-abort',
  description:
    'One admitted request whose client may abort while its prefill chunk result is still in flight.',
  requests: [{ id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 }],
  prefillPoolTokens: 10,
  clientAborts: true,
  witnesses: ['someRequestDecoded', 'clientAborted'],
};
