import {
  pageReusedAcrossTenants,
  someRequestDecoded,
  someRequestRejected,
} from '../../invariants/witnesses.ts';
import { incident } from '../../scenarios/index.ts';
import { buildState, compose, expectOneSentence, holding, writtenBy } from './buildState.ts';

describe.each([
  ['someRequestRejected', someRequestRejected],
  ['someRequestDecoded', someRequestDecoded],
  ['pageReusedAcrossTenants', pageReusedAcrossTenants],
])('%s', (_name, w) => {
  it('has a one-sentence statement', () => {
    expectOneSentence(w.statement);
  });

  it('is not reached in the initial state', () => {
    expect(w(buildState())).toBe(false);
  });
});

describe('someRequestRejected', () => {
  it('is reached when either side rejects a request at intake', () => {
    expect(someRequestRejected(buildState({ requests: { b1: { rejectedOnPrefill: true } } }))).toBe(
      true,
    );
    expect(someRequestRejected(buildState({ requests: { b1: { rejectedOnDecode: true } } }))).toBe(
      true,
    );
  });

  it('is not reached by an abort after intake', () => {
    expect(someRequestRejected(buildState({ requests: { a1: { aborted: true } } }))).toBe(false);
  });
});

describe('someRequestDecoded', () => {
  it('is reached once a request has read decode’s pages', () => {
    const s = buildState({
      requests: { a1: { reads: [{ node: 'decode', page: 0, writer: 'a1' }] } },
    });
    expect(someRequestDecoded(s)).toBe(true);
  });

  it('is not reached by prefill reads alone', () => {
    const s = buildState({
      requests: { a1: { reads: [{ node: 'prefill', page: 0, writer: 'a1' }] } },
    });
    expect(someRequestDecoded(s)).toBe(false);
  });
});

describe('pageReusedAcrossTenants', () => {
  it('is reached when a request holds a page another tenant last wrote', () => {
    const s = buildState({
      requests: { b1: { decodePages: [0, 1] } },
      decodePool: compose(holding('b1', [0, 1]), writtenBy({ 1: 'a1' })),
    });
    expect(pageReusedAcrossTenants(s)).toBe(true);
  });

  it('is reached on a partly overwritten page whose other slot holds another tenant’s KV (pageSize 2)', () => {
    const s = buildState(
      {
        requests: { b1: { prefillPages: [1] } },
        prefillPool: compose(holding('b1', [1]), writtenBy({ 2: 'b1', 3: 'a1' })),
      },
      { ...incident, pageSize: 2 },
    );
    expect(pageReusedAcrossTenants(s)).toBe(true);
  });

  it('is not reached when the held page holds only its own tenant’s KV or nothing', () => {
    const s = buildState({
      requests: { b1: { decodePages: [0, 1] } },
      decodePool: compose(holding('b1', [0, 1]), writtenBy({ 0: 'b1' })),
    });
    expect(pageReusedAcrossTenants(s)).toBe(false);
  });

  it('is not reached by another tenant’s KV left in a free page', () => {
    const s = buildState({ decodePool: writtenBy({ 0: 'a1' }) });
    expect(pageReusedAcrossTenants(s)).toBe(false);
  });
});
