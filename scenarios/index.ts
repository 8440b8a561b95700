/**
 * The built-in scenarios, in the order reports list them.
 */
import type { Scenario } from '../machines/scenario.ts';
import { band } from './band.ts';
import { happy } from './happy.ts';
import { incident } from './incident.ts';
import { pool2x } from './pool2x.ts';

export { band } from './band.ts';
export { happy } from './happy.ts';
export { incident } from './incident.ts';
export { pool2x } from './pool2x.ts';

/** Every built-in scenario. */
export const scenarios: readonly Scenario[] = [incident, pool2x, band, happy];

/** Names of the built-in scenarios. */
export const scenarioNames: readonly string[] = scenarios.map((s) => s.name);

/** The built-in scenario called `name`, or undefined. */
export function findScenario(name: string): Scenario | undefined {
  return scenarios.find((s) => s.name === name);
}
