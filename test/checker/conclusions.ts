/**
 * What a check concludes, as the reductions must keep it: the verdict, each property's status
 * and trace length, the witnesses reached and the coverage. State counts are left out.
 */
import type { ScenarioResult } from '../../src/checker/outcome.ts';

/** The conclusions of `r`, comparable with `toEqual` across runs with and without a reduction. */
export function conclusions(r: ScenarioResult) {
  return {
    status: r.status,
    properties: r.properties.map((p) => `${p.name}:${p.status}:${p.trace?.steps.length ?? '-'}`),
    witnesses: r.witnesses.map((w) => `${w.name}:${w.reached}`),
    coverage: r.coverage,
  };
}
