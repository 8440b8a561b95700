/** The structural path check: statechart paths from a rejected state to a decoding state. */
export {
  type FindPathsOptions,
  findPaths,
  type LifecyclePath,
  type PathMove,
  type PathStep,
  type PathsReport,
  UnknownStateError,
} from './findPaths.ts';
export { renderPaths } from './renderPaths.ts';
