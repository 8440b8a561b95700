/**
 * The step → messages mapping both sequence diagrams draw: sentence parsing, who talks to whom,
 * and the decisive message of the last step.
 */
import type { Trace } from '../../src/checker/outcome.ts';
import { parseChange } from '../../src/export/changeSentences.ts';
import { sequenceModel, sequenceParticipants } from '../../src/export/sequenceMessages.ts';
import { incidentTrace } from './fixtures.ts';

describe('parseChange', () => {
  it.each([
    ['b1 prefill: received → placeholder.bootstrapping', 'region'],
    ['b1 room: no room → KVPoll Bootstrapping', 'room'],
    ['b1 prompt swapped for a 1-token placeholder on prefill', 'swap'],
    ['b1: 1 position(s) of KV arrived on decode', 'arrived'],
    ['b1 committed with seq_len 3', 'committed'],
    ['decode page 0 allocated to b1, still holding KV of a1', 'allocated'],
    ['decode page 0 freed by a1 (not scrubbed)', 'freed'],
    ['decode page 0 written by b1 (tenant B) (was a1)', 'written'],
    ['b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV', 'read'],
    ['a1 decode replies 200 (2 token(s))', 'reply'],
    ['b1 client gets 200 (2 token(s))', 'client'],
    ['something new happened', 'other'],
  ])('reads %j as %s', (sentence, kind) => {
    expect(parseChange(sentence).kind).toBe(kind);
  });

  it('keeps the fields a label needs', () => {
    expect(parseChange('decode page 0 allocated to b1, still holding KV of a1')).toEqual({
      kind: 'allocated',
      node: 'decode',
      page: '0',
      rid: 'b1',
      holding: 'a1',
    });
    expect(
      parseChange('decode page 2 slot 1 written by b1 (tenant B) (was never written)'),
    ).toEqual({
      kind: 'written',
      node: 'decode',
      page: '2',
      slot: '1',
      writer: 'b1 (tenant B)',
      was: 'never written',
    });
    expect(
      parseChange('b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV'),
    ).toMatchObject({ kind: 'read', writer: 'a1 (tenant A)', foreign: true });
    expect(parseChange('b1 reads decode page 2, last written by nobody')).toMatchObject({
      writer: 'nobody',
      foreign: false,
    });
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
            'b1 decode: admitted.awaitingKv → done.failed',
            'decode page 0 freed by b1 (not scrubbed)',
            'b1 decode replies 500 (0 token(s))',
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
