/**
 * The step → messages mapping both sequence diagrams draw: which change record becomes which
 * arrow or note line, who talks to whom, and the decisive message of the last step.
 */
import type { Trace, TraceChange } from '../../src/checker/outcome.ts';
import { sequenceModel, sequenceParticipants } from '../../src/export/sequenceMessages.ts';
import { incidentTrace } from './fixtures.ts';

const a1 = { rid: 'a1', tenant: 'A' };
const b1 = { rid: 'b1', tenant: 'B' };

/** A one-step trace: `actor` acts on b1 (tenant B), and the step makes `changes`. */
function oneStep(actor: string, changes: readonly TraceChange[]): Trace {
  const step = { step: 1, actor, event: 'E', rid: 'b1', tenant: 'B', changes, regions: {} };
  return { message: 'm', steps: [step] };
}

/** What the step draws: `note: …` for each note line after the head, `from->to: …` per arrow. */
function drawn(actor: string, changes: readonly TraceChange[]): string[] {
  const s = sequenceModel(oneStep(actor, changes), 'p').steps[0];
  return [
    ...(s?.note.slice(1) ?? []).map((n) => `note: ${n}`),
    ...(s?.messages ?? []).map((m) => `${m.from}->${m.to}: ${m.text}`),
  ];
}

describe('change records in a sequence step', () => {
  it.each<[string, TraceChange, string]>([
    [
      'router',
      { kind: 'regionMoved', rid: 'b1', region: 'decode', from: 'idle', to: 'received' },
      'router->decodeScheduler: b1 decode: idle → received',
    ],
    [
      'router',
      { kind: 'regionMoved', rid: 'b1', region: 'router', from: 'idle', to: 'awaiting' },
      'note: b1 router: idle → awaiting',
    ],
    [
      'prefill scheduler',
      { kind: 'roomPoll', rid: 'b1', from: 'unopened', to: 'bootstrapping' },
      'prefillScheduler->transfer: b1 room → KVPoll Bootstrapping',
    ],
    [
      'transfer',
      { kind: 'roomPoll', rid: 'b1', from: 'transferring', to: 'success' },
      'note: b1 room: KVPoll Transferring → KVPoll Success',
    ],
    [
      'router',
      { kind: 'placeholderSwapped', rid: 'b1', side: 'prefill' },
      'router->prefillScheduler: b1 prompt swapped for a 1-token placeholder on prefill',
    ],
    [
      'transfer',
      { kind: 'kvArrived', rid: 'b1', positions: 1 },
      'transfer->decodeScheduler: b1: 1 position(s) of KV arrived on decode',
    ],
    [
      'decode scheduler',
      { kind: 'committed', rid: 'b1', seqLen: 3 },
      'note: b1 committed with seq_len 3',
    ],
    [
      'router',
      { kind: 'pageAllocated', node: 'decode', page: 0, rid: 'b1', heldKvOf: ['a1'] },
      'decodeScheduler->decodePool: allocate page 0 to b1, still holding KV of a1',
    ],
    [
      'decode scheduler',
      { kind: 'pageFreed', node: 'decode', page: 0, rid: 'a1', cachedBy: null },
      'decodeScheduler->decodePool: free page 0 (a1, not scrubbed)',
    ],
    [
      'prefill scheduler',
      { kind: 'pageFreed', node: 'prefill', page: 0, rid: 'a1', cachedBy: a1 },
      'note: prefill page 0 kept in the prefix cache, inserted by a1 (tenant A)',
    ],
    [
      'transfer',
      { kind: 'slotWritten', node: 'decode', page: 2, slot: 1, writer: b1, was: 'a1' },
      'transfer->decodePool: write page 2 slot 1 (b1, was a1)',
    ],
    [
      'decode scheduler',
      { kind: 'slotWritten', node: 'decode', page: 2, slot: null, writer: null, was: null },
      'decodeScheduler->decodePool: write page 2 (nobody)',
    ],
    [
      'decode scheduler',
      { kind: 'slotRead', rid: 'b1', node: 'decode', page: 1, writer: a1, foreign: true },
      'decodeScheduler->decodePool: b1 reads page 1 ← a1 (tenant A) ✗ another tenant',
    ],
    [
      'decode scheduler',
      { kind: 'reply', rid: 'b1', side: 'decode', status: 500, tokens: 0 },
      'decodeScheduler->router: b1 replies 500 (0 token(s))',
    ],
    [
      'decode scheduler',
      { kind: 'reply', rid: 'b1', side: 'client', status: 200, tokens: 2 },
      'router->tB: b1: 200 (2 token(s))',
    ],
    [
      'prefill scheduler',
      { kind: 'abortPending', rid: 'b1' },
      'note: b1: prefill hit an error; the abort is pending (to_finish)',
    ],
    [
      'decode scheduler',
      { kind: 'auxSlotTaken', rid: 'b1', slot: 0 },
      'note: decode metadata slot 0 taken by b1',
    ],
  ])('by the %s, draws %j as %s', (actor, change, line) => {
    expect(drawn(actor, [change])).toEqual([line]);
  });

  it('draws an allocation and the same request’s write of the whole page as one arrow', () => {
    const changes: TraceChange[] = [
      { kind: 'pageAllocated', node: 'prefill', page: 3, rid: 'b1', heldKvOf: [] },
      { kind: 'slotWritten', node: 'prefill', page: 3, slot: null, writer: b1, was: null },
    ];
    expect(drawn('prefill scheduler', changes)).toEqual([
      'prefillScheduler->prefillPool: allocate + write page 3 (b1)',
    ]);
  });

  it('routes a timer’s step through the first participant a change lands on', () => {
    const changes: TraceChange[] = [
      { kind: 'abortPending', rid: 'b1' },
      { kind: 'kvArrived', rid: 'b1', positions: 0 },
    ];
    expect(sequenceModel(oneStep('timer', changes), 'p').steps[0]?.over).toBe('decodeScheduler');
  });
});

