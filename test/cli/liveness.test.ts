/**
 * `kvcheck liveness`: the serving model's leads-to properties on the built-in scenarios, a cycle
 * that weak fairness rules out, the lasso's rendering, and the fairness groups.
 */
import { z } from 'zod';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { servingFairness } from '../../src/checker/serving/servingLiveness.ts';
import { lassoText } from '../../src/cli/livenessCommand.ts';
import type { Lasso } from '../../src/engine/index.ts';
import { run } from './runCli.ts';

const verdict = z.object({ name: z.string(), violated: z.boolean(), cycles: z.number() });
const outputSchema = z.object({
  results: z.array(
    z.object({
      scenario: z.string(),
      variant: z.string(),
      status: z.enum(['ok', 'violation', 'incomplete']),
      stats: z.object({ states: z.number(), transitions: z.number() }),
      properties: z.array(verdict),
      lassos: z.array(z.unknown()),
    }),
  ),
});

describe('kvcheck liveness', () => {
  it('holds on happy × fixed, where no run of the unreduced graph cycles', async () => {
    const r = await run('liveness', '--scenario', 'happy', '--variant', 'fixed', '--json');
    expect(r.code).toBe(0);
    const [row] = outputSchema.parse(JSON.parse(r.out)).results;
    expect(row).toMatchObject({ status: 'ok', stats: { states: 2195 } });
    expect(row?.properties).toEqual([
      { name: 'eventuallyAnswered', violated: false, cycles: 0 },
      { name: 'pagesEventuallyFreed', violated: false, cycles: 0 },
    ]);
  });

  it('does not count a repeated fault as a livelock: B2’s PREFILL_ERROR loop is not fair', async () => {
    // Under B2 a second PREFILL_ERROR changes nothing but is still a step: a cycle in which the
    // prefill and transfer regions stay enabled and never move.
    const r = await run(
      'liveness',
      '--scenario',
      'prefill-error',
      '--variant',
      'b2-success-overwrites-abort',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('eventuallyAnswered holds (1 cycle(s), none fair)');
  });
});

describe('lassoText', () => {
  it('numbers the steps, marks where the cycle starts and says where it returns', () => {
    const state = { value: {}, context: {} as ServingContext };
    const step = (type: ExternalEvent['type']) => ({
      event: { type, rid: 'a1' } as ExternalEvent,
      state,
    });
    const lasso: Lasso<ServingContext, ExternalEvent> = {
      name: 'eventuallyAnswered',
      obligation: 0,
      initial: state,
      trace: [step('DISPATCH'), step('DECODE_STEP'), step('DECODE_STEP')],
      loop: 1,
    };
    expect(lassoText(lasso, 'a1')).toEqual([
      '  eventuallyAnswered violated for a1: a lasso of 3 steps, cycling from step 2',
      '    Every dispatched request is eventually answered by the router.',
      '    1. DISPATCH a1',
      '    2. DECODE_STEP a1  ← cycle starts',
      '    3. DECODE_STEP a1',
      '    ↺ back to the state after step 1',
    ]);
  });
});

describe('servingFairness', () => {
  it('groups events by request region, and leaves faults and client aborts unfair', () => {
    expect(servingFairness({ type: 'DECODE_STEP', rid: 'a1' })).toBe('a1.decode');
    expect(servingFairness({ type: 'KV_WRITE_DONE', rid: 'b1' })).toBe('b1.transfer');
    expect(servingFairness({ type: 'TIMEOUT', rid: 'b1' })).toBe('b1.timer');
    expect(servingFairness({ type: 'TRANSFER_FAIL', rid: 'a1' })).toBeNull();
    expect(servingFairness({ type: 'CLIENT_ABORT', rid: 'a1' })).toBeNull();
  });
});
