import { initialContext, type KvRead, type ServingContext } from '../../machines/context.ts';
import { decodeContext, encodeContext } from '../../machines/contextCodec.ts';
import type { Scenario } from '../../machines/scenario.ts';
import {
  admit,
  commitDecode,
  decodeStepFits,
  forwardReply,
  markAborted,
  markRejected,
  preallocateDecode,
  recordPoll,
  releasePages,
  reply,
  runDecodeStep,
  runPrefillChunk,
  sendKv,
  swapForPlaceholder,
  writeTransferredKv,
} from '../../machines/servingUpdates.ts';
import { incident } from '../../scenarios/index.ts';
import { applyUpdates as apply, decoded, req, wordsOf } from './vector.ts';

/** a1 admitted on both sides, prefilled, transferred and committed (prompt 1, pageSize 1). */
function a1Committed(scenario: Scenario = incident): ServingContext {
  return apply(
    initialContext(scenario),
    (c) => admit(c, 'a1', 'prefill', 1),
    (c) => admit(c, 'a1', 'decode', 1),
    (c) => preallocateDecode(c, 'a1'),
    (c) => runPrefillChunk(c, 'a1', 1),
    (c) => sendKv(c, 'a1', true),
    (c) => writeTransferredKv(c, 'a1'),
    (c) => commitDecode(c, 'a1'),
  );
}

describe('intake updates', () => {
  it('admit records the length each side will compute or hold', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => admit(c, 'b1', 'prefill', 3),
      (c) => admit(c, 'b1', 'decode', 3),
    );
    expect(req(ctx, 'b1')).toMatchObject({ prefillLen: 3, decodeLen: 3 });
  });

  it('swapForPlaceholder shrinks the prompt to one token on that side and marks it rejected', () => {
    const ctx = apply(initialContext(incident), (c) => swapForPlaceholder(c, 'b1', 'prefill'));
    expect(req(ctx, 'b1')).toMatchObject({
      prefillLen: 1,
      rejectedOnPrefill: true,
      decodeLen: 0,
      rejectedOnDecode: false,
    });
    const both = apply(ctx, (c) => swapForPlaceholder(c, 'b1', 'decode'));
    expect(req(both, 'b1')).toMatchObject({ decodeLen: 1, rejectedOnDecode: true });
  });

  it('markRejected marks a clean rejection without changing lengths', () => {
    const ctx = apply(initialContext(incident), (c) => markRejected(c, 'b1', 'decode'));
    expect(req(ctx, 'b1')).toMatchObject({
      rejectedOnDecode: true,
      rejectedOnPrefill: false,
      decodeLen: 0,
    });
  });

  it('markAborted records the side and the cause, and nothing for the other side', () => {
    const ctx = apply(initialContext(incident), (c) =>
      markAborted(c, 'a1', 'decode', 'waitTimeout'),
    );
    expect(req(ctx, 'a1')).toMatchObject({ decodeAbort: 'waitTimeout', prefillAbort: null });
  });

  it('throws on a request the scenario does not have', () => {
    expect(() => admit(initialContext(incident), 'zz', 'prefill', 1)).toThrow('unknown request zz');
  });

  it('leaves other requests untouched', () => {
    const before = initialContext(incident);
    const after = apply(before, (c) => admit(c, 'a1', 'prefill', 1));
    expect(req(after, 'b1')).toEqual(req(before, 'b1'));
    const { layout } = before;
    const b1 = layout.block(layout.indexOf('b1'));
    const block = (c: ServingContext) => Array.from(c.words.subarray(b1, b1 + layout.blockWords));
    expect(block(after)).toEqual(block(before));
  });
});

describe('replies', () => {
  it('reply stores the side’s reply and counts it', () => {
    const once = apply(initialContext(incident), (c) =>
      reply(c, 'b1', 'prefill', { status: 400, tokens: 0 }),
    );
    const twice = apply(once, (c) => reply(c, 'b1', 'prefill', { status: 500, tokens: 0 }));
    expect(req(twice, 'b1').prefillReply).toEqual({ status: 500, tokens: 0 });
    expect(req(twice, 'b1').replyCount).toEqual({ prefill: 2, decode: 0, client: 0 });
  });

  it('forwardReply copies the chosen side’s reply to the client and counts it', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => reply(c, 'b1', 'prefill', { status: 400, tokens: 0 }),
      (c) => reply(c, 'b1', 'decode', { status: 200, tokens: 2 }),
      (c) => forwardReply(c, 'b1', 'decode'),
    );
    expect(req(ctx, 'b1').clientReply).toEqual({ status: 200, tokens: 2 });
    expect(req(ctx, 'b1').replyCount.client).toBe(1);
  });

  it('forwardReply answers 502 when the chosen side has not replied', () => {
    const ctx = apply(initialContext(incident), (c) => forwardReply(c, 'a1', 'decode'));
    expect(req(ctx, 'a1').clientReply).toEqual({ status: 502, tokens: 0 });
  });
});

