/**
 * The guards and actions of the composed serving machine, bound to one scenario and one variant.
 * Guards named after a switch (`switchGuards`) read the variant and nothing else; fault guards
 * (`faultGuards`) read the scenario's fault settings; every other guard reads the request's data
 * and first checks that the event is addressed to its request (`params.rid`).
 */
import { raise, setup } from 'xstate';
import { vectorAssign } from '../src/engine/index.ts';
import type { AbortCause, ServingContext } from './context.ts';
import * as mem from './decodeMemory.ts';
import type { InternalEvent, ServingEvent } from './events.ts';
import { canAllocate } from './kvPagePool.ts';
import { F } from './layout.ts';
import { prefixCacheView } from './prefixCache.ts';
import { roomEntryIs, roomHeld } from './rooms.ts';
import {
  chunkTokens,
  maxReqInputLen,
  pagesFor,
  type RequestId,
  requestSpec,
  type Scenario,
} from './scenario.ts';
import * as up from './servingUpdates.ts';
import {
  admissionRetireEffective,
  retireAbortedResultEffective,
  type Variant,
} from './variants.ts';

type Rid = { rid: RequestId };
type RidSide = { rid: RequestId; side: up.Side };
type RidReply = { rid: RequestId; side: up.Side; status: number };
type RidAbort = { rid: RequestId; side: up.Side; cause: AbortCause };
type RidPoll = { rid: RequestId; poll: number };
type RidNotice = { rid: RequestId; event: InternalEvent['type'] };

/** Names of the guards that read only the variant's switches. */
export const switchGuards = [
  'admissionRetire',
  'retireAbortedResult',
  'coverageCheck',
  'routerFailFast',
  'successOverwritesPendingAbort',
  'decodeWaitsForeverForKv',
  'errorReleasesKvImmediately',
  'lateResultNotRetired',
  'auxRoomUnchecked',
  'duplicateRoomAccepted',
  'leaseExpiresUnderRead',
] as const;

/**
 * Names of the guards that read only the scenario's fault settings. A structural analysis that
 * must hold for every deployment takes them as true: a fault is always possible somewhere.
 */
export const faultGuards = [
  'transferFaultsEnabled',
  'clientAbortsEnabled',
  'lateWritesEnabled',
  'prefillErrorsEnabled',
] as const;

/** One of the guards that read only the scenario's fault settings (`faultGuards`). */
export type FaultGuard = (typeof faultGuards)[number];

/**
 * Whether `scenario`'s options make the fault behind `fault` possible at all (a budget may still
 * run out): the part of the fault guard that reads the scenario. Late writes come with pull
 * transfer too, whose READ, once posted, lands whatever happens to the request meanwhile.
 */
export function faultPossible(scenario: Scenario, fault: FaultGuard): boolean {
  switch (fault) {
    case 'transferFaultsEnabled':
      return scenario.transferFaults;
    case 'clientAbortsEnabled':
      return scenario.clientAborts;
    case 'lateWritesEnabled':
      return scenario.lateWrites === true || scenario.transfer === 'pull';
    case 'prefillErrorsEnabled':
      return scenario.prefillErrors === true;
  }
}

