/**
 * The library entry point, imported by package name as a user's test suite would.
 */
import {
  changeText,
  check,
  explore,
  findScenario,
  findVariant,
  properties,
  variantNames,
} from 'kvcheck';
import { assign, setup } from 'xstate';

describe('the kvcheck package entry point', () => {
  it('checks a built-in scenario from a user’s own test', () => {
    const scenario = findScenario('incident');
    const fixed = findVariant('fixed');
    if (!scenario || !fixed) throw new Error('missing built-in');
    const result = check(scenario, fixed, { requiredWitnesses: scenario.witnesses });
    expect(result.status).toBe('ok');
    expect(result.witnesses.every((w) => !w.required || w.reached)).toBe(true);
  });

  it('gives counterexample steps as change records and tells them as sentences', () => {
    const scenario = findScenario('incident');
    const buggy = findVariant('incident-2026');
    if (!scenario || !buggy) throw new Error('missing built-in');
    const result = check(scenario, buggy, { properties: ['noCrossTenantRead'] });
    const last = result.properties[0]?.trace?.steps.at(-1);
    const leak = last?.changes.find((c) => c.kind === 'slotRead' && c.foreign);
    expect(leak && changeText(leak)).toBe(
      'b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV',
    );
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

  it('runs the fast engine on a scenario, with the reference engine’s verdict and count', () => {
    const scenario = findScenario('incident');
    const fixed = findVariant('fixed');
    if (!scenario || !fixed) throw new Error('missing built-in');
    const fast = check(scenario, fixed, { engine: 'fast' });
    const reference = check(scenario, fixed, { engine: 'graph' });
    expect(fast.engine?.name).toBe('fast');
    expect(fast.status).toBe(reference.status);
    expect(fast.stats.states).toBe(reference.stats.states);
  });

  it('explores a user’s own machine with explore (the README’s example)', () => {
    const counter = setup({ types: { context: {} as { n: number } } }).createMachine({
      context: { n: 0 },
      on: {
        INC: {
          guard: ({ context }) => context.n < 3,
          actions: assign({ n: ({ context }) => context.n + 1 }),
        },
      },
    });
    const result = explore(counter, {
      events: [{ type: 'INC' }],
      invariants: { capped: (s) => s.context.n <= 3 },
    });
    expect(result.status).toBe('ok');
    expect(result.stats.states).toBe(4);
    const broken = explore(counter, {
      events: [{ type: 'INC' }],
      invariants: { belowTwo: (s) => s.context.n < 2 },
    });
    expect(broken.status).toBe('violation');
    expect(broken.violations[0]?.trace.map((t) => t.state.context.n)).toEqual([1, 2]);
  });
});
