import { witnesses } from '../../invariants/index.ts';
import * as w from '../../invariants/witnesses.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { auxSlotReuse } from '../../src/catalogue/entries/b5.ts';
import { sharedPrefix } from '../../src/catalogue/entries/b8.ts';
import { lateAbort } from '../../src/catalogue/scenarios.ts';
import { check } from '../../src/checker/check.ts';
import { buildState, compose, expectOneSentence, holding, writtenBy } from './buildState.ts';

describe.each(Object.entries(witnesses))('%s', (_name, witness) => {
  it('has a one-sentence statement', () => {
    expectOneSentence(witness.statement);
  });

  it('is not reached in the initial state', () => {
    expect(witness(buildState())).toBe(false);
  });
});

describe('someRequestRejected', () => {
  it('is reached when either side rejects a request at intake', () => {
    expect(
      w.someRequestRejected(buildState({ requests: { b1: { rejectedOnPrefill: true } } })),
    ).toBe(true);
    expect(
      w.someRequestRejected(buildState({ requests: { b1: { rejectedOnDecode: true } } })),
    ).toBe(true);
  });

  it('is not reached by an abort after intake', () => {
    expect(
      w.someRequestRejected(buildState({ requests: { a1: { decodeAbort: 'transferFailed' } } })),
    ).toBe(false);
  });
});

describe('someRequestDecoded', () => {
  it('is reached once a request has read decode’s pages', () => {
    const s = buildState({
      requests: { a1: { reads: [{ node: 'decode', page: 0, writer: 'a1' }] } },
    });
    expect(w.someRequestDecoded(s)).toBe(true);
  });

  it('is not reached by prefill reads alone', () => {
    const s = buildState({
      requests: { a1: { reads: [{ node: 'prefill', page: 0, writer: 'a1' }] } },
    });
    expect(w.someRequestDecoded(s)).toBe(false);
  });
});

describe('pageReusedAcrossTenants', () => {
  it('is reached when a request holds a page another tenant last wrote', () => {
    const s = buildState({
      requests: { b1: { decodePages: [0, 1] } },
      decodePool: compose(holding('b1', [0, 1]), writtenBy({ 1: 'a1' })),
    });
    expect(w.pageReusedAcrossTenants(s)).toBe(true);
  });

  it('is reached on a partly overwritten page whose other slot holds another tenant’s KV (pageSize 2)', () => {
    const s = buildState(
      {
        requests: { b1: { prefillPages: [1] } },
        prefillPool: compose(holding('b1', [1]), writtenBy({ 2: 'b1', 3: 'a1' })),
      },
      { ...incident, pageSize: 2 },
    );
    expect(w.pageReusedAcrossTenants(s)).toBe(true);
  });

  it('is not reached when the held page holds only its own tenant’s KV or nothing', () => {
    const s = buildState({
      requests: { b1: { decodePages: [0, 1] } },
      decodePool: compose(holding('b1', [0, 1]), writtenBy({ 0: 'b1' })),
    });
    expect(w.pageReusedAcrossTenants(s)).toBe(false);
  });

  it('is not reached by another tenant’s KV left in a free page', () => {
    const s = buildState({ decodePool: writtenBy({ 0: 'a1' }) });
    expect(w.pageReusedAcrossTenants(s)).toBe(false);
  });
});

/** Two requests of tenant A whose prompts start with the same one-token prefix. */
const sameTenantPrefix: Scenario = {
  ...sharedPrefix,
  name: 'same-tenant-prefix',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 1, prefix: { group: 'sys', len: 1 } },
    { id: 'a2', tenant: 'A', promptLen: 2, outputLen: 1, prefix: { group: 'sys', len: 1 } },
  ],
  witnesses: [],
};

/** The B8 scenario: a1 of tenant A and b1 of tenant B share a one-token prefix group. */
const prefixed = sharedPrefix;

/** A cache node a1 inserted holding prefill page 0, locked by `lockRef` requests. */
const a1Node = (lockRef: number) => ({ cachedPrefix: { pages: [0], lockRef } });

describe('prefixCacheHit', () => {
  it('is reached when a request’s row starts with a node its own tenant inserted', () => {
    const s = buildState(
      { requests: { a1: a1Node(1), a2: { prefixPages: [0], prefilled: 1 } } },
      sameTenantPrefix,
    );
    expect(w.prefixCacheHit(s)).toBe(true);
  });

  it('is not reached when the node was inserted by another tenant, or none is used', () => {
    const foreign = buildState(
      { requests: { a1: a1Node(1), b1: { prefixPages: [0], prefilled: 1 } } },
      prefixed,
    );
    expect(w.prefixCacheHit(foreign)).toBe(false);
    expect(w.prefixCacheHit(buildState({ requests: { a1: a1Node(0) } }, sameTenantPrefix))).toBe(
      false,
    );
  });
});

