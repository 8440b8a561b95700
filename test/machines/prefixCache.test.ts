/**
 * Prefill's prefix cache: a released request leaves its prefix pages as a cache node keyed by
 * prefix group and cache salt; a later request with the same key reuses (locks, reads) them.
 * Same-tenant sharing is legitimate; sharing across salts is B8.
 */
import {
  noCrossTenantRead,
  noLeakAtQuiescence,
  poolAccounting,
  prefixSharingRespectsSalt,
} from '../../invariants/index.ts';
import type { DecodedContext } from '../../machines/context.ts';
import { decodeContext, encodeContext } from '../../machines/contextCodec.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { type Variant, variantNamed } from '../../machines/variants.ts';
import { entry as b8 } from '../../src/catalogue/entries/b8.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { drive, type Step, toInflight } from './drive.ts';

const fixed = variantNamed('fixed');
const saltIgnored: Variant = { ...fixed, switches: { ...fixed.switches, saltIgnored: true } };
const prefix = { group: 'sys', len: 1 };
const sameTenant: Scenario = {
  ...b8.scenario,
  name: 'same-tenant-prefix',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 1, prefix },
    { id: 'a2', tenant: 'A', promptLen: 2, outputLen: 2, prefix },
  ],
};
const released = (rid: string): Step[] => [
  ...toInflight(rid),
  `KV_WRITE_DONE ${rid}`,
  `PREFILL_RELEASE ${rid}`,
];
const throughForward = (rid: string): Step[] => toInflight(rid).slice(0, 6);

function violated(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

describe('the prefix cache', () => {
  it('keeps a released request’s prefix pages as an unlocked node, owned by no request', () => {
    const d = drive(sameTenant, fixed).run(...released('a1'));
    expect(d.req('a1')).toMatchObject({
      prefillPages: [],
      cachedPrefix: { pages: [0], lockRef: 0 },
    });
    const pool = d.ctx().prefillPool;
    expect(pool.owner[0]).toBeNull();
    expect(pool.free).not.toContain(0);
    expect(pool.free).toContain(1);
    expect(poolAccounting(d.state())).toBe(true);
  });

  it('lets a request of the same tenant reuse and read them, locked while it holds them', () => {
    const d = drive(sameTenant, fixed).run(...released('a1'), ...throughForward('a2'));
    expect(d.req('a2')).toMatchObject({ prefixPages: [0], prefilled: 2 });
    expect(d.req('a2').prefillPages).toHaveLength(1);
    expect(d.req('a1').cachedPrefix?.lockRef).toBe(1);
    expect(d.req('a2').reads).toContainEqual({ node: 'prefill', page: 0, writer: 'a1' });
    expect(noCrossTenantRead(d.state())).toBe(true);
    expect(prefixSharingRespectsSalt(d.state())).toBe(true);
    d.run('SEND_KV a2', 'KV_WRITE_DONE a2', 'PREFILL_RELEASE a2');
    expect(d.req('a1').cachedPrefix?.lockRef).toBe(0);
    expect(d.req('a2')).toMatchObject({ prefixPages: [], cachedPrefix: null });
  });

  it('keeps tenants apart by their salt: another tenant computes and caches its own prefix', () => {
    const d = drive(b8.scenario, fixed).run(...released('a1'), ...throughForward('b1'));
    expect(d.req('b1')).toMatchObject({ prefixPages: [], prefilled: 2 });
    d.run('SEND_KV b1', 'KV_WRITE_DONE b1', 'PREFILL_RELEASE b1');
    expect(d.req('b1').cachedPrefix?.pages).toHaveLength(1);
    expect(prefixSharingRespectsSalt(d.state())).toBe(true);
  });

  it('ignoring the salt (B8) hands tenant A’s prefix pages to tenant B', () => {
    const d = drive(b8.scenario, saltIgnored).run(...released('a1'), ...throughForward('b1'));
    expect(d.req('b1').prefixPages).toEqual([0]);
    expect(prefixSharingRespectsSalt.explain(d.state())).toBe(
      'b1 (tenant B) reuses prefill cache page(s) 0, inserted by a1 (tenant A) under another tenant’s salt',
    );
    expect(noCrossTenantRead.explain(d.state())).toBe(
      'b1 (tenant B) read prefill page 0, last written by a1 (tenant A)',
    );
  });

  it('never caches or matches a placeholder, whose prompt is no longer the prefix', () => {
    const rejected: Scenario = {
      ...b8.scenario,
      prefillPoolTokens: 8,
      requests: [
        { id: 'a1', tenant: 'A', promptLen: 2, outputLen: 1, prefix },
        { id: 'a2', tenant: 'A', promptLen: 3, outputLen: 1, prefix },
      ],
    };
    const first = drive(rejected, variantNamed('incident-2026')).run(...released('a2'));
    expect(first.at('a2', 'prefill')).toEqual({ done: 'finished' });
    expect(first.req('a2').cachedPrefix).toBeNull();
    expect(first.ctx().prefillPool.free).toHaveLength(8);
    const later = drive(rejected, variantNamed('incident-2026')).run(...released('a1'));
    later.run(...throughForward('a2'));
    expect(later.at('a2', 'prefill')).toEqual({ placeholder: 'forwarded' });
    expect(later.req('a2').prefixPages).toEqual([]);
  });

  it('counts unlocked nodes as reclaimable at quiescence, locked ones as still in use', () => {
    const d = drive(sameTenant, fixed).run(...released('a1'));
    const s = d.state();
    expect(noLeakAtQuiescence.explain(s)).toMatch(/^decode page/);
    const ctx = decodeContext(s.context);
    const a1 = ctx.requests.a1;
    if (!a1?.cachedPrefix) throw new Error('no node');
    const lockedCtx: DecodedContext = {
      ...ctx,
      decodePool: { ...ctx.decodePool, free: [...ctx.decodePool.owner.keys()] },
      requests: {
        ...ctx.requests,
        a1: { ...a1, decodePages: [], cachedPrefix: { ...a1.cachedPrefix, lockRef: 1 } },
      },
    };
    const locked = { ...s, context: encodeContext(s.context.layout, lockedCtx) };
    expect(noLeakAtQuiescence.explain(locked)).toBe(
      'prefill cache pages 0 are still locked at quiescence',
    );
    const unlocked = {
      ...s,
      context: encodeContext(s.context.layout, {
        ...lockedCtx,
        requests: { ...lockedCtx.requests, a1: { ...a1, decodePages: [] } },
      }),
    };
    expect(noLeakAtQuiescence(unlocked)).toBe(true);
  });

  it('lets same-tenant sharing pass every property, exhaustively', () => {
    const r = check(sameTenant, fixed, { requiredWitnesses: ['someRequestDecoded'] });
    expect(r.status).toBe('ok');
    expect(r.witnesses.find((w) => w.name === 'someRequestDecoded')?.reached).toBe(true);
  });

  it('keeps verdicts under symmetry when two tenants’ requests are alike', () => {
    const alike: Scenario = {
      ...b8.scenario,
      requests: b8.scenario.requests.map((r) => ({ ...r, outputLen: 1 })),
    };
    for (const v of [fixed, saltIgnored]) {
      const off = check(alike, v, { symmetry: false });
      const on = check(alike, v, { symmetry: true });
      expect(on.stats.states).toBeLessThan(off.stats.states);
      expect(on.stats.unreducedStates).toBe(off.stats.states);
      expect(violated(on)).toEqual(violated(off));
    }
  });
});
