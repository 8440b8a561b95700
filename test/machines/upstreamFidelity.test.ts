/**
 * Departures from the engine the model follows, each pinned where the upstream code decides it
 * (the file and function are cited at the state or update that follows it).
 */
import { describe, expect, it } from 'vitest';
import {
  kvPollMonotone,
  noCrossTenantRead,
  rejectedHoldsNothing,
  statusPerIncarnation,
} from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { band, incident, tightDecode } from '../../scenarios/index.ts';
import { roomCollision } from '../../src/catalogue/entries/b9.ts';
import { pullLease } from '../../src/catalogue/entries/b10.ts';
import { findCatalogueVariant } from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import { stepChanges } from '../../src/checker/stepChanges.ts';
import { drive, type Step, toInflight } from './drive.ts';

/** The catalogue variant called `name`; throws when there is none. */
function catalogueVariant(name: string) {
  const v = findCatalogueVariant(name);
  if (!v) throw new Error(`no catalogue variant ${name}`);
  return v;
}

/** `scenario` (by default tight-decode) under `fixed`, with a1 and b1 taken in by decode. */
function dispatched(scenario: Scenario = tightDecode) {
  return drive(scenario, variantNamed('fixed')).run(
    'DISPATCH a1',
    'DISPATCH b1',
    'DECODE_INTAKE a1',
    'DECODE_INTAKE b1',
  );
}

/** From decode's prealloc of `rid` to its commit: prefill computes and sends, the KV lands. */
function toCommitted(rid: string): Step[] {
  return [
    `PREFILL_INTAKE ${rid}`,
    `PREFILL_BOOTSTRAPPED ${rid}`,
    `PREFILL_FORWARD ${rid}`,
    `SEND_KV ${rid}`,
    `KV_WRITE_DONE ${rid}`,
    `DECODE_COMMIT ${rid}`,
  ];
}

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

describe('decode’s reservation budget (pop_preallocated, _allocatable_tokens)', () => {
  // tight-decode: a1 (1-token prompt, 4 new tokens) and b1 (2 and 3), a decode pool of 6 pages.
  it('keeps the reserve per transferring request free before it preallocates another', () => {
    const reserving = { ...tightDecode, name: 'reserving', decodeReservedTokens: 1 };
    const d = dispatched(reserving).run('DECODE_PREALLOC a1');
    // 5 free tokens less a1's reserve of 1 leave 4; b1 needs its prompt plus 3 new tokens.
    expect(d.enabled('DECODE_PREALLOC b1')).toBe(false);
    expect(dispatched().run('DECODE_PREALLOC a1').enabled('DECODE_PREALLOC b1')).toBe(true);
  });

  it('keeps room for a running request to finish with the others retracted', () => {
    const d = dispatched().run('DECODE_PREALLOC a1', ...toCommitted('a1'));
    // a1 runs holding 2 tokens by decode's count and may need 3 more: 5 free less 3 is 2,
    // and b1 needs 2 + 3 - 2 = 3.
    expect(d.enabled('DECODE_PREALLOC b1')).toBe(false);
    d.run('DECODE_STEP a1', 'DECODE_STEP a1');
    expect(d.enabled('DECODE_PREALLOC b1')).toBe(true);
  });
});

