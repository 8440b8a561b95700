/**
 * B5, a reused metadata slot: under the entry's variant decode takes another room's aux as its
 * first token; `fixed`, whose `bootstrap_room` check refuses that commit, holds every property
 * on the same scenario; both engines agree. The state counts are pinned in the manifest.
 */
import { entry } from '../../src/catalogue/entries/b5.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function violated(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

describe('B5: aux from another room read through a reused metadata slot', () => {
  let faulty: ScenarioResult;
  let fixed: ScenarioResult;
  beforeAll(() => {
    faulty = check(entry.scenario, entry.variant);
    fixed = check(entry.scenario, fixedVariant(), { requiredWitnesses: entry.scenario.witnesses });
  });

  it('is fixed plus auxRoomUnchecked on a scenario with one metadata slot', () => {
    expect(entry.variant.name).toBe('b5-aux-slot-reuse');
    expect(entry.variant.switches).toEqual({ ...fixedVariant().switches, auxRoomUnchecked: true });
    expect(entry.scenario.auxSlots).toBe(1);
  });

  it('commits b1 with the first token of a1’s stale aux', () => {
    expect(faulty.status).toBe('violation');
    expect(violated(faulty)).toEqual(['auxSlotIntegrity']);
    const trace = faulty.properties.find((p) => p.name === 'auxSlotIntegrity')?.trace;
    if (!trace) throw new Error('no counterexample');
    expect(trace.steps).toHaveLength(18);
    expect(trace.steps.at(-1)).toMatchObject({ event: 'DECODE_COMMIT', rid: 'b1' });
    expect(trace.message).toBe(
      'b1 (tenant B) took its first token from metadata slot 0, which held the aux data of a1 (tenant A)',
    );
    // a1 was aborted with its write in flight, and that write landed after b1's own aux.
    const events = trace.steps.map((s) => `${s.event} ${s.rid}`);
    expect(events).toContain('CLIENT_ABORT a1');
    expect(events.lastIndexOf('KV_WRITE_DONE a1')).toBeGreaterThan(
      events.indexOf('KV_WRITE_DONE b1'),
    );
  });

  it('leaves fixed clean on the same scenario, witnesses reached', () => {
    expect(fixed.status).toBe('ok');
    for (const w of fixed.witnesses.filter((x) => x.required)) expect(w.reached, w.name).toBe(true);
  });
});
