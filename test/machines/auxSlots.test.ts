/**
 * Decode's metadata (aux) slots: taken at prealloc, written by prefill's last chunk with the
 * room's aux data, read at commit (with the `bootstrap_room` check), freed and reset on release.
 */
import { auxSlotIntegrity } from '../../invariants/index.ts';
import { findVariant, type Variant } from '../../machines/variants.ts';
import { entry as b5 } from '../../src/catalogue/entries/b5.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { drive, toInflight } from './drive.ts';

function violated(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

const fixedOrNone = findVariant('fixed');
if (!fixedOrNone) throw new Error('no fixed variant');
const fixed: Variant = fixedOrNone;
const unchecked: Variant = { ...fixed, switches: { ...fixed.switches, auxRoomUnchecked: true } };
const oneSlot = { ...b5.scenario, lateWrites: undefined };

describe('metadata slots', () => {
  it('are taken at prealloc; a second request waits for a free slot', () => {
    const d = drive(oneSlot, fixed).run(...toInflight('a1'));
    expect(d.req('a1')).toMatchObject({ auxSlot: 0, dstAux: 0, auxIn: null });
    expect(d.ctx().auxFree).toEqual([]);
    d.run('DISPATCH b1', 'PREFILL_INTAKE b1', 'DECODE_INTAKE b1');
    expect(d.enabled('DECODE_PREALLOC b1')).toBe(false);
  });

  it('hold the room’s aux after the last chunk; commit takes it; release frees and resets', () => {
    const d = drive(oneSlot, fixed).run(...toInflight('a1'), 'KV_WRITE_DONE a1');
    expect(d.req('a1').auxIn).toBe(0);
    d.run('DECODE_COMMIT a1');
    expect(d.req('a1').firstTokenForeign).toBe(false);
    d.run('DECODE_FINISH a1');
    expect(d.req('a1')).toMatchObject({ auxSlot: null, auxIn: null });
    expect(d.ctx().auxFree).toEqual([0]);
    expect(d.enabled('DISPATCH b1')).toBe(true);
  });

  /** a1 aborts with its aux in flight; b1 gets the slot, b1's aux lands, then a1's stale aux. */
  function staleAux(v: Variant) {
    return drive(b5.scenario, v).run(
      ...toInflight('a1'),
      'CLIENT_ABORT a1',
      ...toInflight('b1'),
      'KV_WRITE_DONE b1',
      'KV_WRITE_DONE a1',
    );
  }

  it('a stale aux write overwrites the slot after it was given to another request', () => {
    const d = staleAux(fixed);
    expect(d.req('b1').auxSlot).toBe(0);
    expect(d.req('a1').auxIn).toBe(0);
    expect(d.req('b1').auxIn).toBeNull();
  });

  it('fixed’s room check fails the commit with a 500 (#17430)', () => {
    const d = staleAux(fixed).run('DECODE_COMMIT b1');
    expect(d.at('b1', 'decode')).toEqual({ done: 'failed' });
    expect(d.req('b1')).toMatchObject({ committed: false, decodeReply: { status: 500 } });
    expect(auxSlotIntegrity(d.state())).toBe(true);
  });

  it('without the check (B5), b1 commits on a1’s first token', () => {
    const d = staleAux(unchecked).run('DECODE_COMMIT b1');
    expect(d.at('b1', 'decode')).toEqual({ admitted: 'running' });
    expect(d.req('b1').firstTokenForeign).toBe(true);
    expect(auxSlotIntegrity.explain(d.state())).toBe(
      'b1 (tenant B) took its first token from metadata slot 0, which held the aux data of a1 (tenant A)',
    );
  });

  it('keeps verdicts under symmetry when two tenants’ requests are alike', () => {
    const alike = {
      ...b5.scenario,
      requests: b5.scenario.requests.map((r) => ({ ...r, outputLen: 1 })),
    };
    for (const v of [fixed, unchecked]) {
      const off = check(alike, v, { symmetry: false });
      const on = check(alike, v, { symmetry: true });
      expect(on.stats.states).toBeLessThan(off.stats.states);
      expect(on.stats.unreducedStates).toBe(off.stats.states);
      expect(violated(on)).toEqual(violated(off));
    }
    expect(violated(check(alike, unchecked))).toEqual(['auxSlotIntegrity']);
  });

  it('without the check, an own aux still commits cleanly', () => {
    const d = drive(oneSlot, unchecked).run(...toInflight('a1'), 'KV_WRITE_DONE a1');
    d.run('DECODE_COMMIT a1');
    expect(auxSlotIntegrity(d.state())).toBe(true);
  });
});