describe('runPrefillChunk', () => {
  it('allocates pages for prefillLen, writes them and reads them back', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => admit(c, 'b1', 'prefill', 2),
      (c) => runPrefillChunk(c, 'b1', 2),
    );
    expect(req(ctx, 'b1').prefillPages).toEqual([0, 1]);
    expect(decoded(ctx).prefillPool.owner.slice(0, 3)).toEqual(['b1', 'b1', null]);
    expect(decoded(ctx).prefillPool.writer.slice(0, 3)).toEqual(['b1', 'b1', null]);
    expect(req(ctx, 'b1').reads).toEqual([
      { node: 'prefill', page: 0, writer: 'b1' },
      { node: 'prefill', page: 1, writer: 'b1' },
    ]);
  });

  it('computes a placeholder as one token: one page written, whatever the prompt', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => swapForPlaceholder(c, 'b1', 'prefill'),
      (c) => runPrefillChunk(c, 'b1', 3),
    );
    expect(req(ctx, 'b1').prefillPages).toEqual([0]);
    expect(decoded(ctx).prefillPool.writer.filter((w) => w !== null)).toEqual(['b1']);
  });

  it('leaves the context unchanged when the pool cannot hold the prompt', () => {
    const before = apply(initialContext(incident), (c) => admit(c, 'b1', 'prefill', 9));
    const after = apply(before, (c) => runPrefillChunk(c, 'b1', 9));
    expect(wordsOf(after)).toEqual(wordsOf(before));
  });
});

describe('transfer and commit', () => {
  it('preallocateDecode takes pages for decodeLen without clearing their slots', () => {
    const ctx = apply(
      a1Committed(),
      (c) => releasePages(c, 'a1', 'decode'),
      (c) => admit(c, 'b1', 'decode', 3),
      (c) => preallocateDecode(c, 'b1'),
    );
    expect(req(ctx, 'b1').decodePages).toEqual([0, 1, 2]);
    expect(decoded(ctx).decodePool.writer[0]).toBe('a1');
  });

  it('writeTransferredKv writes min(prefillLen, decodeLen) positions and records them as arrived', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => swapForPlaceholder(c, 'b1', 'prefill'),
      (c) => admit(c, 'b1', 'decode', 3),
      (c) => preallocateDecode(c, 'b1'),
      (c) => runPrefillChunk(c, 'b1', 3),
      (c) => sendKv(c, 'b1', true),
      (c) => writeTransferredKv(c, 'b1'),
    );
    expect(req(ctx, 'b1').kvArrived).toBe(1);
    expect(decoded(ctx).decodePool.writer.slice(0, 4)).toEqual(['b1', null, null, null]);
  });

  it('writeTransferredKv truncates to decode’s length when decode holds less than prefill sent', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => admit(c, 'b1', 'prefill', 3),
      (c) => swapForPlaceholder(c, 'b1', 'decode'),
      (c) => preallocateDecode(c, 'b1'),
      (c) => runPrefillChunk(c, 'b1', 3),
      (c) => sendKv(c, 'b1', true),
      (c) => writeTransferredKv(c, 'b1'),
    );
    expect(req(ctx, 'b1').kvArrived).toBe(1);
    expect(decoded(ctx).decodePool.writer.slice(0, 2)).toEqual(['b1', null]);
  });

  it('commitDecode sets seq_len to decodeLen whatever arrived, and counts the first token', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => swapForPlaceholder(c, 'b1', 'prefill'),
      (c) => admit(c, 'b1', 'decode', 3),
      (c) => preallocateDecode(c, 'b1'),
      (c) => runPrefillChunk(c, 'b1', 3),
      (c) => sendKv(c, 'b1', true),
      (c) => writeTransferredKv(c, 'b1'),
      (c) => commitDecode(c, 'b1'),
    );
    expect(req(ctx, 'b1')).toMatchObject({
      kvArrived: 1,
      seqLen: 3,
      generated: 1,
      committed: true,
    });
  });

  it('sendKv sets the kvSent ghost and, for the last chunk, sends everything computed', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => admit(c, 'b1', 'prefill', 2),
      (c) => runPrefillChunk(c, 'b1', 2),
      (c) => sendKv(c, 'b1', true),
    );
    expect(req(ctx, 'b1')).toMatchObject({ kvSent: true, kvSentUpTo: 2 });
  });

  it('sends a non-final chunk’s page-aligned prefix only, and writes it as it lands', () => {
    const two = { ...incident, pageSize: 2 };
    const chunk = apply(
      initialContext(two),
      (c) => admit(c, 'a1', 'prefill', 3),
      (c) => admit(c, 'a1', 'decode', 3),
      (c) => preallocateDecode(c, 'a1'),
      (c) => runPrefillChunk(c, 'a1', 3),
      (c) => sendKv(c, 'a1', false),
    );
    expect(req(chunk, 'a1')).toMatchObject({ prefilled: 3, kvSentUpTo: 2 });
    const landed = apply(chunk, (c) => writeTransferredKv(c, 'a1'));
    expect(req(landed, 'a1').kvArrived).toBe(2);
    const again = apply(landed, (c) => writeTransferredKv(c, 'a1'));
    expect(wordsOf(again)).toEqual(wordsOf(landed));
  });

  it('computes a prompt chunk by chunk, allocating only the pages each chunk needs', () => {
    const first = apply(
      initialContext(incident),
      (c) => admit(c, 'b1', 'prefill', 3),
      (c) => runPrefillChunk(c, 'b1', 2),
    );
    expect(req(first, 'b1')).toMatchObject({ prefilled: 2, prefillPages: [0, 1] });
    const second = apply(first, (c) => runPrefillChunk(c, 'b1', 2));
    expect(req(second, 'b1')).toMatchObject({ prefilled: 3, prefillPages: [0, 1, 2] });
    expect(decoded(second).prefillPool.writer.slice(0, 4)).toEqual(['b1', 'b1', 'b1', null]);
  });
});

