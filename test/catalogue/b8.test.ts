/**
 * B8, a prefix cache that ignores the cache salt: under the entry's variant tenant B's prompt
 * reuses the prefix pages tenant A inserted; `fixed`, whose cache keys carry the salt, holds every
 * property on the same scenario; both engines agree. The state counts are pinned in the manifest.
 */
import { entry } from '../../src/catalogue/entries/b8.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function violated(r: ScenarioResult): string[] {
  return r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
}

describe('B8: the prefix cache ignores the per-tenant salt', () => {
  let faulty: ScenarioResult;
  let fixed: ScenarioResult;
  beforeAll(() => {
    faulty = check(entry.scenario, entry.variant);
    fixed = check(entry.scenario, fixedVariant(), { requiredWitnesses: entry.scenario.witnesses });
  });

  it('is fixed plus saltIgnored on a scenario whose tenants share a prefix', () => {
    expect(entry.variant.name).toBe('b8-salt-ignored');
    expect(entry.variant.switches).toEqual({ ...fixedVariant().switches, saltIgnored: true });
    const groups = entry.scenario.requests.map((r) => r.prefix?.group);
    expect(new Set(groups).size).toBe(1);
    expect(new Set(entry.scenario.requests.map((r) => r.tenant)).size).toBe(2);
  });

  it('lets b1 reuse the prefix page a1 inserted, and read a1’s KV', () => {
    expect(faulty.status).toBe('violation');
    expect(violated(faulty)).toEqual(['noCrossTenantRead', 'prefixSharingRespectsSalt']);
    const trace = faulty.properties.find((p) => p.name === 'prefixSharingRespectsSalt')?.trace;
    if (!trace) throw new Error('no counterexample');
    expect(trace.steps).toHaveLength(15);
    expect(trace.steps.at(-1)).toMatchObject({ event: 'PREFILL_FORWARD', rid: 'b1' });
    expect(trace.message).toBe(
      'b1 (tenant B) reuses prefill cache page(s) 0, inserted by a1 (tenant A) under another tenant’s salt',
    );
    // a1 released (and so inserted its prefix) before b1's forward.
    const events = trace.steps.map((s) => `${s.event} ${s.rid}`);
    expect(events.indexOf('PREFILL_RELEASE a1')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('PREFILL_RELEASE a1')).toBeLessThan(events.length - 1);
  });

  it('leaves fixed clean on the same scenario, witnesses reached', () => {
    expect(fixed.status).toBe('ok');
    for (const w of fixed.witnesses.filter((x) => x.required)) expect(w.reached, w.name).toBe(true);
  });
});
