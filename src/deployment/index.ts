/** Deployments: pool capacity, lint findings, sensitivity and the mapping to abstract scenarios. */
export {
  type AbstractMapping,
  abstractScenarios,
  type BandRun,
  type PoolMapping,
} from './abstractScenario.ts';
export { type Band, type BandKind, type Limits, limitsOf, promptBands } from './bands.ts';
export { cellBytes, kvHeadsPerRank, type PoolCapacity, poolCapacity } from './capacity.ts';
export type {
  Deployment,
  GqaShape,
  KvDtype,
  MlaShape,
  ModelShape,
  PoolSource,
  RoleSpec,
} from './deployment.ts';
export { dtypeBytes, dtypeNames } from './deployment.ts';
export {
  type Finding,
  type FindingId,
  type RejectEffect,
  rejectEffect,
  type Severity,
} from './findings.ts';
export { type LintReport, lintDeployment } from './lint.ts';
export { deploymentSchema, loadDeploymentFile, parseDeployment } from './loadDeployment.ts';
export { type SensitivityRow, sensitivity } from './sensitivity.ts';