describe('retraction of running decode requests (retract_decode, resume_retracted_reqs)', () => {
  const bothRunning = (scenario = tightDecode) =>
    dispatched(scenario).run(
      'DECODE_PREALLOC a1',
      'DECODE_PREALLOC b1',
      ...toCommitted('a1'),
      ...toCommitted('b1'),
    );

  it('retracts the request with the fewest output tokens when the batch’s next step finds no page', () => {
    const d = bothRunning().run('DECODE_STEP a1', 'DECODE_STEP a1');
    // a1 holds 3 pages and b1 2; both rows are full and one page is free.
    expect(d.ctx().decodePool.free).toHaveLength(1);
    expect(d.enabled('DECODE_RETRACT a1')).toBe(false);
    const before = d.state();
    d.run('DECODE_RETRACT b1');
    expect(stepChanges(before, d.state())).toContainEqual({
      kind: 'kvOffloaded',
      rid: 'b1',
      positions: 2,
    });
    expect(d.at('b1', 'decode')).toEqual({ admitted: 'retracted' });
    expect(d.req('b1')).toMatchObject({ decodePages: [], hostKv: ['b1', 'b1'], seqLen: 2 });
    expect(d.ctx().decodePool.free).toHaveLength(3);
    // The last request of the batch is never retracted.
    expect(d.enabled('DECODE_RETRACT a1')).toBe(false);
  });

  it('resumes a retracted request only after a step, and loads its KV back with its writers', () => {
    const d = bothRunning().run('DECODE_STEP a1', 'DECODE_STEP a1', 'DECODE_RETRACT b1');
    expect(d.enabled('DECODE_RESUME b1')).toBe(false);
    d.run('DECODE_STEP a1');
    const before = d.state();
    d.run('DECODE_RESUME b1');
    expect(stepChanges(before, d.state())).toContainEqual({
      kind: 'kvLoaded',
      rid: 'b1',
      positions: 2,
    });
    expect(d.at('b1', 'decode')).toEqual({ admitted: 'running' });
    const b1 = d.req('b1');
    expect(b1.hostKv).toEqual([]);
    expect(b1.decodePages).toHaveLength(2);
    const pool = d.ctx().decodePool;
    for (const page of b1.decodePages) expect(pool.writer[page]).toBe('b1');
    d.run('DECODE_FINISH a1', 'DECODE_STEP b1', 'DECODE_STEP b1', 'DECODE_FINISH b1');
    expect(d.req('b1').decodeReply).toEqual({ status: 200, tokens: 3 });
  });

  it('answers 499 for a retracted request whose client aborted, without resuming it', () => {
    const aborts = { ...tightDecode, name: 'aborts', clientAborts: true };
    const d = bothRunning(aborts).run(
      'DECODE_STEP a1',
      'DECODE_STEP a1',
      'DECODE_RETRACT b1',
      'CLIENT_ABORT b1',
      'DECODE_RESUME b1',
    );
    expect(d.at('b1', 'decode')).toEqual({ done: 'aborted' });
    expect(d.req('b1')).toMatchObject({
      hostKv: [],
      decodePages: [],
      decodeReply: { status: 499, tokens: 0 },
    });
  });

  it('lets tight-decode finish under fixed where a model without retraction deadlocks', () => {
    const r = check(tightDecode, variantNamed('fixed'), {
      engine: 'fast',
      requiredWitnesses: tightDecode.witnesses,
    });
    expect(r.status).toBe('ok');
    expect(r.witnesses?.find((w) => w.name === 'requestRetracted')?.reached).toBe(true);
  });
});