describe('prefixLookupFindsOtherTenant', () => {
  const b1Admitted = { prefillLen: 2 };
  /** a1's node is cached and b1, admitted with nothing computed, has its prefill region at `prefill`. */
  const b1At = (prefill: unknown) =>
    buildState(
      { requests: { a1: a1Node(0), b1: b1Admitted }, regions: { b1: { prefill } } },
      prefixed,
    );
  it('is reached when a request about to run its first forward meets another tenant’s node', () => {
    expect(w.prefixLookupFindsOtherTenant(b1At({ admitted: 'waiting' }))).toBe(true);
  });

  it('is reached when a request’s row starts with another tenant’s node (the salt ignored)', () => {
    const s = buildState(
      { requests: { a1: a1Node(1), b1: { ...b1Admitted, prefixPages: [0], prefilled: 1 } } },
      prefixed,
    );
    expect(w.prefixLookupFindsOtherTenant(s)).toBe(true);
  });

  it('is not reached once the request has computed its prompt, or when the node is its own tenant’s', () => {
    const computed = buildState(
      { requests: { a1: a1Node(0), b1: { ...b1Admitted, prefilled: 2 } } },
      prefixed,
    );
    expect(w.prefixLookupFindsOtherTenant(computed)).toBe(false);
    const own = buildState({ requests: { a1: a1Node(0), a2: b1Admitted } }, sameTenantPrefix);
    expect(w.prefixLookupFindsOtherTenant(own)).toBe(false);
  });

  it('is not reached when the other tenant’s node is of another prefix group, or b1 has none', () => {
    const b1Prefix = (prefix?: { group: string; len: number }) => ({
      ...prefixed,
      requests: prefixed.requests.map((r) =>
        r.id === 'b1'
          ? {
              id: r.id,
              tenant: r.tenant,
              promptLen: r.promptLen,
              outputLen: r.outputLen,
              ...(prefix ? { prefix } : {}),
            }
          : r,
      ),
    });
    const state = (scenario: typeof prefixed) =>
      buildState(
        {
          requests: { a1: a1Node(0), b1: b1Admitted },
          regions: { b1: { prefill: { admitted: 'waiting' } } },
        },
        scenario,
      );
    expect(w.prefixLookupFindsOtherTenant(state(b1Prefix({ group: 'other', len: 1 })))).toBe(false);
    expect(w.prefixLookupFindsOtherTenant(state(b1Prefix()))).toBe(false);
  });

  it('is not reached by a rejected or finished request', () => {
    const rejected = buildState(
      { requests: { a1: a1Node(0), b1: { prefillLen: 1, rejectedOnPrefill: true } } },
      prefixed,
    );
    expect(w.prefixLookupFindsOtherTenant(rejected)).toBe(false);
    expect(w.prefixLookupFindsOtherTenant(b1At({ done: 'aborted' }))).toBe(false);
  });
});

describe('auxSlotReused', () => {
  it('is reached when a second room is given a slot an earlier room was given', () => {
    const s = buildState(
      { requests: { a1: { dstAux: 0 }, b1: { auxSlot: 0, dstAux: 0 } } },
      auxSlotReuse,
    );
    expect(w.auxSlotReused(s)).toBe(true);
  });

  it('is not reached while each room was given a slot of its own', () => {
    const s = buildState(
      { requests: { a1: { auxSlot: 0, dstAux: 0 }, b1: { auxSlot: 1, dstAux: 1 } } },
      { ...auxSlotReuse, auxSlots: 2 },
    );
    expect(w.auxSlotReused(s)).toBe(false);
  });
});

describe('lateWriteLanded', () => {
  const sent = { prefillLen: 1, decodeLen: 1, prefilled: 1, kvSentUpTo: 1, kvSent: true };
  it('is reached when a failed room’s last chunk has landed', () => {
    const s = buildState(
      {
        requests: {
          a1: { ...sent, kvArrived: 1, pollFailed: true, decodeAbort: 'transferFailed' },
        },
        regions: { a1: { transfer: 'failed' } },
      },
      { ...lateAbort, lateWrites: true },
    );
    expect(w.lateWriteLanded(s)).toBe(true);
  });

  it('is not reached while the write is still draining, or when the failed room dropped it', () => {
    const scenario = { ...lateAbort, lateWrites: true };
    const draining = buildState(
      {
        requests: {
          a1: { ...sent, pollFailed: true, decodeAbort: 'transferFailed', draining: true },
        },
        regions: { a1: { transfer: 'draining' } },
      },
      scenario,
    );
    expect(w.lateWriteLanded(draining)).toBe(false);
    const dropped = buildState(
      {
        requests: { a1: { ...sent, pollFailed: true, decodeAbort: 'transferFailed' } },
        regions: { a1: { transfer: 'failed' } },
      },
      scenario,
    );
    expect(w.lateWriteLanded(dropped)).toBe(false);
  });

  it('is not reached without late writes, where a failed room never drains', () => {
    const s = buildState(
      {
        requests: {
          a1: { ...sent, kvArrived: 1, pollFailed: true, decodeAbort: 'transferFailed' },
        },
        regions: { a1: { transfer: 'failed' } },
      },
      lateAbort,
    );
    expect(w.lateWriteLanded(s)).toBe(false);
  });
});