describe('runDecodeStep', () => {
  it('stores the new token at seq_len, taking a page when the row is full, then reads [0, seq_len]', () => {
    const before = a1Committed();
    expect(req(before, 'a1')).toMatchObject({ seqLen: 1, decodePages: [0] });
    const ctx = apply(before, (c) => runDecodeStep(c, 'a1'));
    expect(req(ctx, 'a1')).toMatchObject({ seqLen: 2, generated: 2, decodePages: [0, 1] });
    expect(decoded(ctx).decodePool.owner.slice(0, 3)).toEqual(['a1', 'a1', null]);
    expect(decoded(ctx).decodePool.writer.slice(0, 3)).toEqual(['a1', 'a1', null]);
    expect(req(ctx, 'a1').reads.filter((r) => r.node === 'decode')).toEqual([
      { node: 'decode', page: 0, writer: 'a1' },
      { node: 'decode', page: 1, writer: 'a1' },
    ]);
  });

  it('reads the stale slots of a committed placeholder, written by another tenant', () => {
    const a1Gone = apply(
      a1Committed(),
      (c) => runDecodeStep(c, 'a1'),
      (c) => releasePages(c, 'a1', 'decode'),
    );
    const ctx = apply(
      a1Gone,
      (c) => swapForPlaceholder(c, 'b1', 'prefill'),
      (c) => admit(c, 'b1', 'decode', 3),
      (c) => preallocateDecode(c, 'b1'),
      (c) => runPrefillChunk(c, 'b1', 3),
      (c) => sendKv(c, 'b1', true),
      (c) => writeTransferredKv(c, 'b1'),
      (c) => commitDecode(c, 'b1'),
      (c) => runDecodeStep(c, 'b1'),
    );
    // Preallocated [0, 1, 2] for the full prompt, one position arrived, seq_len 3: the step
    // stores at position 3 (a fresh page) and attends over 0..3.
    expect(req(ctx, 'b1').decodePages).toEqual([0, 1, 2, 3]);
    expect(req(ctx, 'b1').reads.filter((r) => r.node === 'decode')).toEqual([
      { node: 'decode', page: 0, writer: 'b1' },
      { node: 'decode', page: 1, writer: 'a1' },
      { node: 'decode', page: 2, writer: null },
      { node: 'decode', page: 3, writer: 'b1' },
    ]);
  });

  it('stores into the current page without allocating while the page has room (pageSize 2)', () => {
    const ctx = apply(a1Committed({ ...incident, pageSize: 2 }), (c) => runDecodeStep(c, 'a1'));
    expect(req(ctx, 'a1')).toMatchObject({ seqLen: 2, decodePages: [0] });
    expect(decoded(ctx).decodePool.free).toEqual([1, 2, 3, 4]);
    expect(decoded(ctx).decodePool.writer.slice(0, 2)).toEqual(['a1', 'a1']);
  });

  it('decodeStepFits is false only when the step needs a page and none is free', () => {
    const committed = a1Committed({ ...incident, decodePoolTokens: 1 });
    expect(decoded(committed).decodePool.free).toEqual([]);
    expect(decodeStepFits(committed, 'a1')).toBe(false);
    const stepped = apply(committed, (c) => runDecodeStep(c, 'a1'));
    expect(wordsOf(stepped)).toEqual(wordsOf(committed));
    const roomy = a1Committed({ ...incident, pageSize: 2, decodePoolTokens: 2 });
    expect(decoded(roomy).decodePool.free).toEqual([]);
    expect(decodeStepFits(roomy, 'a1')).toBe(true);
  });
});