/** `setup()` for `scenario` under `variant`: typed guards and actions for the region factories. */
export function servingSetup(scenario: Scenario, variant: Variant) {
  const sw = variant.switches;
  const cache = prefixCacheView(scenario, sw.saltIgnored);
  const release: up.ReleaseOptions = { cache, deferWhileWriting: !sw.releaseBeforeDrain };
  const specs = new Map(scenario.requests.map((r) => [r.id, r]));
  const spec = (rid: RequestId) => specs.get(rid) ?? requestSpec(scenario, rid);
  const prompt = (rid: RequestId) => spec(rid).promptLen;
  const output = (rid: RequestId) => spec(rid).outputLen;
  const get = up.field;
  const budget: mem.DecodeBudget = {
    reserved: scenario.decodeReservedTokens ?? 0,
    outputs: scenario.requests.map((r) => r.outputLen),
  };
  const possible = (fault: FaultGuard) => faultPossible(scenario, fault);
  const transferFaults = possible('transferFaultsEnabled');
  const clientAborts = possible('clientAbortsEnabled');
  const lateWrites = possible('lateWritesEnabled');
  const prefillErrors = possible('prefillErrorsEnabled');
  const chunk = (ctx: ServingContext, rid: RequestId) =>
    chunkTokens(scenario, get(ctx, rid, F.prefillLen));
  /** An action whose update is written once against the vector (see `servingUpdates.ts`). */
  const act = <P>(update: (c: ServingContext, p: P) => void) =>
    vectorAssign<ServingContext, ServingEvent, P>((c, _args, p) => update(c, p));
  return setup({
    types: { context: {} as ServingContext, events: {} as ServingEvent },
    guards: {
      isFor: ({ event }, p: Rid) => event.rid === p.rid,
      isForRoom: ({ context, event }, p: Rid) => {
        const L = context.layout;
        return L.roomOf[L.indexOf(event.rid)] === L.roomOf[L.indexOf(p.rid)];
      },
      roomSucceeded: ({ context, event }, p: Rid) =>
        event.rid === p.rid && roomEntryIs(context, up.at(context, p.rid), false),
      roomFailed: ({ context, event }, p: Rid) =>
        event.rid === p.rid && roomEntryIs(context, up.at(context, p.rid), true),
      roomHeld: ({ context, event }, p: Rid) =>
        event.rid === p.rid && roomHeld(context, up.at(context, p.rid)),
      tokenizerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= scenario.contextLen,
      prefillSchedulerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= maxReqInputLen(scenario, 'prefill'),
      decodeSchedulerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= maxReqInputLen(scenario, 'decode'),
      prefillFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        canAllocate(
          context.words,
          context.layout.prefill,
          up.pagesForNextChunk(context, p.rid, chunk(context, p.rid), cache),
        ),
      moreChunksAfterThis: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.moreChunksAfterNext(context, p.rid, chunk(context, p.rid), cache),
      lastChunkSent: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.lastChunkSent(context, p.rid),
      kvWritePending: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.kvWritePending(context, p.rid),
      clientAborted: ({ context, event }, p: Rid) =>
        event.rid === p.rid && get(context, p.rid, F.clientAborted) === 1,
      decodePreallocFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        up.auxSlotAvailable(context) &&
        canAllocate(
          context.words,
          context.layout.decode,
          pagesFor(get(context, p.rid, F.decodeLen), context.layout.pageSize),
        ),
      decodeBudgetAllows: ({ context, event }, p: Rid) =>
        event.rid === p.rid && mem.preallocWithinBudget(context, p.rid, budget),
      retractionVictim: ({ context, event }, p: Rid) =>
        event.rid === p.rid && mem.retractionVictim(context, p.rid, budget),
      resumeFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid && mem.resumeFits(context, p.rid, budget),
      decodeStepFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        get(context, p.rid, F.generated) < output(p.rid) &&
        up.decodeStepFits(context, p.rid),
      generationDone: ({ context, event }, p: Rid) =>
        event.rid === p.rid && get(context, p.rid, F.generated) >= output(p.rid),
      coverageIncomplete: ({ context, event }, p: Rid) =>
        event.rid === p.rid && get(context, p.rid, F.kvArrived) < get(context, p.rid, F.decodeLen),
      auxRoomMismatch: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.auxRoomMismatch(context, p.rid),
      prefillReplyIsError: ({ context, event }, p: Rid) =>
        event.rid === p.rid && get(context, p.rid, F.prefillReplyStatus) >= 400,
      admissionRetire: () => admissionRetireEffective(sw),
      retireAbortedResult: () => retireAbortedResultEffective(sw),
      coverageCheck: () => sw.coverageCheck,
      auxRoomUnchecked: () => sw.auxRoomUnchecked,
      duplicateRoomAccepted: () => sw.duplicateRoomAccepted,
      leaseExpiresUnderRead: () => sw.leaseExpiresUnderRead,
      routerFailFast: () => sw.routerPolicy === 'failFast',
      successOverwritesPendingAbort: () => sw.successOverwritesPendingAbort,
      decodeWaitsForeverForKv: () => sw.decodeWaitsForeverForKv,
      errorReleasesKvImmediately: () => sw.errorReleasesKvImmediately,
      lateResultNotRetired: () => sw.lateResultNotRetired,
      transferFaultsEnabled: ({ context }) =>
        transferFaults && context.words[context.layout.transferFaultsLeft] !== 0,
      clientAbortsEnabled: ({ context }) =>
        clientAborts && context.words[context.layout.clientAbortsLeft] !== 0,
      lateWritesEnabled: () => lateWrites,
      prefillErrorsEnabled: () => prefillErrors,
    },
    actions: {
      admit: act((context, p: RidSide) => up.admit(context, p.rid, p.side, prompt(p.rid))),
      swapForPlaceholder: act((context, p: RidSide) =>
        up.swapForPlaceholder(context, p.rid, p.side),
      ),
      markRejected: act((context, p: RidSide) => up.markRejected(context, p.rid, p.side)),
      markAborted: act((context, p: RidAbort) => up.markAborted(context, p.rid, p.side, p.cause)),
      releasePrefillPagesKeepRow: act((context, p: Rid) =>
        up.releasePrefillPagesKeepRow(context, p.rid),
      ),
      replyError: act((context, p: RidReply) =>
        up.reply(context, p.rid, p.side, { status: p.status, tokens: 0 }),
      ),
      replyPrefillFinished: act((context, p: Rid) =>
        up.reply(context, p.rid, 'prefill', { status: 200, tokens: 1 }),
      ),
      replyDecodeFinished: act((context, p: Rid) =>
        up.reply(context, p.rid, 'decode', {
          status: 200,
          tokens: get(context, p.rid, F.generated),
        }),
      ),
      runPrefillChunk: act((context, p: Rid) =>
        up.runPrefillChunk(context, p.rid, chunk(context, p.rid), cache),
      ),
      releasePages: act((context, p: RidSide) => up.releasePages(context, p.rid, p.side, release)),
      preallocateDecode: act((context, p: Rid) => up.preallocateDecode(context, p.rid)),
      sendChunk: act((context, p: Rid) => up.sendKv(context, p.rid, false)),
      sendLastChunk: act((context, p: Rid) => up.sendKv(context, p.rid, true)),
      markClientAborted: act((context, p: Rid) => up.markClientAborted(context, p.rid)),
      markDispatched: act((context, p: Rid) => up.markDispatched(context, p.rid)),
      refuseRoom: act((context, p: Rid) => up.refuseRoom(context, p.rid)),
      spendTransferFault: act((context) => up.spendTransferFault(context)),
      writeTransferredKv: act((context, p: Rid) => up.writeTransferredKv(context, p.rid)),
      landLateWrite: act((context, p: Rid) => up.landLateWrite(context, p.rid)),
      startDraining: act((context, p: Rid) => up.startDraining(context, p.rid)),
      commitDecode: act((context, p: Rid) => up.commitDecode(context, p.rid)),
      runDecodeStep: act((context, p: Rid) => up.runDecodeStep(context, p.rid)),
      retractDecode: act((context, p: Rid) => mem.retractDecode(context, p.rid)),
      resumeDecode: act((context, p: Rid) => mem.resumeDecode(context, p.rid)),
      dropHostCopy: act((context, p: Rid) => mem.dropHostCopy(context, p.rid)),
      recordPoll: act((context, p: RidPoll) => up.recordPoll(context, p.rid, p.poll)),
      forwardReply: act((context, p: RidSide) => up.forwardReply(context, p.rid, p.side)),
      /** Raises an internal event for another region of the same request, within this step. */
      notify: raise((_, p: RidNotice) => ({ type: p.event, rid: p.rid })),
    },
  });
}

/** The typed setup the region factories build against. */
export type ServingSetup = ReturnType<typeof servingSetup>;
type ServingConfig = Parameters<ServingSetup['createMachine']>[0];
/** A typed state-node config for one region of one request. */
export type RegionConfig = NonNullable<ServingConfig['states']>[string];
