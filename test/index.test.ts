/**
 * The library entry point, imported by package name as a user's test suite would.
 */
import { checkScenario, findScenario, findVariant, properties, variantNames } from 'kvcheck';

describe('the kvcheck package entry point', () => {
  it('checks a built-in scenario from a user’s own test', () => {
    const scenario = findScenario('incident');
    const fixed = findVariant('fixed');
    if (!scenario || !fixed) throw new Error('missing built-in');
    const result = checkScenario(scenario, fixed, { requiredWitnesses: scenario.witnesses });
    expect(result.status).toBe('ok');
    expect(result.witnesses.every((w) => !w.required || w.reached)).toBe(true);
  });

  it('exposes the property registry and the variant names', () => {
    expect(Object.keys(properties)).toContain('noCrossTenantRead');
    expect(variantNames).toEqual([
      'incident-2026',
      'fixed',
      'fixed-coverage',
      'retire-only',
      'coverage-only',
    ]);
  });
});