describe('releasePages', () => {
  it('frees the side’s pages and empties the row without scrubbing their slots', () => {
    const before = apply(a1Committed(), (c) => runDecodeStep(c, 'a1'));
    const ctx = apply(before, (c) => releasePages(c, 'a1', 'decode'));
    expect(req(ctx, 'a1').decodePages).toEqual([]);
    expect(decoded(ctx).decodePool.free.slice(0, 2)).toEqual([0, 1]);
    expect(decoded(ctx).decodePool.owner.every((o) => o === null)).toBe(true);
    expect(decoded(ctx).decodePool.writer).toEqual(decoded(before).decodePool.writer);
  });

  it('frees only the side it is asked to', () => {
    const ctx = apply(a1Committed(), (c) => releasePages(c, 'a1', 'prefill'));
    expect(req(ctx, 'a1')).toMatchObject({ prefillPages: [], decodePages: [0] });
    expect(decoded(ctx).prefillPool.writer[0]).toBe('a1');
  });
});

// Reads are a bitset in the vector, so a read recorded twice is one bit and no order is stored;
// the decoded read set is what must come out deduplicated and sorted.
describe('the read set', () => {
  const read = (node: KvRead['node'], page: number, writer: string | null): KvRead => ({
    node,
    page,
    writer,
  });
  // Eleven decode pages, so that decode page 10 exists.
  const roomy: Scenario = { ...incident, decodePoolTokens: 11 };

  /** The context of `roomy` with `reads` recorded for a1, in the order given. */
  function withReads(reads: readonly KvRead[]): ServingContext {
    const initial = initialContext(roomy);
    const d = decodeContext(initial);
    const a1 = req(initial, 'a1');
    return encodeContext(initial.layout, {
      ...d,
      requests: { ...d.requests, a1: { ...a1, reads } },
    });
  }

  it('deduplicates reads and sorts them by node, page and writer', () => {
    const existing = [read('prefill', 0, 'a1'), read('decode', 10, 'b1')];
    const added = [read('decode', 2, 'a1'), read('decode', 10, 'b1'), read('decode', 2, null)];
    expect(req(withReads([...existing, ...added]), 'a1').reads).toEqual([
      read('decode', 2, null),
      read('decode', 2, 'a1'),
      read('decode', 10, 'b1'),
      read('prefill', 0, 'a1'),
    ]);
  });

  it('gives the same result whatever the order reads arrive in', () => {
    const reads = [read('decode', 1, 'a1'), read('prefill', 0, 'b1'), read('decode', 0, 'b1')];
    const inOrder = withReads(reads);
    const rotated = withReads([...reads.slice(1), ...reads.slice(0, 1)]);
    expect(req(inOrder, 'a1').reads).toEqual(req(rotated, 'a1').reads);
    expect(wordsOf(inOrder)).toEqual(wordsOf(rotated));
  });
});

describe('recordPoll', () => {
  it('keeps the highest non-Failed KVPoll reached', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => recordPoll(c, 'a1', 3),
      (c) => recordPoll(c, 'a1', 2),
    );
    expect(req(ctx, 'a1')).toMatchObject({ pollPeak: 3, pollFailed: false });
  });

  it('marks Failed without lowering the peak', () => {
    const ctx = apply(
      initialContext(incident),
      (c) => recordPoll(c, 'a1', 2),
      (c) => recordPoll(c, 'a1', 0),
    );
    expect(req(ctx, 'a1')).toMatchObject({ pollPeak: 2, pollFailed: true });
  });
});
