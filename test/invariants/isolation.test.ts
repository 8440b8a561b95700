import {
  coverageBeforeCommit,
  noCrossTenantRead,
  rejectedNeverHandedOff,
} from '../../invariants/isolation.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { incident } from '../../scenarios/index.ts';
import { buildState, compose, expectWellDescribed, holding, writtenBy } from './buildState.ts';

describe.each([
  ['rejectedNeverHandedOff', rejectedNeverHandedOff],
  ['noCrossTenantRead', noCrossTenantRead],
  ['coverageBeforeCommit', coverageBeforeCommit],
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

describe('rejectedNeverHandedOff', () => {
  it('holds for a rejected request whose room never carried KV', () => {
    const s = buildState({
      requests: { b1: { rejectedOnPrefill: true, decodeAbort: 'transferFailed' } },
    });
    expect(rejectedNeverHandedOff(s)).toBe(true);
  });

  it('holds for a request that was handed off without being rejected', () => {
    const s = buildState({ requests: { a1: { kvSent: true, committed: true } } });
    expect(rejectedNeverHandedOff(s)).toBe(true);
  });

  it('is violated when KV is sent for a request prefill rejected', () => {
    const s = buildState({ requests: { b1: { rejectedOnPrefill: true, kvSent: true } } });
    expect(rejectedNeverHandedOff(s)).toBe(false);
    expect(rejectedNeverHandedOff.explain(s)).toBe(
      'b1 (tenant B) was rejected at intake by prefill, yet KV was sent for its room',
    );
  });

  it('is violated when decode commits a request it rejected itself', () => {
    const s = buildState({
      requests: { b1: { rejectedOnPrefill: true, rejectedOnDecode: true, committed: true } },
    });
    expect(rejectedNeverHandedOff.explain(s)).toBe(
      'b1 (tenant B) was rejected at intake by prefill and decode, yet decode committed it',
    );
  });
});

describe('noCrossTenantRead', () => {
  const sameTenant: Scenario = {
    ...incident,
    requests: [
      { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
      { id: 'a2', tenant: 'A', promptLen: 1, outputLen: 2 },
      { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
    ],
  };

  it('holds for reads of a request’s own KV and of slots nobody wrote', () => {
    const s = buildState({
      requests: {
        b1: {
          reads: [
            { node: 'decode', page: 0, writer: 'b1' },
            { node: 'decode', page: 2, writer: null },
          ],
        },
      },
    });
    expect(noCrossTenantRead(s)).toBe(true);
  });

  it('holds for a read of KV another request of the same tenant wrote', () => {
    const s = buildState(
      { requests: { a2: { reads: [{ node: 'decode', page: 1, writer: 'a1' }] } } },
      sameTenant,
    );
    expect(noCrossTenantRead(s)).toBe(true);
  });

  it('is violated by a read of KV another tenant wrote, naming both requests and the page', () => {
    const s = buildState({
      requests: {
        b1: {
          reads: [
            { node: 'decode', page: 0, writer: 'b1' },
            { node: 'decode', page: 1, writer: 'a1' },
          ],
        },
      },
    });
    expect(noCrossTenantRead(s)).toBe(false);
    expect(noCrossTenantRead.explain(s)).toBe(
      'b1 (tenant B) read decode page 1, last written by a1 (tenant A)',
    );
  });

  it('is violated on the prefill side too', () => {
    const s = buildState({
      requests: { a1: { reads: [{ node: 'prefill', page: 3, writer: 'b1' }] } },
    });
    expect(noCrossTenantRead.explain(s)).toContain('a1 (tenant A) read prefill page 3');
  });
});

describe('coverageBeforeCommit', () => {
  const running = { decode: { admitted: 'running' } };

  it('holds while decode runs a request over positions it wrote', () => {
    const s = buildState({
      regions: { a1: running },
      requests: { a1: { seqLen: 2, kvArrived: 1, decodePages: [0, 1] } },
      decodePool: compose(holding('a1', [0, 1]), writtenBy({ 0: 'a1', 1: 'a1' })),
    });
    expect(coverageBeforeCommit(s)).toBe(true);
  });

  it('holds for a request that is not running, whatever its pages hold', () => {
    const s = buildState({
      regions: { b1: { decode: { admitted: 'awaitingKv' } } },
      requests: { b1: { seqLen: 3, kvArrived: 1, decodePages: [0, 1, 2] } },
      decodePool: compose(holding('b1', [0, 1, 2]), writtenBy({ 0: 'b1', 1: 'a1' })),
    });
    expect(coverageBeforeCommit(s)).toBe(true);
  });

  it('is violated when a committed seq_len covers positions another request wrote or nobody did', () => {
    const s = buildState({
      regions: { b1: running },
      requests: { b1: { seqLen: 3, kvArrived: 1, decodePages: [0, 1, 2] } },
      decodePool: compose(holding('b1', [0, 1, 2]), writtenBy({ 0: 'b1', 1: 'a1' })),
    });
    expect(coverageBeforeCommit(s)).toBe(false);
    expect(coverageBeforeCommit.explain(s)).toBe(
      'b1 (tenant B) runs with seq_len 3 but 1 position(s) arrived; positions not its own: 1 (a1), 2 (never written)',
    );
  });

  it('checks each slot of a page, not the page as a whole (pageSize 2)', () => {
    const s = buildState(
      {
        regions: { b1: { decode: { placeholder: 'running' } } },
        requests: { b1: { seqLen: 2, kvArrived: 1, decodePages: [0] } },
        decodePool: compose(holding('b1', [0]), writtenBy({ 0: 'b1', 1: 'a1' })),
      },
      { ...incident, pageSize: 2 },
    );
    expect(coverageBeforeCommit.explain(s)).toContain('positions not its own: 1 (a1)');
  });
});