describe('transferFailed', () => {
  it('is reached when a room is Failed before either side aborted the request', () => {
    expect(w.transferFailed(buildState({ requests: { a1: { pollFailed: true } } }))).toBe(true);
  });

  it('is not reached by a room that failed on an abort or a rejection', () => {
    const aborted = { pollFailed: true, decodeAbort: 'transferFailed' } as const;
    expect(w.transferFailed(buildState({ requests: { a1: aborted } }))).toBe(false);
    const client = { pollFailed: true, clientAborted: true };
    expect(w.transferFailed(buildState({ requests: { a1: client } }))).toBe(false);
    const rejected = { pollFailed: true, rejectedOnPrefill: true };
    expect(w.transferFailed(buildState({ requests: { b1: rejected } }))).toBe(false);
  });
});

describe('clientAborted', () => {
  it('is reached when a client aborts, and not by an abort of the engine’s own', () => {
    expect(w.clientAborted(buildState({ requests: { a1: { clientAborted: true } } }))).toBe(true);
    expect(
      w.clientAborted(buildState({ requests: { a1: { decodeAbort: 'transferFailed' } } })),
    ).toBe(false);
  });
});

describe('chunkedTransfer', () => {
  it('is reached when KV was sent for part of the prompt', () => {
    const s = buildState({ requests: { a1: { prefillLen: 2, prefilled: 1, kvSentUpTo: 1 } } });
    expect(w.chunkedTransfer(s)).toBe(true);
  });

  it('is not reached when the whole prompt was sent at once, or a chunk sent no whole page', () => {
    const whole = buildState({ requests: { a1: { prefillLen: 2, prefilled: 2, kvSentUpTo: 2 } } });
    expect(w.chunkedTransfer(whole)).toBe(false);
    const noPage = buildState({
      requests: { a1: { prefillLen: 3, prefilled: 1, kvSentUpTo: 0, kvSent: true } },
    });
    expect(w.chunkedTransfer(noPage)).toBe(false);
  });
});

/** One request whose room may fail once and whose prompt is computed in two chunks. */
const faultyChunked: Scenario = {
  ...happy,
  name: 'faulty-chunked',
  requests: [{ id: 'a1', tenant: 'A', promptLen: 2, outputLen: 2 }],
  transferFaults: true,
  maxTransferFaults: 1,
  prefillChunks: 2,
  witnesses: [],
};

/** A scenario with none of the optional mechanisms. */
const plain: Scenario = { ...incident, name: 'plain', witnesses: [] };

describe('on explored scenarios under `fixed`', () => {
  const fixed = variantNamed('fixed');
  const runs = new Map<string, ReadonlySet<string>>();
  const reached = (scenario: Scenario): ReadonlySet<string> => {
    let names = runs.get(scenario.name);
    if (!names) {
      const r = check(scenario, fixed, { engine: 'fast' });
      names = new Set(r.witnesses.filter((w) => w.reached).map((w) => w.name));
      runs.set(scenario.name, names);
    }
    return names;
  };

  it.each<[string, Scenario, Scenario]>([
    ['prefixCacheHit', sameTenantPrefix, sharedPrefix],
    ['prefixLookupFindsOtherTenant', sharedPrefix, sameTenantPrefix],
    ['auxSlotReused', auxSlotReuse, { ...auxSlotReuse, name: 'two-slots', auxSlots: 2 }],
    ['lateWriteLanded', { ...lateAbort, name: 'late-writes', lateWrites: true }, lateAbort],
    ['transferFailed', faultyChunked, lateAbort],
    ['clientAborted', lateAbort, plain],
    ['chunkedTransfer', faultyChunked, plain],
  ])('%s is reached with its mechanism and not without', (name, withIt, without) => {
    expect(reached(withIt).has(name)).toBe(true);
    expect(reached(without).has(name)).toBe(false);
  });
});
