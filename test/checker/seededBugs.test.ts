/**
 * The checker catches seeded bugs. Each mutant replaces one guard or action implementation of
 * the composed machine (`machine.provide`) with a plausible engine bug; the test asserts the
 * property that must catch it and the shape of the shortest trace.
 */
import { assign } from 'xstate';
import type { ServingContext } from '../../machines/context.ts';
import { freePages, writePositions } from '../../machines/kvPagePool.ts';
import type { RequestId, Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import * as up from '../../machines/servingUpdates.ts';
import { findVariant } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { type EngineName, engineNames } from '../../src/checker/checkOptions.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

type Rid = { rid: RequestId };
type RidSide = { rid: RequestId; side: up.Side };

function machineFor(scenario: Scenario, variantName: string): ServingMachine {
  const v = findVariant(variantName);
  if (!v) throw new Error(variantName);
  return createServingMachine(scenario, v);
}

/** Checks a mutant machine built for `scenario` with `engine`, reported as `label`. */
function checkMutant(
  machine: ServingMachine,
  scenario: Scenario,
  label: string,
  engine: EngineName,
): ScenarioResult {
  const base = findVariant('fixed');
  if (!base) throw new Error('fixed');
  return check(scenario, { ...base, name: label }, { machine, engine });
}

function violated(result: ScenarioResult): string[] {
  return result.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

function traceOf(result: ScenarioResult, property: string) {
  const trace = result.properties.find((p) => p.name === property)?.trace;
  if (!trace) throw new Error(`${property} has no trace`);
  return trace;
}

describe.each(engineNames)(
  'seeded bugs on the happy scenario under fixed (which passes unmutated) (%s engine)',
  (engine) => {
    it('catches a release that forgets to free pages: noLeakAtQuiescence, ending where nothing moves', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: { releasePages: assign(({ context }) => context) },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual(['noLeakAtQuiescence']);
      const trace = traceOf(result, 'noLeakAtQuiescence');
      expect(trace.steps.at(-1)?.event).toBe('ROUTER_REPLY');
      expect(trace.message).toMatch(/page \d+ is still held by/);
    });

    it('catches a release that frees pages but keeps them in the row: freedExactlyOnce', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          releasePages: assign(({ context }, p: RidSide) => {
            const r = context.requests[p.rid];
            if (!r || p.side !== 'decode') return context;
            return { ...context, decodePool: freePages(context.decodePool, r.decodePages) };
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('freedExactlyOnce');
      const trace = traceOf(result, 'freedExactlyOnce');
      expect(trace.steps.at(-1)?.event).toBe('DECODE_FINISH');
      expect(trace.message).toMatch(
        /decode page \d+ is free while a1 still holds it|on the free list twice/,
      );
    });

    it('catches an allocator that hands out pages without taking them off the free list', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          preallocateDecode: assign(({ context }, p: Rid) => {
            const next = up.preallocateDecode(context, p.rid);
            return { ...next, decodePool: { ...next.decodePool, free: context.decodePool.free } };
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('exclusivePageOwnership');
      expect(violated(result)).toContain('poolAccounting');
      const trace = traceOf(result, 'poolAccounting');
      expect(trace.steps.at(-1)?.event).toBe('DECODE_PREALLOC');
      expect(trace.steps).toHaveLength(4);
    });

    it('catches a decode step that attends before storing the new token: noCrossTenantRead', () => {
      // Why this test? Attention reads [0, seq_len] after storing the new token; reading first
      // reads a stale slot the engine never reads. With reused pages it holds the other tenant's KV.
      const readThenStore = (context: ServingContext, rid: RequestId): ServingContext => {
        const r = context.requests[rid];
        if (!r) return context;
        const grown = up.runDecodeStep(context, rid);
        const g = grown.requests[rid];
        if (!g) return grown;
        const slot = g.decodePages[Math.floor(r.seqLen / context.decodePool.pageSize)] ?? -1;
        const stale = context.decodePool.writer[slot] ?? null;
        const reads = up.recordReads(g.reads, [{ node: 'decode', page: slot, writer: stale }]);
        return { ...grown, requests: { ...grown.requests, [rid]: { ...g, reads } } };
      };
      const m = machineFor(happy, 'fixed').provide({
        actions: { runDecodeStep: assign(({ context }, p: Rid) => readThenStore(context, p.rid)) },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual(['noCrossTenantRead']);
      const trace = traceOf(result, 'noCrossTenantRead');
      expect(trace.steps.at(-1)?.event).toBe('DECODE_STEP');
      expect(trace.message).toMatch(/^b1 \(tenant B\) read decode page \d+, last written by a1/);
    });

    it('catches a transfer that writes into the wrong row: noWriteAfterFree', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          writeTransferredKv: assign(({ context }, p: Rid) => {
            const r = context.requests[p.rid];
            if (!r) return context;
            const pages = context.decodePool.owner.length;
            const wrongRow = r.decodePages.map((page) => (page + 1) % pages);
            const n = Math.min(r.prefillLen, r.decodeLen);
            return {
              ...context,
              decodePool: writePositions(context.decodePool, p.rid, wrongRow, 0, n),
            };
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('noWriteAfterFree');
      const trace = traceOf(result, 'noWriteAfterFree');
      expect(trace.steps.at(-1)?.event).toBe('KV_WRITE_DONE');
      expect(trace.message).toMatch(/^a1 wrote decode page 2 without holding it$/);
    });

    it('catches a side that replies twice: singleTerminalResponse', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          replyDecodeFinished: assign(({ context }, p: Rid) => {
            const rep = { status: 200, tokens: context.requests[p.rid]?.generated ?? 0 };
            return up.reply(up.reply(context, p.rid, 'decode', rep), p.rid, 'decode', rep);
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual(['singleTerminalResponse']);
      expect(traceOf(result, 'singleTerminalResponse').steps.at(-1)?.event).toBe('DECODE_FINISH');
    });

    it('catches a decode step that can never run: noDeadlock, everyRequestAnswered and noLeakAtQuiescence', () => {
      const m = machineFor(happy, 'fixed').provide({ guards: { decodeStepFits: () => false } });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual([
        'noDeadlock',
        'everyRequestAnswered',
        'noLeakAtQuiescence',
      ]);
      const trace = traceOf(result, 'noDeadlock');
      expect(trace.message).toMatch(/is stuck: decode in admitted\.running/);
    });

    it('catches a room whose KVPoll goes backwards: kvPollMonotone', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          recordPoll: assign(({ context }, p: { rid: RequestId; poll: number }) =>
            up.recordPoll(context, p.rid, p.poll === 2 ? 3 : p.poll),
          ),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual(['kvPollMonotone']);
      expect(traceOf(result, 'kvPollMonotone').message).toMatch(/went back to waitingForInput/);
    });
  },
);

describe.each(engineNames)(
  'a scrubbing allocator (the mitigation of PR #39945) on incident under incident-2026 (%s engine)',
  (engine) => {
    it('turns the cross-tenant read into a coverage failure: the placeholder path is still wrong', () => {
      const scrub = (context: ServingContext, rid: RequestId, side: up.Side): ServingContext => {
        const r = context.requests[rid];
        const next = up.releasePages(context, rid, side);
        if (!r || side !== 'decode') return next;
        const ps = next.decodePool.pageSize;
        const writer = next.decodePool.writer.map((w, slot) =>
          r.decodePages.includes(Math.floor(slot / ps)) ? null : w,
        );
        return { ...next, decodePool: { ...next.decodePool, writer } };
      };
      const m = machineFor(incident, 'incident-2026').provide({
        actions: {
          releasePages: assign(({ context }, p: RidSide) => scrub(context, p.rid, p.side)),
        },
      });
      const result = checkMutant(m, incident, 'scrubbing', engine);
      expect(violated(result)).not.toContain('noCrossTenantRead');
      expect(violated(result)).toContain('coverageBeforeCommit');
      expect(violated(result)).toContain('rejectedNeverHandedOff');
    });
  },
);
