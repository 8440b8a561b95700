/**
 * B10: pull mode (vLLM's NIXL connector) with a fixed timeout on a finished request's blocks
 * (`VLLM_NIXL_ABORT_REQUEST_TIMEOUT`): prefill frees them when the timeout expires whether or
 * not decode's READ has landed, another request's prefill reuses them, and the READ copies that
 * request's KV (#52234, aws-do-eks#84; the late notification only logs "Potentially invalid KV
 * blocks"). The heartbeat lease (#41383) keeps the blocks while decode tracks the request.
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/** Two one-token prompts of different tenants, moved by decode's READ of prefill's pages. */
export const pullLease: Scenario = {
  name: 'pull-lease',
  description:
    'Pull-mode transfer: prefill holds a finished request’s pages under a lease until decode has read them.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
    { id: 'b1', tenant: 'B', promptLen: 1, outputLen: 1 },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: false,
  transfer: 'pull',
  witnesses: ['someRequestDecoded'],
};

/** Catalogue entry B10. */
export const entry: CatalogueEntry = {
  id: 'B10',
  description:
    'Pull mode: a fixed timeout frees a finished request’s prefill pages before decode has read them; another tenant’s prefill reuses them and the READ copies its KV.',
  upstream: ['#52234', '#41383'],
  variant: faultVariant(
    'b10-lease-expires-under-read',
    '`fixed` in pull mode whose prefill frees a finished request’s pages on a fixed timeout, read or not (B10).',
    'leaseExpiresUnderRead',
  ),
  scenario: pullLease,
};
