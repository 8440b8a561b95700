/**
 * The properties' declared reads (`Property.reads`) as the engine takes them
 * (`ExploreOptions.reads`): the words of the declared variables in `scenario`'s layout, and the
 * declared regions of every request as state paths (`<rid>.<region>`, the composed machine's
 * shape). The search then checks a property on a new state only when the step changed one of
 * them. `checkServingReads` (`check --reads-check`) holds the declarations to what the
 * properties read, on any scenario; `test/invariants/reads.test.ts` runs it on the built-in and
 * catalogue scenarios.
 */
import { properties } from '../../../invariants/index.ts';
import type { Property } from '../../../invariants/property.ts';
import type { ServingContext } from '../../../machines/context.ts';
import type { ExternalEvent } from '../../../machines/events.ts';
import { layoutOf } from '../../../machines/layout.ts';
import type { Scenario } from '../../../machines/scenario.ts';
import { createServingMachine } from '../../../machines/servingMachine.ts';
import type { Variant } from '../../../machines/variants.ts';
import { explore, type InvariantReads } from '../../engine/index.ts';
import { plainState } from '../scenarioResult.ts';
import { declaredNames, readsRecorder } from './recordReads.ts';
import { servingEvents } from './servingEvents.ts';

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

/** What the self-check of the declared reads found (`checkServingReads`). */
export interface ReadsCheck {
  /**
   * One line per property and undeclared read (`rejectedHoldsNothing reads
   * request.rejectedOnPrefill, not declared`), distinct, in the order found; empty when every
   * read was declared.
   */
  readonly problems: readonly string[];
  /** Reachable states on which every property and trigger was recorded. */
  readonly states: number;
  /** False when `maxStates` stopped the visit: the lines cover only the states visited. */
  readonly complete: boolean;
}

/**
 * The self-check of the declared reads on `scenario` × `variant` (`check --reads-check`): visits
 * the reachable states breadth first, without symmetry or reduction (at most `maxStates`), runs
 * each of `selected` (every property by default, terminal ones included, as state predicates)
 * and its trigger on a recording copy of each state, and reports each variable or region one
 * of them read that its `Property.reads` leaves out. Such a read could hide a violation from
 * the search, which re-checks a property only where a step changed what it declares.
 */
export function checkServingReads(
  scenario: Scenario,
  variant: Variant,
  maxStates = Number.POSITIVE_INFINITY,
  selected: readonly (readonly [string, Property])[] = Object.entries(properties),
): ReadsCheck {
  const problems = new Set<string>();
  const known = selected.map(([, p]) => declaredNames(p.reads));
  let states = 0;
  const result = explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
    events: servingEvents(scenario.requests.map((r) => r.id)),
    maxStates,
    onState: (projection) => {
      states++;
      const record = readsRecorder(plainState(projection));
      selected.forEach(([name, p], i) => {
        for (const read of [p, p.trigger.fires]) {
          for (const seen of record(read)) {
            if (!known[i]?.has(seen)) problems.add(`${name} reads ${seen}, not declared`);
          }
        }
      });
    },
  });
  return { problems: [...problems], states, complete: result.bound === undefined };
}
