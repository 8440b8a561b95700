/**
 * The guards and actions of the composed serving machine, bound to one scenario and one variant.
 * Guards named after a switch (`switchGuards`) read the variant and nothing else; fault guards
 * (`faultGuards`) read the scenario's fault settings; every other guard reads the request's data
 * and first checks that the event is addressed to its request (`params.rid`).
 */
import { assign, raise, setup } from 'xstate';
import type { ServingContext } from './context.ts';
import type { InternalEvent, ServingEvent } from './events.ts';
import { canAllocate } from './kvPagePool.ts';
import { prefixCacheView } from './prefixCache.ts';
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

/** `setup()` for `scenario` under `variant`: typed guards and actions for the region factories. */
export function servingSetup(scenario: Scenario, variant: Variant) {
  const sw = variant.switches;
  const cache = prefixCacheView(scenario, sw.saltIgnored);
  const prompt = (rid: RequestId) => requestSpec(scenario, rid).promptLen;
  const output = (rid: RequestId) => requestSpec(scenario, rid).outputLen;
  const req = (ctx: ServingContext, rid: RequestId) => {
    const r = ctx.requests[rid];
    if (!r) throw new Error(`unknown request ${rid}`);
    return r;
  };
  const chunk = (ctx: ServingContext, rid: RequestId) =>
    chunkTokens(scenario, req(ctx, rid).prefillLen);
  return setup({
    types: { context: {} as ServingContext, events: {} as ServingEvent },
    guards: {
      isFor: ({ event }, p: Rid) => event.rid === p.rid,
      tokenizerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= scenario.contextLen,
      prefillSchedulerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= maxReqInputLen(scenario, 'prefill'),
      decodeSchedulerRejects: ({ event }, p: Rid) =>
        event.rid === p.rid && prompt(p.rid) >= maxReqInputLen(scenario, 'decode'),
      prefillFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        canAllocate(
          context.prefillPool,
          up.pagesForNextChunk(context, p.rid, chunk(context, p.rid), cache),
        ),
      moreChunksAfterThis: ({ context, event }, p: Rid) => {
        const r = up.prefillStart(context, p.rid, cache) ?? req(context, p.rid);
        return event.rid === p.rid && r.prefilled + chunk(context, p.rid) < r.prefillLen;
      },
      kvWritePending: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.kvWritePending(context, p.rid),
      clientAborted: ({ context, event }, p: Rid) =>
        event.rid === p.rid && req(context, p.rid).clientAborted,
      decodePreallocFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        up.auxSlotAvailable(context) &&
        canAllocate(
          context.decodePool,
          pagesFor(req(context, p.rid).decodeLen, context.decodePool.pageSize),
        ),
      decodeStepFits: ({ context, event }, p: Rid) =>
        event.rid === p.rid &&
        req(context, p.rid).generated < output(p.rid) &&
        up.decodeStepFits(context, p.rid),
      generationDone: ({ context, event }, p: Rid) =>
        event.rid === p.rid && req(context, p.rid).generated >= output(p.rid),
      coverageIncomplete: ({ context, event }, p: Rid) =>
        event.rid === p.rid && req(context, p.rid).kvArrived < req(context, p.rid).decodeLen,
      auxRoomMismatch: ({ context, event }, p: Rid) =>
        event.rid === p.rid && up.auxRoomMismatch(context, p.rid),
      prefillReplyIsError: ({ context, event }, p: Rid) =>
        event.rid === p.rid && (req(context, p.rid).prefillReply?.status ?? 0) >= 400,
      admissionRetire: () => admissionRetireEffective(sw),
      retireAbortedResult: () => retireAbortedResultEffective(sw),
      coverageCheck: () => sw.coverageCheck,
      auxRoomUnchecked: () => sw.auxRoomUnchecked,
      routerFailFast: () => sw.routerPolicy === 'failFast',
      successOverwritesPendingAbort: () => sw.successOverwritesPendingAbort,
      decodeWaitsForeverForKv: () => sw.decodeWaitsForeverForKv,
      errorReleasesKvImmediately: () => sw.errorReleasesKvImmediately,
      lateResultNotRetired: () => sw.lateResultNotRetired,
      transferFaultsEnabled: ({ context }) =>
        scenario.transferFaults && (context.transferFaultsLeft ?? 1) > 0,
      clientAbortsEnabled: ({ context }) =>
        scenario.clientAborts && (context.clientAbortsLeft ?? 1) > 0,
      lateWritesEnabled: () => scenario.lateWrites === true,
      prefillErrorsEnabled: () => scenario.prefillErrors === true,
    },
    actions: {
      admit: assign(({ context }, p: RidSide) => up.admit(context, p.rid, p.side, prompt(p.rid))),
      swapForPlaceholder: assign(({ context }, p: RidSide) =>
        up.swapForPlaceholder(context, p.rid, p.side),
      ),
      markRejected: assign(({ context }, p: RidSide) => up.markRejected(context, p.rid, p.side)),
      markAborted: assign(({ context }, p: Rid) => up.markAborted(context, p.rid)),
      releasePrefillPagesKeepRow: assign(({ context }, p: Rid) =>
        up.releasePrefillPagesKeepRow(context, p.rid),
      ),
      replyError: assign(({ context }, p: RidReply) =>
        up.reply(context, p.rid, p.side, { status: p.status, tokens: 0 }),
      ),
      replyPrefillFinished: assign(({ context }, p: Rid) =>
        up.reply(context, p.rid, 'prefill', { status: 200, tokens: 1 }),
      ),
      replyDecodeFinished: assign(({ context }, p: Rid) =>
        up.reply(context, p.rid, 'decode', {
          status: 200,
          tokens: req(context, p.rid).generated,
        }),
      ),
      runPrefillChunk: assign(({ context }, p: Rid) =>
        up.runPrefillChunk(context, p.rid, chunk(context, p.rid), cache),
      ),
      releasePages: assign(({ context }, p: RidSide) =>
        up.releasePages(context, p.rid, p.side, {
          cache,
          deferWhileWriting: !sw.releaseBeforeDrain,
        }),
      ),
      preallocateDecode: assign(({ context }, p: Rid) => up.preallocateDecode(context, p.rid)),
      sendChunk: assign(({ context }, p: Rid) => up.sendKv(context, p.rid, false)),
      sendLastChunk: assign(({ context }, p: Rid) => up.sendKv(context, p.rid, true)),
      markClientAborted: assign(({ context }, p: Rid) => up.markClientAborted(context, p.rid)),
      spendTransferFault: assign(({ context }) => up.spendTransferFault(context)),
      writeTransferredKv: assign(({ context }, p: Rid) => up.writeTransferredKv(context, p.rid)),
      landLateWrite: assign(({ context }, p: Rid) => up.landLateWrite(context, p.rid)),
      startDraining: assign(({ context }, p: Rid) => up.startDraining(context, p.rid)),
      commitDecode: assign(({ context }, p: Rid) => up.commitDecode(context, p.rid)),
      runDecodeStep: assign(({ context }, p: Rid) => up.runDecodeStep(context, p.rid)),
      recordPoll: assign(({ context }, p: RidPoll) => up.recordPoll(context, p.rid, p.poll)),
      forwardReply: assign(({ context }, p: RidSide) => up.forwardReply(context, p.rid, p.side)),
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
