/**
 * Transfer faults: with `transferFaults`, a room may fail at any point before Success. The fixed
 * engine must still answer every request and free every page; the incident still leaks.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { findVariant, type Variant } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { checkScenario } from '../../src/checker/checkScenario.ts';

const withFaults: Scenario = { ...incident, name: 'incident-faults', transferFaults: true };

function variant(name: string): Variant {
  const v = findVariant(name);
  if (!v) throw new Error(name);
  return v;
}

describe('incident with transfer faults', () => {
  it('holds every property under fixed, with more states than without faults', () => {
    const faulty = checkScenario(withFaults, variant('fixed'));
    const plain = checkScenario(incident, variant('fixed'));
    expect(faulty.status).toBe('ok');
    expect(faulty.stats.states).toBeGreaterThan(plain.stats.states);
    expect(faulty.stats.states).toMatchInlineSnapshot(`308`);
  });

  it('holds every property under retire-only', () => {
    const r = checkScenario(withFaults, variant('retire-only'));
    expect(r.status).toBe('ok');
    expect(r.properties.every((p) => p.status === 'holds')).toBe(true);
  });

  it('still leaks under incident-2026', () => {
    const r = checkScenario(withFaults, variant('incident-2026'));
    expect(r.properties.find((p) => p.name === 'noCrossTenantRead')?.status).toBe('violated');
  });
});
