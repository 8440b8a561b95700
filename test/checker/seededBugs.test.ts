/**
 * The checker catches seeded bugs. Each mutant replaces one guard or action implementation of
 * the composed machine (`machine.provide`) with a plausible engine bug; the test asserts the
 * property that must catch it and the shape of the shortest trace.
 */
import { assign } from 'xstate';
import type { ServingContext } from '../../machines/context.ts';
import type { ServingEvent } from '../../machines/events.ts';
import { freePages, writePositions } from '../../machines/kvPagePool.ts';
import { F } from '../../machines/layout.ts';
import type { RequestId, Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import * as up from '../../machines/servingUpdates.ts';
import { requestView } from '../../machines/servingView.ts';
import { findVariant } from '../../machines/variants.ts';
import { listItems, listLen, setBit } from '../../machines/vectorOps.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { type EngineName, engineNames } from '../../src/checker/checkOptions.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { vectorAssign } from '../../src/engine/index.ts';

type Rid = { rid: RequestId };
type RidSide = { rid: RequestId; side: up.Side };

/** A mutant action written, as the machine's own, against the state vector. */
function mutant<P>(update: (c: ServingContext, p: P) => void) {
  return vectorAssign<ServingContext, ServingEvent, P>((c, _args, p) => update(c, p));
}

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
          releasePages: mutant((c, p: RidSide) => {
            if (p.side !== 'decode') return;
            freePages(c.words, c.layout.decode, requestView(c, p.rid).pages('decode'));
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
          preallocateDecode: mutant((c, p: Rid) => {
            const free = c.layout.decode.free;
            const before = c.words.slice(free.at, free.at + free.cap + 1);
            up.preallocateDecode(c, p.rid);
            c.words.set(before, free.at);
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('exclusivePageOwnership');
      expect(violated(result)).toContain('poolAccounting');
      const trace = traceOf(result, 'poolAccounting');
      // Dispatch, decode's intake, then the preallocation: decode does not wait for prefill.
      expect(trace.steps.map((s) => s.event)).toEqual([
        'DISPATCH',
        'DECODE_INTAKE',
        'DECODE_PREALLOC',
      ]);
    });

    it('catches a decode step that attends before storing the new token: noCrossTenantRead', () => {
      // Why this test? Attention reads [0, seq_len] after storing the new token; reading first
      // reads a stale slot the engine never reads. With reused pages it holds the other tenant's KV.
      const readThenStore = (c: ServingContext, rid: RequestId): void => {
        const L = c.layout;
        const { i, b } = up.at(c, rid);
        const seq = c.words[b + F.seqLen] as number;
        const before = c.words.slice();
        up.runDecodeStep(c, rid);
        const row = listItems(c.words, b, L.lists.decodePages);
        if (listLen(c.words, b, L.lists.decodePages) === 0) return;
        const page = row[Math.floor(seq / L.pageSize)] ?? -1;
        const stale = before[L.decode.writer + page * L.pageSize + (seq % L.pageSize)] ?? 0;
        setBit(c.words, L.block(i) + L.lists.reads, L.readBit('decode', page, stale));
      };
      const m = machineFor(happy, 'fixed').provide({
        actions: { runDecodeStep: mutant((c, p: Rid) => readThenStore(c, p.rid)) },
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
          writeTransferredKv: mutant((c, p: Rid) => {
            const r = requestView(c, p.rid);
            const L = c.layout;
            const wrongRow = r.pages('decode').map((page) => (page + 1) % L.decode.pages);
            const n = Math.min(r.prefillLen, r.decodeLen);
            writePositions(c.words, L.decode, L.pageSize, r.code, wrongRow, 0, n);
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('noWriteAfterFree');
      const trace = traceOf(result, 'noWriteAfterFree');
      expect(trace.steps.at(-1)?.event).toBe('KV_WRITE_DONE');
      expect(trace.message).toMatch(/^a1 wrote decode page 2 without holding it$/);
    });

    it('catches prefill pages freed while their sender still transfers them: noReadAfterFree, then foreign KV on decode', () => {
      // The transfer reads prefill's pages when it writes decode's: freed at SEND_KV, they are
      // reused and written by b1 before a1's write lands, so a1's decode slots get b1's KV.
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          sendLastChunk: mutant((c, p: Rid) => {
            up.sendKv(c, p.rid, true);
            up.releasePrefillPagesKeepRow(c, p.rid);
          }),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toContain('noReadAfterFree');
      expect(violated(result)).toContain('noCrossTenantRead');
      const trace = traceOf(result, 'noReadAfterFree');
      expect(trace.steps.at(-1)?.event).toBe('KV_WRITE_DONE');
      expect(trace.message).toMatch(
        /^a1 \(tenant A\): its KV was read from prefill page 0, which it no longer held$/,
      );
      expect(traceOf(result, 'noCrossTenantRead').message).toMatch(
        /^a1 \(tenant A\) read decode page \d+, last written by b1 \(tenant B\)$/,
      );
    });

    it('catches a side that replies twice: singleTerminalResponse', () => {
      const m = machineFor(happy, 'fixed').provide({
        actions: {
          replyDecodeFinished: mutant((c, p: Rid) => {
            const rep = { status: 200, tokens: up.field(c, p.rid, F.generated) };
            up.reply(c, p.rid, 'decode', rep);
            up.reply(c, p.rid, 'decode', rep);
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
          recordPoll: mutant((c, p: { rid: RequestId; poll: number }) =>
            up.recordPoll(c, p.rid, p.poll === 2 ? 3 : p.poll),
          ),
        },
      });
      const result = checkMutant(m, happy, 'mutant', engine);
      expect(violated(result)).toEqual(['kvPollMonotone']);
      // Decode's destination arrives before prefill's sender: the room waits for the sender at
      // WaitingForInput (2), which the mutant records as Transferring (3).
      expect(traceOf(result, 'kvPollMonotone').message).toMatch(
        /room went back to awaitingSender \(KVPoll 2\) after reaching 3$/,
      );
    });
  },
);

describe.each(engineNames)(
  'a scrubbing allocator (the mitigation of PR #39945) on incident under incident-2026 (%s engine)',
  (engine) => {
    it('turns the cross-tenant read into a coverage failure: the placeholder path is still wrong', () => {
      const scrub = (c: ServingContext, rid: RequestId, side: up.Side): void => {
        const L = c.layout;
        const pages = requestView(c, rid).pages('decode');
        up.releasePages(c, rid, side);
        if (side !== 'decode') return;
        for (const page of pages)
          c.words.fill(
            0,
            L.decode.writer + page * L.pageSize,
            L.decode.writer + (page + 1) * L.pageSize,
          );
      };
      const m = machineFor(incident, 'incident-2026').provide({
        actions: {
          releasePages: mutant((c, p: RidSide) => scrub(c, p.rid, p.side)),
        },
      });
      const result = checkMutant(m, incident, 'scrubbing', engine);
      expect(violated(result)).not.toContain('noCrossTenantRead');
      expect(violated(result)).toContain('coverageBeforeCommit');
      expect(violated(result)).toContain('rejectedNeverHandedOff');
    });
  },
);
