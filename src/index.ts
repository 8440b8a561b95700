/**
 * kvcheck's library entry point: build a scenario, pick a variant, check it, read the Outcome;
 * or explore any XState v5 machine inside the fast engine's subset with `explore` (see
 * `engine/index.ts`; its trace step type is exported here as `ExploreTraceStep`).
 * A counterexample's steps carry typed change records (`TraceChange`); `changeText` tells one
 * as the sentence the CLI prints.
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
export {
  check,
  checkAsync,
  type EngineCheckOptions,
  type EngineName,
  engineNames,
} from './checker/check.ts';
export {
  checkScenarioFast,
  checkScenarioFastAsync,
  type FastCheckOptions,
} from './checker/checkFast.ts';
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
  collisionProbability,
  type EventSource,
  type ExploreBound,
  type ExploreOptions,
  type ExploreResult,
  type ExploreStats,
  explore,
  exploreAsync,
  type Invariant,
  type Progress,
  type SnapshotLike,
  type StateProjection,
  type TraceStep as ExploreTraceStep,
  UnsupportedFeatureError,
  type Violation,
} from './engine/index.ts';
export { changeText } from './export/changeText.ts';
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
