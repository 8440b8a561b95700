/**
 * The registry of properties and witnesses, by export name, in the order reports list them.
 */
import { auxSlotIntegrity } from './aux.ts';
import {
  coverageBeforeCommit,
  noCrossTenantRead,
  rejectedHoldsNothing,
  rejectedNeverHandedOff,
} from './isolation.ts';
import {
  exclusivePageOwnership,
  freedExactlyOnce,
  noReadAfterFree,
  noWriteAfterFree,
  poolAccounting,
} from './pool.ts';
import { prefixSharingRespectsSalt } from './prefixCache.ts';
import type { Property, Witness } from './property.ts';
import {
  errorReachesClient,
  kvPollMonotone,
  singleTerminalResponse,
  statusPerIncarnation,
} from './protocol.ts';
import { everyRequestAnswered, noDeadlock, noLeakAtQuiescence } from './quiescence.ts';
import {
  auxSlotReused,
  chunkedTransfer,
  clientAborted,
  lateWriteLanded,
  pageReusedAcrossTenants,
  prefixCacheHit,
  prefixLookupFindsOtherTenant,
  requestRetracted,
  someRequestDecoded,
  someRequestRejected,
  transferFailed,
} from './witnesses.ts';

export { auxSlotIntegrity } from './aux.ts';
export {
  coverageBeforeCommit,
  noCrossTenantRead,
  rejectedHoldsNothing,
  rejectedNeverHandedOff,
} from './isolation.ts';
export {
  exclusivePageOwnership,
  freedExactlyOnce,
  noReadAfterFree,
  noWriteAfterFree,
  poolAccounting,
} from './pool.ts';
export { prefixSharingRespectsSalt } from './prefixCache.ts';
export type { Property, PropertyKind, Witness } from './property.ts';
export { property, witness } from './property.ts';
export {
  errorReachesClient,
  kvPollMonotone,
  singleTerminalResponse,
  statusPerIncarnation,
} from './protocol.ts';
export { everyRequestAnswered, noDeadlock, noLeakAtQuiescence } from './quiescence.ts';
export type { ServingState } from './vocabulary.ts';
export * from './witnesses.ts';

/** Every property, by name: safety properties first, then those checked on terminal states. */
export const properties: Readonly<Record<string, Property>> = {
  rejectedNeverHandedOff,
  rejectedHoldsNothing,
  noCrossTenantRead,
  coverageBeforeCommit,
  exclusivePageOwnership,
  freedExactlyOnce,
  noWriteAfterFree,
  noReadAfterFree,
  kvPollMonotone,
  statusPerIncarnation,
  errorReachesClient,
  singleTerminalResponse,
  auxSlotIntegrity,
  prefixSharingRespectsSalt,
  poolAccounting,
  noDeadlock,
  everyRequestAnswered,
  noLeakAtQuiescence,
};

/** Every witness, by name. */
export const witnesses: Readonly<Record<string, Witness>> = {
  someRequestRejected,
  someRequestDecoded,
  pageReusedAcrossTenants,
  prefixCacheHit,
  prefixLookupFindsOtherTenant,
  auxSlotReused,
  lateWriteLanded,
  transferFailed,
  clientAborted,
  chunkedTransfer,
  requestRetracted,
};

/** Property names in registry order. */
export const propertyNames: readonly string[] = Object.keys(properties);

/** Witness names in registry order. */
export const witnessNames: readonly string[] = Object.keys(witnesses);
