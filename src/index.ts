/**
 * kvcheck's library entry point: build a scenario, pick a variant, `check` it (or `checkAsync`,
 * which can be interrupted), read the Outcome; or explore any XState v5 machine with `explore`
 * (the fast engine, inside its subset; see `engine/index.ts`) or `exploreReference` (the same
 * contract over `xstate/graph`). The engine's trace step type is exported as `ExploreTraceStep`.
 * A counterexample's steps carry typed change records (`TraceChange`); `changeText` tells one
 * as the sentence the CLI prints.
 *
 * ```ts
 * import { check, findScenario, findVariant } from 'kvcheck';
 * const result = check(findScenario('incident')!, findVariant('fixed')!);
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
  expectationFor,
  type ManifestRow,
  type Measurement,
  manifest,
} from '../scenarios/manifest.ts';
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
  expectedCatchers,
  runCatalogue,
} from './catalogue/run.ts';
export { check, checkAsync } from './checker/check.ts';
export {
  type CheckOptions,
  checkDefaults,
  type EngineName,
  engineNames,
  type ResolvedCheckOptions,
  resolveCheckOptions,
  type SearchOrder,
  searchOrders,
} from './checker/checkOptions.ts';
export type * from './checker/outcome.ts';
export { overallVerdict } from './checker/outcome.ts';
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
  exploreReference,
  type InPlaceUpdate,
  type Invariant,
  type InvariantReads,
  type Progress,
  type SnapshotLike,
  type StateProjection,
  type TraceStep as ExploreTraceStep,
  UnsupportedFeatureError,
  type VectorContext,
  type Violation,
  vectorAssign,
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