describe('sequenceModel', () => {
  const { trace } = incidentTrace('noCrossTenantRead');
  const model = sequenceModel(trace, 'noCrossTenantRead');
  const step = (n: number) => model.steps.find((s) => s.step === n);

  it('has the tenants first, then the six components, in order', () => {
    expect(sequenceParticipants(trace).map((p) => `${p.id} as ${p.label}`)).toEqual([
      'tA as Tenant A',
      'tB as Tenant B',
      'router as router',
      'prefillScheduler as prefill scheduler',
      'prefillPool as prefill pool',
      'transfer as transfer',
      'decodeScheduler as decode scheduler',
      'decodePool as decode pool',
    ]);
  });

  it('maps DISPATCH, PREFILL_FORWARD, KV_WRITE_DONE, DECODE_FINISH and DECODE_STEP', () => {
    expect([1, 6, 11, 19, 21].map(step)).toMatchSnapshot();
  });

  it('sends DISPATCH from the tenant to the router and on to both schedulers', () => {
    expect(step(12)?.messages.map((m) => `${m.from}->${m.to}`)).toEqual([
      'tB->router',
      'router->prefillScheduler',
      'router->decodeScheduler',
    ]);
  });

  it('marks exactly the foreign read of the last step as decisive', () => {
    const decisive = model.steps.flatMap((s) => s.messages.filter((m) => m.decisive));
    expect(decisive).toEqual([
      {
        from: 'decodeScheduler',
        to: 'decodePool',
        text: 'b1 reads page 1 ← a1 (tenant A) ✗ another tenant',
        reply: false,
        decisive: true,
      },
    ]);
    expect(model.failure).toEqual({
      text: `✗ noCrossTenantRead: ${trace.message}`,
      over: ['decodeScheduler', 'decodePool'],
    });
  });

  it('marks the last message decisive when no read is foreign', () => {
    const { trace: t } = incidentTrace('errorReachesClient');
    const last = sequenceModel(t, 'errorReachesClient').steps.at(-1);
    expect(last?.messages.at(-1)).toMatchObject({ from: 'router', to: 'tB', decisive: true });
  });

  it('never draws an arrow from a participant to itself', () => {
    for (const s of model.steps) for (const m of s.messages) expect(m.from).not.toBe(m.to);
  });

  it('adds a timer as a lifeline of its own and routes its step through the side it times out', () => {
    const timeout: Trace = {
      message: 'm',
      steps: [
        {
          step: 1,
          actor: 'timer',
          event: 'TIMEOUT',
          rid: 'b1',
          tenant: 'B',
          changes: [
            {
              kind: 'regionMoved',
              rid: 'b1',
              region: 'decode',
              from: 'admitted.awaitingKv',
              to: 'done.failed',
            },
            { kind: 'pageFreed', node: 'decode', page: 0, rid: 'b1', cachedBy: null },
            { kind: 'reply', rid: 'b1', side: 'decode', status: 500, tokens: 0 },
          ],
          regions: {},
        },
      ],
    };
    const m = sequenceModel(timeout, 'p');
    expect(m.participants.map((p) => p.id)).toEqual([
      'tB',
      'router',
      'prefillScheduler',
      'prefillPool',
      'transfer',
      'decodeScheduler',
      'decodePool',
      'timer',
    ]);
    expect(m.steps[0]?.over).toBe('decodeScheduler');
    expect(m.steps[0]?.note).toEqual([
      '1 · TIMEOUT b1',
      'b1 decode: admitted.awaitingKv → done.failed',
    ]);
    expect(m.steps[0]?.messages.map((x) => `${x.from}->${x.to}: ${x.text}`)).toEqual([
      'timer->decodeScheduler: TIMEOUT b1',
      'decodeScheduler->decodePool: free page 0 (b1, not scrubbed)',
      'decodeScheduler->router: b1 replies 500 (0 token(s))',
    ]);
  });
});
