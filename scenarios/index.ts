/**
 * The built-in scenarios, in the order reports list them.
 */
import type { Scenario } from '../machines/scenario.ts';
import { band } from './band.ts';
import { happy } from './happy.ts';
import { incident } from './incident.ts';
import { incidentLarge } from './large.ts';
import { pool2x } from './pool2x.ts';
import { tightDecode } from './tightDecode.ts';

export { band } from './band.ts';
export { happy } from './happy.ts';
export { incident } from './incident.ts';
export { incidentLarge } from './large.ts';
export { pool2x } from './pool2x.ts';
export { tightDecode } from './tightDecode.ts';

/** Every built-in scenario. */
export const scenarios: readonly Scenario[] = [incident, pool2x, band, happy, tightDecode];

/** Names of the built-in scenarios. */
export const scenarioNames: readonly string[] = scenarios.map((s) => s.name);

/**
 * Scenarios that are named but not run by default: `--scenario NAME` selects them, and neither
 * `kvcheck all` nor a `check` without `--scenario` runs them, because exhaustive search does not
 * finish them in CI time (a bounded run ends `incomplete`; `simulate` walks them).
 */
export const largeScenarios: readonly Scenario[] = [incidentLarge];

/** The built-in or large scenario called `name`, or undefined. */
export function findScenario(name: string): Scenario | undefined {
  return [...scenarios, ...largeScenarios].find((s) => s.name === name);
}
