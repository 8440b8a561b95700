/**
 * The mechanisms the catalogue's faults B2, B6 and B7 live in, stepped through XState itself:
 * under `fixed` a prefill error after the forward fails the room and releases the KV once, an
 * abort waits for an in-flight chunk result, and without the scenario option nothing changes.
 */
import { type AnyMachineSnapshot, initialTransition, transition } from 'xstate';
import { freedExactlyOnce } from '../../invariants/index.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { lateAbort, prefillError } from '../../src/catalogue/scenarios.ts';
import { check } from '../../src/checker/check.ts';

function variantOf(id: string): Variant {
  const e = catalogue.find((x) => x.id === id);
  if (!e) throw new Error(id);
  return e.variant;
}

/** Runs `events` for a1 from the initial state; each must change the snapshot. */
function walk(scenario: Scenario, variant: Variant, events: readonly ExternalEvent['type'][]) {
  const machine = createServingMachine(scenario, variant);
  let [s]: [AnyMachineSnapshot, ...unknown[]] = initialTransition(machine);
  for (const type of events) {
    const [next] = transition(machine, s, { type, rid: 'a1' });
    expect(next, type).not.toBe(s);
    s = next;
  }
  return { machine, s };
}

const toInflight = [
  'DISPATCH',
  'PREFILL_INTAKE',
  'DECODE_INTAKE',
  'DECODE_PREALLOC',
  'PREFILL_BOOTSTRAPPED',
  'PREFILL_FORWARD',
  'SEND_KV',
] as const;

describe('a prefill error while the last chunk is in flight, under fixed', () => {
  it('fails the room at once, keeps the KV until the terminal cleanup, and answers 500', () => {
    const { s: afterError } = walk(prefillError, fixedVariant(), [...toInflight, 'PREFILL_ERROR']);
    expect(afterError.value).toMatchObject({ a1: { prefill: { admitted: 'inflight' } } });
    expect(afterError.value).toMatchObject({ a1: { transfer: 'failed' } });
    expect(afterError.context.requests.a1?.aborted).toBe(true);
    expect(afterError.context.requests.a1?.prefillPages).toEqual([0]);
    const { s } = walk(prefillError, fixedVariant(), [
      ...toInflight,
      'PREFILL_ERROR',
      'PREFILL_RELEASE',
      'DECODE_TRANSFER_FAILED',
      'ROUTER_REPLY',
    ]);
    const a1 = s.context.requests.a1;
    expect(a1?.clientReply).toEqual({ status: 500, tokens: 0 });
    expect(a1?.prefillPages).toEqual([]);
    expect(s.context.prefillPool.free).toEqual([...new Set(s.context.prefillPool.free)]);
    expect(s.context.prefillPool.free).toHaveLength(10);
  });

  it('under B6 frees the pages at the error, and the terminal cleanup frees them again', () => {
    const { s: afterError } = walk(prefillError, variantOf('B6'), [...toInflight, 'PREFILL_ERROR']);
    expect(afterError.context.requests.a1?.prefillPages).toEqual([0]);
    expect(afterError.context.prefillPool.free).toContain(0);
    const { s } = walk(prefillError, variantOf('B6'), [
      ...toInflight,
      'PREFILL_ERROR',
      'PREFILL_RELEASE',
    ]);
    const free = s.context.prefillPool.free;
    expect(free.filter((p: number) => p === 0)).toHaveLength(2);
    expect(freedExactlyOnce.explain(s)).toBe('prefill page 0 is on the free list twice');
  });

  it('is not possible once the write has landed', () => {
    const { machine, s } = walk(prefillError, fixedVariant(), [...toInflight, 'KV_WRITE_DONE']);
    const [next] = transition(machine, s, { type: 'PREFILL_ERROR', rid: 'a1' });
    expect(next.value).toEqual(s.value);
    expect(next.context).toEqual(s.context);
  });
});

describe('without the prefillErrors option', () => {
  const off: Scenario = { ...prefillError, name: 'no-prefill-errors', prefillErrors: undefined };

  it.each(['B2', 'B6'])('%s explores exactly fixed’s states and holds every property', (id) => {
    const fixed = check(off, fixedVariant());
    const faulty = check(off, variantOf(id));
    expect(faulty.status).toBe('ok');
    expect(faulty.stats).toMatchObject({
      states: fixed.stats.states,
      transitions: fixed.stats.transitions,
    });
  });
});

describe('an abort while a chunk result is in flight', () => {
  const toForwarded = toInflight.slice(0, -1);

  it('waits for the result under fixed, which retires it and releases its KV', () => {
    const { machine, s } = walk(lateAbort, fixedVariant(), [...toForwarded, 'CLIENT_ABORT']);
    expect(s.value).toMatchObject({ a1: { prefill: { admitted: 'forwarded' } } });
    const [retired] = transition(machine, s, { type: 'SEND_KV', rid: 'a1' });
    expect(retired.value).toMatchObject({ a1: { prefill: { done: 'aborted' } } });
    expect(retired.context.requests.a1?.prefillPages).toEqual([]);
    expect(retired.context.requests.a1?.replyCount.prefill).toBe(1);
  });

  it('finishes the request at once under B7, leaving its KV held', () => {
    const { s } = walk(lateAbort, variantOf('B7'), [...toForwarded, 'CLIENT_ABORT']);
    expect(s.value).toMatchObject({ a1: { prefill: { done: 'aborted' } } });
    expect(s.context.requests.a1?.prefillPages).toEqual([0]);
  });
});
