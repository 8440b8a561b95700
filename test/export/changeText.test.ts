/**
 * Change records told as the sentences every step table prints: one case per record kind (and
 * per sentence shape within a kind), and the familiar sentences of the incident's leak trace.
 */
import type { TraceChange } from '../../src/checker/outcome.ts';
import { changeText, kvPollName, writerLabel } from '../../src/export/changeText.ts';
import { incidentTrace } from './fixtures.ts';

const a1 = { rid: 'a1', tenant: 'A' };
const b1 = { rid: 'b1', tenant: 'B' };

describe('changeText', () => {
  it.each<[TraceChange, string]>([
    [
      {
        kind: 'regionMoved',
        rid: 'b1',
        region: 'prefill',
        from: 'received',
        to: 'placeholder.bootstrapping',
      },
      'b1 prefill: received → placeholder.bootstrapping',
    ],
    [
      { kind: 'roomPoll', rid: 'b1', from: 'unopened', to: 'bootstrapping' },
      'b1 room: no room → KVPoll Bootstrapping',
    ],
    [
      { kind: 'roomPoll', rid: 'b1', from: 'transferring', to: 'draining' },
      'b1 room: KVPoll Transferring → KVPoll Failed, a write still in flight',
    ],
    [
      { kind: 'placeholderSwapped', rid: 'b1', side: 'decode' },
      'b1 prompt swapped for a 1-token placeholder on decode',
    ],
    [
      { kind: 'abortPending', rid: 'b1' },
      'b1: prefill hit an error; the abort is pending (to_finish)',
    ],
    [{ kind: 'kvArrived', rid: 'b1', positions: 1 }, 'b1: 1 position(s) of KV arrived on decode'],
    [{ kind: 'committed', rid: 'b1', seqLen: 3 }, 'b1 committed with seq_len 3'],
    [{ kind: 'auxSlotTaken', rid: 'b1', slot: 0 }, 'decode metadata slot 0 taken by b1'],
    [
      { kind: 'auxSlotFreed', rid: 'b1', slot: 0 },
      'decode metadata slot 0 freed by b1 (room reset)',
    ],
    [
      { kind: 'auxDataWritten', rid: 'a1', slot: 1 },
      'decode metadata slot 1 now holds the aux data of a1',
    ],
    [
      { kind: 'foreignFirstToken', rid: 'b1' },
      'b1 takes its first token from aux data written for another room',
    ],
    [
      { kind: 'releaseDeferred', rid: 'a1' },
      'a1 decode pages kept until the in-flight write drains',
    ],
    [
      { kind: 'kvOffloaded', rid: 'b1', positions: 2 },
      'b1 retracted: KV of 2 position(s) copied to host, its decode pages freed',
    ],
    [
      { kind: 'kvLoaded', rid: 'b1', positions: 2 },
      'b1 resumed: KV of 2 position(s) loaded back from host',
    ],
    [
      { kind: 'prefixReused', rid: 'b1', pages: [0, 1] },
      'b1 reuses prefill cache page(s) 0, 1 (locked)',
    ],
    [
      { kind: 'pageAllocated', node: 'decode', page: 0, rid: 'b1', heldKvOf: [] },
      'decode page 0 allocated to b1',
    ],
    [
      { kind: 'pageAllocated', node: 'decode', page: 0, rid: 'b1', heldKvOf: ['a1', 'c1'] },
      'decode page 0 allocated to b1, still holding KV of a1, c1',
    ],
    [
      { kind: 'pageFreed', node: 'decode', page: 0, rid: 'a1', cachedBy: null },
      'decode page 0 freed by a1 (not scrubbed)',
    ],
    [
      { kind: 'pageFreed', node: 'prefill', page: 2, rid: 'a1', cachedBy: a1 },
      'prefill page 2 kept in the prefix cache, inserted by a1 (tenant A)',
    ],
    [
      { kind: 'slotWritten', node: 'decode', page: 0, slot: null, writer: b1, was: 'a1' },
      'decode page 0 written by b1 (tenant B) (was a1)',
    ],
    [
      { kind: 'slotWritten', node: 'prefill', page: 2, slot: 1, writer: b1, was: null },
      'prefill page 2 slot 1 written by b1 (tenant B) (was never written)',
    ],
    [
      { kind: 'slotRead', rid: 'b1', node: 'decode', page: 1, writer: a1, foreign: true },
      'b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV',
    ],
    [
      { kind: 'slotRead', rid: 'b1', node: 'decode', page: 2, writer: null, foreign: false },
      'b1 reads decode page 2, last written by nobody',
    ],
    [
      { kind: 'reply', rid: 'a1', side: 'prefill', status: 200, tokens: 1 },
      'a1 prefill replies 200 (1 token(s))',
    ],
    [
      { kind: 'reply', rid: 'b1', side: 'client', status: 200, tokens: 2 },
      'b1 client gets 200 (2 token(s))',
    ],
  ])('tells %j as %j', (change, sentence) => {
    expect(changeText(change)).toBe(sentence);
  });

  it('names a room state by its KVPoll and keeps an unknown one as it is', () => {
    expect(kvPollName('success')).toBe('KVPoll Success');
    expect(kvPollName('leased')).toBe('prefill’s pages leased for decode’s READ (pull)');
    expect(kvPollName('somewhere.new')).toBe('somewhere.new');
  });

  it('labels a writer of unknown tenant with ?, and no writer as nobody', () => {
    expect(writerLabel({ rid: 'x1', tenant: null })).toBe('x1 (tenant ?)');
    expect(writerLabel(null)).toBe('nobody');
  });

  it('tells the incident’s leak in the familiar sentences', () => {
    const { trace } = incidentTrace('noCrossTenantRead');
    const intake = trace.steps.find((s) => s.event === 'PREFILL_INTAKE' && s.rid === 'b1');
    expect(intake?.changes.map(changeText)).toEqual([
      'b1 prefill: received → placeholder.bootstrapping',
      'b1 room: no room → KVPoll Bootstrapping',
      'b1 prompt swapped for a 1-token placeholder on prefill',
    ]);
    expect(trace.steps.at(-1)?.changes.map(changeText)).toContain(
      'b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV',
    );
  });
});
