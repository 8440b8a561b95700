/**
 * The mechanisms the catalogue's faults B2, B6 and B7 live in, stepped through XState itself:
 * under `fixed` a prefill error after the forward fails the room and releases the KV once, an
 * abort waits for an in-flight chunk result, and without the scenario option nothing changes.
 */
import { freedExactlyOnce } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { lateAbort, prefillError } from '../../src/catalogue/scenarios.ts';
import { check } from '../../src/checker/check.ts';
import { drive, toInflight } from '../machines/drive.ts';

function variantOf(id: string): Variant {
  const e = catalogue.find((x) => x.id === id);
  if (!e) throw new Error(id);
  return e.variant;
}

describe('a prefill error while the last chunk is in flight, under fixed', () => {
  it('fails the room at once, keeps the KV until the terminal cleanup, and answers 500', () => {
    const d = drive(prefillError, fixedVariant()).run(...toInflight('a1'), 'PREFILL_ERROR a1');
    expect(d.at('a1', 'prefill')).toMatchObject({ admitted: 'inflight' });
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.req('a1').prefillAbort).toBe('prefillError');
    expect(d.req('a1').prefillPages).toEqual([0]);
    d.run('PREFILL_RELEASE a1', 'DECODE_TRANSFER_FAILED a1', 'ROUTER_REPLY a1');
    const free = d.ctx().prefillPool.free;
    expect(d.req('a1').clientReply).toEqual({ status: 500, tokens: 0 });
    expect(d.req('a1').prefillPages).toEqual([]);
    expect(free).toEqual([...new Set(free)]);
    expect(free).toHaveLength(10);
  });

  it('under B6 frees the pages at the error, and the terminal cleanup frees them again', () => {
    const d = drive(prefillError, variantOf('B6')).run(...toInflight('a1'), 'PREFILL_ERROR a1');
    expect(d.req('a1').prefillPages).toEqual([0]);
    expect(d.ctx().prefillPool.free).toContain(0);
    d.run('PREFILL_RELEASE a1');
    expect(d.ctx().prefillPool.free.filter((p) => p === 0)).toHaveLength(2);
    expect(freedExactlyOnce.explain(d.state())).toBe('prefill page 0 is on the free list twice');
  });

  it('is not possible once the write has landed', () => {
    const d = drive(prefillError, fixedVariant()).run(...toInflight('a1'), 'KV_WRITE_DONE a1');
    expect(d.enabled('PREFILL_ERROR a1')).toBe(false);
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
  const toForwarded = toInflight('a1').slice(0, -1);

  it('waits for the result under fixed, which retires it and releases its KV', () => {
    const d = drive(lateAbort, fixedVariant()).run(...toForwarded, 'CLIENT_ABORT a1');
    expect(d.at('a1', 'prefill')).toMatchObject({ admitted: 'forwarded' });
    d.run('SEND_KV a1');
    expect(d.at('a1', 'prefill')).toMatchObject({ done: 'aborted' });
    expect(d.req('a1').prefillPages).toEqual([]);
    expect(d.req('a1').replyCount.prefill).toBe(1);
  });

  it('finishes the request at once under B7, leaving its KV held', () => {
    const d = drive(lateAbort, variantOf('B7')).run(...toForwarded, 'CLIENT_ABORT a1');
    expect(d.at('a1', 'prefill')).toMatchObject({ done: 'aborted' });
    expect(d.req('a1').prefillPages).toEqual([0]);
  });
});
