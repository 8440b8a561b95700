/**
 * Departures from the engine the model follows, each pinned where the upstream code decides it
 * (the file and function are cited at the state or update that follows it).
 */
import { describe, expect, it } from 'vitest';
import { kvPollMonotone, rejectedHoldsNothing } from '../../invariants/index.ts';
import { variantNamed } from '../../machines/variants.ts';
import { band, incident } from '../../scenarios/index.ts';
import { drive, toInflight } from './drive.ts';

describe('a decode placeholder (process_batch_result_prebuilt)', () => {
  // band: b1's 5-token prompt is rejected by the scheduler on both sides, so under
  // incident-2026 it is a placeholder on prefill and on decode.
  const committed = () =>
    drive(band, variantNamed('incident-2026')).run(
      ...toInflight('b1'),
      'KV_WRITE_DONE b1',
      'PREFILL_RELEASE b1',
      'DECODE_COMMIT b1',
    );

  it('ends at commit with its 400 and its pages freed, before any decode step', () => {
    const d = committed();
    expect(d.at('b1', 'decode')).toEqual({ done: 'aborted' });
    const b1 = d.req('b1');
    expect(b1.rejectedOnDecode).toBe(true);
    expect(b1.decodeReply).toEqual({ status: 400, tokens: 0 });
    expect(b1.decodePages).toEqual([]);
    expect(b1.reads.filter((r) => r.node === 'decode')).toEqual([]);
  });

  it('offers no decode step for it', () => {
    expect(committed().enabled('DECODE_STEP b1')).toBe(false);
  });
});

describe('KVPoll: Failed overrides Success (update_status)', () => {
  const aborts = { ...incident, name: 'aborts', clientAborts: true };

  it('fails a room that reached Success when the client aborts before prefill released it', () => {
    const d = drive(aborts, variantNamed('fixed')).run(...toInflight('a1'), 'KV_WRITE_DONE a1');
    expect(d.at('a1', 'transfer')).toBe('success');
    d.run('CLIENT_ABORT a1');
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.req('a1')).toMatchObject({ pollPeak: 4, pollFailed: true });
    // Prefill's inflight poll now reads Failed: the request fails there instead of finishing.
    d.run('PREFILL_RELEASE a1');
    expect(d.at('a1', 'prefill')).toEqual({ done: 'failed' });
    expect(d.req('a1')).toMatchObject({
      prefillAbort: 'transferFailed',
      prefillReply: { status: 500, tokens: 0 },
      prefillPages: [],
    });
  });

  it('keeps a Success that no abort followed', () => {
    const d = drive(aborts, variantNamed('fixed')).run(
      ...toInflight('a1'),
      'KV_WRITE_DONE a1',
      'PREFILL_RELEASE a1',
    );
    expect(d.at('a1', 'prefill')).toEqual({ done: 'finished' });
    expect(d.at('a1', 'transfer')).toBe('success');
  });
});

describe('a destination that arrived before any sender (awaitingSender)', () => {
  const aborts = { ...incident, name: 'aborts', clientAborts: true };

  it('is failed by decode’s abort without counting as a room prefill opened', () => {
    // Under fixed, prefill retires b1 at admission; decode, whose pool admits it, preallocated
    // first. The client's abort makes decode's receiver fail the room in prefill's table.
    const d = drive(aborts, variantNamed('fixed')).run(
      'DISPATCH b1',
      'DECODE_INTAKE b1',
      'DECODE_PREALLOC b1',
      'PREFILL_INTAKE b1',
    );
    expect(d.at('b1', 'transfer')).toBe('awaitingSender');
    d.run('CLIENT_ABORT b1');
    expect(d.at('b1', 'transfer')).toBe('abandoned');
    expect(d.req('b1')).toMatchObject({ decodePages: [], pollFailed: true });
    expect(rejectedHoldsNothing(d.state())).toBe(true);
    expect(kvPollMonotone(d.state())).toBe(true);
  });
});
