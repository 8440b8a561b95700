/**
 * The properties' declared reads (`Property.reads`) as the engine takes them
 * (`ExploreOptions.reads`): the words of the declared variables in `scenario`'s layout, and the
 * declared regions of every request as state paths (`<rid>.<region>`, the composed machine's
 * shape). The search then checks a property on a new state only when the step changed one of
 * them; `test/invariants/reads.test.ts` holds the declarations to what the properties read.
 */
import type { Property } from '../../../invariants/property.ts';
import { layoutOf } from '../../../machines/layout.ts';
import type { Scenario } from '../../../machines/scenario.ts';
import type { InvariantReads } from '../../engine/index.ts';

/** The engine's `reads` for the state properties of `selected` (name, property) on `scenario`. */
export function servingReads(
  scenario: Scenario,
  selected: readonly (readonly [string, Property])[],
): Record<string, InvariantReads> {
  const layout = layoutOf(scenario);
  const out: Record<string, InvariantReads> = {};
  for (const [name, p] of selected) {
    if (p.kind !== 'state') continue;
    const regions = p.reads.regions ?? [];
    out[name] = {
      words: layout.wordsOf(p.reads),
      states: scenario.requests.flatMap((r) => regions.map((region) => `${r.id}.${region}`)),
    };
  }
  return out;
}
