/**
 * B1: the incident's own path. An intake rejection lives only in `to_finish`; gates that test
 * `finished_reason` miss it, so both of `fixed`'s barriers (#38935, #36988) let the one-token
 * placeholder through and decode commits its full length over pages it never received.
 */
import { incident } from '../../../scenarios/index.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/** Catalogue entry B1. */
export const entry: CatalogueEntry = {
  id: 'B1',
  description:
    'An intake-rejected request (abort pending in to_finish, prompt swapped for one token) gets a sender; prefill sends one page and decode commits the full-length seq_len.',
  upstream: ['#30233', '#32605', '#34208', '#36988', '#38935'],
  variant: faultVariant(
    'b1-placeholder-handoff',
    '`fixed` whose abort gates test `finished_reason` only (B1): neither barrier sees an intake rejection pending in `to_finish`.',
    'abortGatesMissPendingAbort',
  ),
  scenario: incident,
};
