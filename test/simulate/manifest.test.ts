/**
 * Random walks agree with the exhaustive manifest on the built-in scenarios (its `builtinRows`):
 * wherever `scenarios/manifest.ts` pins a violation, 100 walks find exactly the properties it
 * lists, each with a trace no longer than the exhaustive depth; and they find nothing where it
 * pins `ok`.
 *
 * The seed is pinned (KVCHECK_SEED, else 20261026) and printed in the title.
 */
import { describe, expect, it } from 'vitest';
import { findVariant } from '../../machines/variants.ts';
import { findScenario } from '../../scenarios/index.ts';
import { builtinRows } from '../../scenarios/manifest.ts';
import { simulate } from '../../src/simulate/simulate.ts';
import { pinnedSeed } from '../properties/scenarioArbitraries.ts';

const seed = pinnedSeed();

describe(`simulate against the manifest (seed: ${seed})`, () => {
  it.each(builtinRows.map((e) => [e.scenario, e.variant, e] as const))(
    '%s × %s',
    (scenarioName, variantName, expected) => {
      const scenario = findScenario(scenarioName);
      const variant = findVariant(variantName);
      if (!scenario || !variant) throw new Error(`missing ${scenarioName} or ${variantName}`);
      const r = simulate(scenario, variant, { runs: 100, seed });
      const violated = r.properties.filter((p) => p.status === 'violated');
      expect(violated.map((p) => p.name)).toEqual(expected.violated);
      expect(r.status).toBe(expected.status === 'ok' ? 'incomplete' : 'violation');
      for (const p of violated) {
        expect(p.trace?.steps.length).toBeLessThanOrEqual(expected.depth);
      }
    },
  );
});
