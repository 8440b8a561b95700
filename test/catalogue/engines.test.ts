/**
 * The fast engine and the xstate/graph reference agree on every catalogue scenario: the same
 * distinct states, transitions and depth, and the same verdicts, for each entry's variant and
 * for `fixed` (symmetry off, so the counts are of the same states).
 */

import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function summary(r: ScenarioResult) {
  return {
    status: r.status,
    states: r.stats.states,
    transitions: r.stats.transitions,
    depth: r.stats.depth,
    violated: r.properties.filter((p) => p.status === 'violated').map((p) => p.name),
  };
}

describe.each(catalogue.map((e) => [e.id, e] as const))('%s', (_, entry) => {
  it.each([
    ['its variant', entry.variant],
    ['fixed', fixedVariant()],
  ] as const)(`${entry.scenario.name} under %s: fast and graph agree`, (_label, variant) => {
    const fast = check(entry.scenario, variant, { engine: 'fast', symmetry: false });
    const graph = check(entry.scenario, variant, { engine: 'graph' });
    expect(graph.status).not.toBe('incomplete');
    expect(summary(fast)).toEqual(summary(graph));
  });
});
