/**
 * The fast exhaustive engine: `explore` and its types.
 */
export { explore } from './explore.ts';
export { collisionProbability } from './fingerprint.ts';
export type {
  EventSource,
  ExploreBound,
  ExploreOptions,
  ExploreResult,
  ExploreStats,
  Invariant,
  Progress,
  SnapshotLike,
  StateProjection,
  TraceStep,
  Violation,
} from './types.ts';
export { UnsupportedFeatureError } from './xstateInternals.ts';
