import {
  everyRequestAnswered,
  noDeadlock,
  noLeakAtQuiescence,
} from '../../invariants/quiescence.ts';
import { buildState, expectWellDescribed, holding, settledRegions } from './buildState.ts';

const answered = { clientReply: { status: 200, tokens: 2 } } as const;

/** Both requests settled and answered, every page free. */
const quiescent = () =>
  buildState({
    regions: { a1: settledRegions, b1: settledRegions },
    requests: { a1: answered, b1: answered },
  });

describe.each([
  ['noDeadlock', noDeadlock],
  ['everyRequestAnswered', everyRequestAnswered],
  ['noLeakAtQuiescence', noLeakAtQuiescence],
])('%s', (_name, p) => {
  it('is a terminal property with a one-sentence statement and what it guards', () => {
    expectWellDescribed(p, 'terminal');
  });

  it('holds where every request is settled, answered and holds nothing', () => {
    expect(p(quiescent())).toBe(true);
    expect(p.explain(quiescent())).toBeNull();
  });
});

describe('noDeadlock', () => {
  it('holds for requests that ended in failure or rejection on both sides', () => {
    const s = buildState({
      regions: {
        a1: { prefill: { done: 'failed' }, decode: { done: 'failed' } },
        b1: { prefill: { done: 'retired' }, decode: { done: 'clientError' } },
      },
    });
    expect(noDeadlock(s)).toBe(true);
  });

  it('is violated by a decode side still waiting, naming the request and where it waits', () => {
    const s = buildState({
      regions: {
        a1: settledRegions,
        b1: { prefill: { done: 'retired' }, decode: { admitted: 'preallocPending' } },
      },
    });
    expect(noDeadlock(s)).toBe(false);
    expect(noDeadlock.explain(s)).toBe(
      'b1 (tenant B) is stuck: decode in admitted.preallocPending',
    );
  });

  it('reports the prefill side first', () => {
    expect(noDeadlock.explain(buildState())).toBe('a1 (tenant A) is stuck: prefill in idle');
  });
});

describe('everyRequestAnswered', () => {
  it('is violated by a request the router never answered', () => {
    const s = buildState({
      regions: { a1: settledRegions, b1: { router: 'awaiting' } },
      requests: { a1: answered },
    });
    expect(everyRequestAnswered(s)).toBe(false);
    expect(everyRequestAnswered.explain(s)).toBe(
      'b1 (tenant B) never got a reply (router in awaiting)',
    );
  });
});

describe('noLeakAtQuiescence', () => {
  it('is violated by a page a request still holds', () => {
    const s = buildState({
      requests: { a1: { decodePages: [0] } },
      decodePool: holding('a1', [0]),
    });
    expect(noLeakAtQuiescence(s)).toBe(false);
    expect(noLeakAtQuiescence.explain(s)).toBe(
      'decode page 0 is still held by a1 (tenant A) at quiescence',
    );
  });

  it('is violated by a page missing from the free list with no holder', () => {
    const s = buildState({ prefillPool: holding('b1', [7]) });
    expect(noLeakAtQuiescence.explain(s)).toBe('prefill pool: 7 of 8 pages free at quiescence');
  });
});
