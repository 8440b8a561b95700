/**
 * Scenarios with interchangeable requests, where symmetry reduction has something to reduce:
 * the symmetry and engine tests and the benchmark explore them. None is a built-in scenario
 * (`kvcheck all` does not run them); the built-in ones give every request other parameters.
 */
import type { RequestSpec, Scenario } from '../machines/scenario.ts';
import { band } from './band.ts';
import { incident } from './incident.ts';

const request = (
  id: string,
  tenant: string,
  promptLen: number,
  outputLen: number,
): RequestSpec => ({
  id,
  tenant,
  promptLen,
  outputLen,
});

/** The incident plus a second request of tenant A with A's parameters (a1 and a2 are symmetric). */
export const incident3: Scenario = {
  ...incident,
  name: 'incident-3',
  requests: [...incident.requests, request('a2', 'A', 1, 2)],
};

/** The incident's pools with two tenants of one identical request each (the tenants are symmetric). */
export const twins: Scenario = {
  ...incident,
  name: 'twins',
  requests: [request('a1', 'A', 3, 2), request('b1', 'B', 3, 2)],
};

/** Two tenants' identical band-length prompts, and a third tenant's too-long one. */
export const band3: Scenario = {
  ...band,
  name: 'band-3',
  requests: [request('a1', 'A', 5, 1), request('b1', 'B', 5, 1), request('c1', 'C', 10, 1)],
};
