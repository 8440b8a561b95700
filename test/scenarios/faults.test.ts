/**
 * Transfer faults: with `transferFaults`, a room may fail at any point before Success. The fixed
 * engine must still answer every request and free every page; the incident still leaks.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';

const withFaults: Scenario = { ...incident, name: 'incident-faults', transferFaults: true };

describe('incident with transfer faults', () => {
  it('holds every property under fixed, with more states than without faults', () => {
    const faulty = check(withFaults, variantNamed('fixed'));
    const plain = check(incident, variantNamed('fixed'));
    expect(faulty.status).toBe('ok');
    expect(faulty.stats.states).toBeGreaterThan(plain.stats.states);
    expect(faulty.stats.states).toMatchInlineSnapshot(`703`);
  });

  it('holds every property under retire-only but rejectedHoldsNothing (resources, not data)', () => {
    const r = check(withFaults, variantNamed('retire-only'));
    const violated = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    expect(violated).toEqual(['rejectedHoldsNothing']);
    expect(r.properties.every((p) => p.status !== 'unknown')).toBe(true);
  });

  it('still leaks under incident-2026', () => {
    const r = check(withFaults, variantNamed('incident-2026'));
    expect(r.properties.find((p) => p.name === 'noCrossTenantRead')?.status).toBe('violated');
  });
});
