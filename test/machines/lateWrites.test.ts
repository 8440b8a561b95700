/**
 * Late transfer writes (`lateWrites`) and decode's deferred release: an abort leaves a posted
 * write on the wire, the room drains it before it is Failed, and decode keeps its pages until
 * then, unless the B4 fault frees them at once.
 */
import { noWriteAfterFree, poolAccounting } from '../../invariants/index.ts';
import { initialContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { entry as b4 } from '../../src/catalogue/entries/b4.ts';
import { drive, toInflight } from './drive.ts';

const scenario = b4.scenario;
const fixed = variantNamed('fixed');
const faulty: Variant = { ...fixed, switches: { ...fixed.switches, releaseBeforeDrain: true } };

describe('late writes: an abort does not cancel a posted write', () => {
  it('are off in every built-in scenario: no extra fields, no draining', () => {
    for (const s of scenarios) {
      const ctx = decodeContext(initialContext(s));
      expect(ctx.auxFree).toBeUndefined();
      for (const r of Object.values(ctx.requests)) {
        expect(Object.keys(r)).not.toContain('dstPages');
        expect(Object.keys(r)).not.toContain('releaseDeferred');
      }
    }
    for (const v of variants) expect(v.switches.releaseBeforeDrain).toBe(false);
  });

  it('without lateWrites, an abort drops the write with the room', () => {
    const d = drive({ ...scenario, lateWrites: undefined }, fixed).run(
      ...toInflight('a1'),
      'CLIENT_ABORT a1',
    );
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.enabled('KV_WRITE_DONE a1')).toBe(false);
    expect(d.req('a1').decodePages).toEqual([]);
  });

  it('with lateWrites, the room drains the write (KVPoll Failed) before it is failed', () => {
    const d = drive(scenario, fixed).run(...toInflight('a1'), 'CLIENT_ABORT a1');
    expect(d.at('a1', 'transfer')).toBe('draining');
    expect(d.req('a1').pollFailed).toBe(true);
    // Prefill releases only once the room is Failed for good.
    expect(d.enabled('PREFILL_RELEASE a1')).toBe(false);
    d.run('KV_WRITE_DONE a1');
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.req('a1').kvArrived).toBe(1);
    d.run('PREFILL_RELEASE a1');
  });

  it('fixed keeps the aborted request’s decode pages until the write has drained', () => {
    const d = drive(scenario, fixed).run(...toInflight('a1'), 'CLIENT_ABORT a1');
    expect(d.req('a1')).toMatchObject({ decodePages: [0], releaseDeferred: true });
    expect(d.ctx().decodePool.owner[0]).toBe('a1');
    expect(poolAccounting(d.state())).toBe(true);
    // b1 cannot be given page 0 while the write may still land there.
    d.run(...toInflight('b1'));
    expect(d.req('b1').decodePages).toEqual([1]);
    d.run('KV_WRITE_DONE a1');
    expect(d.req('a1')).toMatchObject({ decodePages: [], releaseDeferred: false });
    expect(d.ctx().decodePool.free[0]).toBe(0);
    expect(noWriteAfterFree(d.state())).toBe(true);
  });

  it('releaseBeforeDrain (B4) frees them at once, and the late write lands in b1’s page', () => {
    const d = drive(scenario, faulty).run(...toInflight('a1'), 'CLIENT_ABORT a1');
    expect(d.req('a1').decodePages).toEqual([]);
    d.run(...toInflight('b1'));
    expect(d.req('b1').decodePages).toEqual([0]);
    d.run('KV_WRITE_DONE b1', 'KV_WRITE_DONE a1');
    expect(d.ctx().decodePool.writer[0]).toBe('a1');
    expect(noWriteAfterFree.explain(d.state())).toBe('a1 wrote decode page 0 without holding it');
  });

  it('fixed keeps the pages when a prefill error failed the room first, then the client aborts', () => {
    const d = drive({ ...scenario, prefillErrors: true }, fixed).run(
      ...toInflight('a1'),
      'PREFILL_ERROR a1',
    );
    expect(d.at('a1', 'transfer')).toBe('draining');
    expect(d.req('a1')).toMatchObject({ pollFailed: true, draining: true });
    d.run('CLIENT_ABORT a1');
    // The poll already says Failed, but the posted write still lands: the pages stay held.
    expect(d.req('a1')).toMatchObject({ decodePages: [0], releaseDeferred: true });
    d.run('KV_WRITE_DONE a1');
    expect(d.req('a1')).toMatchObject({ decodePages: [], releaseDeferred: false, draining: false });
    expect(noWriteAfterFree(d.state())).toBe(true);
  });

  it('holds nothing for a write sent after the room failed: it never lands', () => {
    const d = drive({ ...scenario, transferFaults: true }, fixed).run(
      ...toInflight('a1').slice(0, -1),
      'TRANSFER_FAIL a1',
      'SEND_KV a1',
      'CLIENT_ABORT a1',
    );
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.req('a1')).toMatchObject({ decodePages: [], releaseDeferred: false, draining: false });
    expect(d.ctx().decodePool.free).toContain(0);
  });

  it('defers nothing when the room failed on its own (the write was dropped)', () => {
    const d = drive({ ...scenario, transferFaults: true }, fixed).run(
      ...toInflight('a1'),
      'TRANSFER_FAIL a1',
    );
    expect(d.at('a1', 'transfer')).toBe('failed');
    d.run('DECODE_TRANSFER_FAILED a1');
    expect(d.req('a1').decodePages).toEqual([]);
    expect(d.ctx().decodePool.free).toContain(0);
  });
});
