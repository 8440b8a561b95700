import {
  errorReachesClient,
  kvPollMonotone,
  singleTerminalResponse,
} from '../../invariants/protocol.ts';
import { buildState, expectWellDescribed, settledRegions } from './buildState.ts';

describe.each([
  ['kvPollMonotone', kvPollMonotone],
  ['errorReachesClient', errorReachesClient],
  ['singleTerminalResponse', singleTerminalResponse],
])('%s', (_name, p) => {
  it('is a state property with a one-sentence statement and what it guards', () => {
    expectWellDescribed(p, 'state');
  });

  it('holds in the initial state', () => {
    const s = buildState();
    expect(p(s)).toBe(true);
    expect(p.explain(s)).toBeNull();
  });
});

describe('kvPollMonotone', () => {
  it('holds for a room at the highest KVPoll it reached', () => {
    const s = buildState({
      regions: { a1: { transfer: 'transferring' } },
      requests: { a1: { pollPeak: 3 } },
    });
    expect(kvPollMonotone(s)).toBe(true);
  });

  it('holds for a room that failed after reaching Transferring (Failed overrides)', () => {
    const s = buildState({
      regions: { a1: { transfer: 'failed' } },
      requests: { a1: { pollPeak: 3, pollFailed: true } },
    });
    expect(kvPollMonotone(s)).toBe(true);
  });

  it('holds for a Success room that carried KV', () => {
    const s = buildState({
      regions: { a1: { transfer: 'success' } },
      requests: { a1: { pollPeak: 4, kvSent: true } },
    });
    expect(kvPollMonotone(s)).toBe(true);
  });

  it('is violated when a room goes back to an earlier KVPoll', () => {
    const s = buildState({
      regions: { b1: { transfer: 'waitingForInput' } },
      requests: { b1: { pollPeak: 3 } },
    });
    expect(kvPollMonotone(s)).toBe(false);
    expect(kvPollMonotone.explain(s)).toBe(
      'b1 (tenant B): room went back to waitingForInput (KVPoll 2) after reaching 3',
    );
  });

  it('is violated when a room leaves Failed', () => {
    const s = buildState({
      regions: { b1: { transfer: 'transferring' } },
      requests: { b1: { pollPeak: 3, pollFailed: true } },
    });
    expect(kvPollMonotone.explain(s)).toBe('b1 (tenant B): room left Failed for transferring');
  });

  it('is violated by a Success room for which no KV was sent', () => {
    const s = buildState({
      regions: { b1: { transfer: 'success' } },
      requests: { b1: { pollPeak: 4 } },
    });
    expect(kvPollMonotone.explain(s)).toBe('b1 (tenant B): room is Success but no KV was sent');
  });

  it('is violated by a room in a state it does not know', () => {
    const s = buildState({ regions: { a1: { transfer: 'lost' } } });
    expect(kvPollMonotone.explain(s)).toBe('a1 (tenant A): room in unknown state lost');
  });
});

describe('errorReachesClient', () => {
  it('holds when a rejected request gets an error and a clean one gets tokens', () => {
    const s = buildState({
      requests: {
        a1: { clientReply: { status: 200, tokens: 2 } },
        b1: { rejectedOnPrefill: true, clientReply: { status: 400, tokens: 0 } },
      },
    });
    expect(errorReachesClient(s)).toBe(true);
  });

  it('holds for an aborted request answered 200 without tokens', () => {
    const s = buildState({
      requests: { b1: { decodeAbort: 'transferFailed', clientReply: { status: 200, tokens: 0 } } },
    });
    expect(errorReachesClient(s)).toBe(true);
  });

  it('is violated when a rejected request gets a success with tokens', () => {
    const s = buildState({
      regions: { b1: settledRegions },
      requests: { b1: { rejectedOnPrefill: true, clientReply: { status: 200, tokens: 2 } } },
    });
    expect(errorReachesClient(s)).toBe(false);
    expect(errorReachesClient.explain(s)).toBe(
      'b1 (tenant B) was rejected at intake but the client got 200 with 2 token(s)',
    );
  });

  it('is violated when an aborted request gets a success with tokens', () => {
    const s = buildState({
      requests: { a1: { decodeAbort: 'transferFailed', clientReply: { status: 200, tokens: 1 } } },
    });
    expect(errorReachesClient.explain(s)).toBe(
      'a1 (tenant A) was aborted on decode (the transfer failed) but the client got 200 with 1 token(s)',
    );
  });
});

describe('singleTerminalResponse', () => {
  it('holds with one reply per side and one to the client', () => {
    const s = buildState({
      requests: { a1: { replyCount: { prefill: 1, decode: 1, client: 1 } } },
    });
    expect(singleTerminalResponse(s)).toBe(true);
  });

  it('is violated when a side replies twice', () => {
    const s = buildState({
      requests: { b1: { replyCount: { prefill: 1, decode: 2, client: 1 } } },
    });
    expect(singleTerminalResponse(s)).toBe(false);
    expect(singleTerminalResponse.explain(s)).toBe(
      'b1 (tenant B): replies prefill=1 decode=2 client=1',
    );
  });

  it('is violated when the router forwards twice', () => {
    const s = buildState({
      requests: { a1: { replyCount: { prefill: 1, decode: 1, client: 2 } } },
    });
    expect(singleTerminalResponse.explain(s)).toContain('client=2');
  });
});
