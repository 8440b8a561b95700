/**
 * kvcheck's library entry point: build a scenario, pick a variant, check it, read the Outcome.
 *
 * ```ts
 * import { checkScenario, findScenario, findVariant } from 'kvcheck';
 * const result = checkScenario(findScenario('incident')!, findVariant('fixed')!);
 * expect(result.status).toBe('ok');
 * ```
 */
export * from '../invariants/index.ts';
export type { NodeRole, RequestId, RequestSpec, Scenario, TenantId } from '../machines/scenario.ts';
export { maxReqInputLen, schedulerLimit } from '../machines/scenario.ts';
export { createServingMachine, type ServingMachine } from '../machines/servingMachine.ts';
export type { RouterPolicy, Switches, Variant } from '../machines/variants.ts';
export { findVariant, variantNames, variants } from '../machines/variants.ts';
export { findScenario, scenarios } from '../scenarios/index.ts';
export {
  type CatalogueEntry,
  type CatalogueId,
  catalogue,
  catalogueVariants,
  findCatalogueVariant,
} from './catalogue/index.ts';
export {
  type CatalogueReport,
  type CatalogueRow,
  type CatalogueVerdict,
  runCatalogue,
} from './catalogue/run.ts';
export { type CheckOptions, checkMachine, checkScenario } from './checker/checkScenario.ts';
export type * from './checker/outcome.ts';
export { overallVerdict } from './checker/outcome.ts';
export {
  defaultMaxStates,
  type ExploreLimits,
  exploreMachine,
  exploreScenario,
  type StateGraph,
} from './checker/stateGraph.ts';
export * from './deployment/index.ts';
export {
  canBeVictim,
  type DecodeWrites,
  decodeWrites,
  type LeakPair,
  leakOracleApplies,
  leakPair,
  leakPossible,
} from './oracle/leakOracle.ts';
export type { DepthBucket, DepthDistribution } from './simulate/depths.ts';
export {
  defaultDepth,
  defaultRuns,
  maxSeed,
  type ShrinkReport,
  type SimulateOptions,
  type SimulationInfo,
  type SimulationResult,
  simulate,
} from './simulate/simulate.ts';