describe('bootstrap rooms shared by two requests (per-room tables, clear(), #40185)', () => {
  const b9 = () => drive(roomCollision, catalogueVariant('b9-duplicate-room'));

  it('writes one incarnation’s KV into the pages of the one whose metadata prefill holds last', () => {
    const d = b9().run(
      'DISPATCH a1',
      'PREFILL_INTAKE a1',
      'DECODE_INTAKE a1',
      'DISPATCH b1',
      'DECODE_INTAKE b1',
      'DECODE_PREALLOC b1',
      // b1's metadata, filed under the shared room, satisfies a1's sender.
      'PREFILL_BOOTSTRAPPED a1',
      'PREFILL_FORWARD a1',
      'SEND_KV a1',
      'KV_WRITE_DONE a1',
    );
    const [page] = d.req('b1').decodePages;
    expect(d.ctx().decodePool.writer[page ?? -1]).toBe('a1');
    expect(d.req('a1').roomCrossed).toBe(4);
    expect(d.req('b1').roomCrossed).toBe(2);
    expect(d.ctx().rooms).toEqual([{ destination: 'b1', decodeEntry: 'success' }]);
    // b1 has no sender yet (its own room waits for one), yet decode's poll reads the room's Success.
    expect(d.at('b1', 'transfer')).toBe('awaitingSender');
    d.run('DECODE_COMMIT b1');
    expect(d.req('b1').roomCrossed).toBe(3);
    expect(statusPerIncarnation(d.state())).toBe(false);
  });

  it('lets a later incarnation start clean once both sides have cleared the room', () => {
    const d = b9().run(
      ...toInflight('a1'),
      'KV_WRITE_DONE a1',
      'PREFILL_RELEASE a1',
      'DECODE_COMMIT a1',
      'DISPATCH b1',
      'DECODE_INTAKE b1',
      'DECODE_PREALLOC b1',
    );
    expect(d.ctx().rooms).toEqual([{ destination: 'b1', decodeEntry: 'none' }]);
    expect(d.enabled('DECODE_COMMIT b1')).toBe(false);
  });

  it('refuses, under fixed, a request whose room another request in flight holds', () => {
    const d = drive(roomCollision, variantNamed('fixed')).run('DISPATCH a1', 'DISPATCH b1');
    expect(d.at('b1', 'router')).toBe('replied');
    expect(d.at('b1', 'prefill')).toBe('idle');
    expect(d.req('b1').clientReply).toEqual({ status: 400, tokens: 0 });
    const later = drive(roomCollision, variantNamed('fixed')).run(
      ...toInflight('a1'),
      'KV_WRITE_DONE a1',
      'PREFILL_RELEASE a1',
      'DECODE_COMMIT a1',
      'DECODE_STEP a1',
      'DECODE_FINISH a1',
      'ROUTER_REPLY a1',
      'DISPATCH b1',
    );
    expect(later.at('b1', 'router')).toBe('awaiting');
  });
});

describe('pull-mode transfer (vLLM NIXL: request_finished, the READ, the lease)', () => {
  const finished = (variant: ReturnType<typeof catalogueVariant>) =>
    drive(pullLease, variant).run(
      'DISPATCH a1',
      'PREFILL_INTAKE a1',
      'DECODE_INTAKE a1',
      // No handshake: prefill computes at once, and finishing hands its block ids to decode.
      'PREFILL_BOOTSTRAPPED a1',
      'PREFILL_FORWARD a1',
      'SEND_KV a1',
    );

  it('leases the finished request’s pages, and decode posts its READ as it allocates', () => {
    const d = finished(variantNamed('fixed'));
    expect(d.at('a1', 'transfer')).toBe('leased');
    expect(d.req('a1').srcPages).toEqual(d.req('a1').prefillPages);
    d.run('DECODE_PREALLOC a1');
    expect(d.at('a1', 'transfer')).toBe('transferring');
    // The heartbeat lease does not expire while decode tracks the request.
    expect(d.enabled('LEASE_EXPIRED a1')).toBe(false);
    d.run('KV_WRITE_DONE a1', 'PREFILL_RELEASE a1');
    expect(d.at('a1', 'prefill')).toEqual({ done: 'finished' });
    expect(d.req('a1').prefillPages).toEqual([]);
  });

  it('shows a lease that expires before the READ as the READ copying another tenant’s KV', () => {
    const d = finished(catalogueVariant('b10-lease-expires-under-read')).run(
      'DECODE_PREALLOC a1',
      'LEASE_EXPIRED a1',
      'DISPATCH b1',
      'PREFILL_INTAKE b1',
      'PREFILL_BOOTSTRAPPED b1',
      'PREFILL_FORWARD b1',
      'KV_WRITE_DONE a1',
    );
    const [page] = d.req('a1').decodePages;
    expect(d.ctx().decodePool.writer[page ?? -1]).toBe('b1');
    expect(d.req('a1').readAfterFree.prefill).toBe(0);
    d.run('DECODE_COMMIT a1', 'DECODE_STEP a1');
    expect(noCrossTenantRead(d.state())).toBe(false);
  });
});
