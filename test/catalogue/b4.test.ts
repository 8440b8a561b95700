/**
 * B4, a stale transfer write after decode freed the pages: the entry's variant writes into a page
 * its request no longer holds and later lets another tenant read it; `fixed`, which defers the
 * release until the write drains, holds every property on the same scenario; both engines agree.
 * The state counts are pinned in the manifest.
 */
import { entry } from '../../src/catalogue/entries/b4.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { expectedCatchers } from '../../src/catalogue/run.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function traceOf(r: ScenarioResult, name: string) {
  const trace = r.properties.find((p) => p.name === name)?.trace;
  if (!trace) throw new Error(`${name} has no counterexample`);
  return trace;
}

describe('B4: release before the in-flight write drains', () => {
  let faulty: ScenarioResult;
  let fixed: ScenarioResult;
  beforeAll(() => {
    faulty = check(entry.scenario, entry.variant);
    fixed = check(entry.scenario, fixedVariant(), { requiredWitnesses: entry.scenario.witnesses });
  });

  it('is fixed plus releaseBeforeDrain on a scenario with late writes', () => {
    expect(entry.variant.name).toBe('b4-release-before-drain');
    expect(entry.variant.switches).toEqual({
      ...fixedVariant().switches,
      releaseBeforeDrain: true,
    });
    expect(entry.scenario.lateWrites).toBe(true);
  });

  it('lets the aborted request’s late write land in a page it no longer holds', () => {
    expect(faulty.status).toBe('violation');
    const trace = traceOf(faulty, 'noWriteAfterFree');
    expect(trace.steps).toHaveLength(9);
    expect(trace.steps.at(-1)).toMatchObject({ event: 'KV_WRITE_DONE', rid: 'a1' });
    expect(trace.steps.some((s) => s.event === 'CLIENT_ABORT' && s.rid === 'a1')).toBe(true);
    expect(trace.message).toBe('a1 wrote decode page 0 without holding it');
  });

  it('then lets another tenant read the stale KV', () => {
    const trace = traceOf(faulty, 'noCrossTenantRead');
    expect(trace.steps.at(-1)).toMatchObject({ event: 'DECODE_STEP', rid: 'b1' });
    expect(trace.message).toMatch(/^b1 \(tenant B\) read decode page \d+, last written by a1/);
    // The stale write landed after b1 was given the page.
    const late = trace.steps.findIndex((s) => s.event === 'KV_WRITE_DONE' && s.rid === 'a1');
    const prealloc = trace.steps.findIndex((s) => s.event === 'DECODE_PREALLOC' && s.rid === 'b1');
    expect(prealloc).toBeGreaterThanOrEqual(0);
    expect(late).toBeGreaterThan(prealloc);
  });

  it('breaks only properties the entry expects, besides coverage', () => {
    const violated = faulty.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    expect(violated.filter((p) => !expectedCatchers(entry).includes(p))).toEqual([
      'coverageBeforeCommit',
    ]);
  });

  it('leaves fixed clean on the same scenario, witnesses reached', () => {
    expect(fixed.status).toBe('ok');
    for (const w of fixed.witnesses.filter((x) => x.required)) expect(w.reached, w.name).toBe(true);
  });
});
