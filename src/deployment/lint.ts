/**
 * `lintDeployment`: a deployment's pool capacities, scheduler limits, prompt-length bands,
 * findings and sensitivity table, as one plain JSON-ready record (`kvcheck lint --json`).
 */
import type { NodeRole } from '../../machines/scenario.ts';
import { findVariant } from '../../machines/variants.ts';
import { type Band, type Limits, limitsOf, promptBands } from './bands.ts';
import { type PoolCapacity, poolCapacities } from './capacity.ts';
import type { Deployment } from './deployment.ts';
import { type Finding, findingsOf } from './findings.ts';
import { type SensitivityRow, sensitivity } from './sensitivity.ts';

/** The result of linting one deployment. */
export interface LintReport {
  readonly deployment: Deployment;
  readonly pools: Readonly<Record<NodeRole, PoolCapacity>>;
  /** Each side's `maxReqInputLen`. */
  readonly limits: Limits;
  /** Prompt lengths the tokenizer accepts, by which schedulers reject them. */
  readonly bands: readonly Band[];
  readonly findings: readonly Finding[];
  readonly sensitivity: readonly SensitivityRow[];
  /** `error` when a finding is at error severity (exit 1), else `clean` (exit 0). */
  readonly status: 'error' | 'clean';
}

/**
 * Lints a validated deployment. Pure. Throws only if `deployment.variant` is not a built-in
 * variant, which `parseDeployment` rules out.
 */
export function lintDeployment(deployment: Deployment): LintReport {
  const variant = findVariant(deployment.variant);
  if (variant === undefined) throw new Error(`unknown variant ${deployment.variant}`);
  const pools = poolCapacities(deployment);
  const limits = limitsOf(deployment.contextLen, deployment.reserve, {
    prefill: pools.prefill.tokens,
    decode: pools.decode.tokens,
  });
  const bands = promptBands(deployment.contextLen, limits);
  const rows = sensitivity(deployment);
  const findings = findingsOf({
    deployment,
    switches: variant.switches,
    pools,
    limits,
    bands,
    sensitivity: rows,
  });
  return {
    deployment,
    pools,
    limits,
    bands,
    findings,
    sensitivity: rows,
    status: findings.some((f) => f.severity === 'error') ? 'error' : 'clean',
  };
}
