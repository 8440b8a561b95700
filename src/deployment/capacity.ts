/**
 * KV pool capacity in tokens, computed as SGLang's `ModelRunner.profile_max_num_token` does
 * (`model_executor/model_runner_kv_cache_mixin.py`), then capped and page-aligned as
 * `ModelRunner.init_memory_pool` does:
 *
 * ```text
 * kvHeadsPerRank = max(1, kvHeads / attnTp)        attnTp = tpSize / dpSize (DP attention)
 * cellBytes      = kvHeadsPerRank × (headDim + vHeadDim) × layers × dtypeBytes      (GQA/MHA)
 *                = (kvLoraRank + qkRopeHeadDim) × layers × dtypeBytes               (MLA)
 * available      = gpuMemory − weights − other                                       (GiB)
 * restMemory     = available − gpuMemory × (1 − memFractionStatic)                   (GiB)
 * profiled       = floor(restMemory × 2^30 / cellBytes)
 * tokens         = floor(min(profiled, maxTotalTokens) / pageSize) × pageSize
 * ```
 *
 * When `tpSize` exceeds the KV head count each rank keeps one replicated head (SGLang's
 * `get_num_kv_heads`). A pool given directly is only page-aligned. Left out: the NSA/DSA indexer
 * and FP4 scale terms, draft-model pools and hybrid (Mamba/SWA) pools.
 */
import { type Deployment, dtypeBytes, type ModelShape, type RoleSpec } from './deployment.ts';

/** Bytes in a GiB: SGLang measures memory in GiB and multiplies by `1 << 30`. */
export const bytesPerGiB = 2 ** 30;

/** How one pool's capacity came about, every intermediate number kept for the explanation. */
export interface PoolCapacity {
  /** Usable tokens: capped and page-aligned. */
  readonly tokens: number;
  readonly pageSize: number;
  readonly source: 'computed' | 'given';
  /** KV heads each attention-TP rank stores (GQA/MHA only). */
  readonly kvHeadsPerRank?: number;
  /** Bytes one token's KV takes over all layers on one GPU. */
  readonly cellBytes?: number;
  /** Memory left for the KV pool, in bytes. */
  readonly restBytes?: number;
  /** Tokens before the cap and page alignment. */
  readonly profiledTokens?: number;
  /** `maxTotalTokens` when it lowered the computed capacity. */
  readonly cappedAt?: number;
}

/** The attention tensor-parallel size: `tpSize / dpSize` under DP attention. */
export function attentionTp(role: Pick<RoleSpec, 'tpSize' | 'dpSize'>): number {
  return role.tpSize / role.dpSize;
}

/** KV heads per attention-TP rank: `max(1, floor(kvHeads / attnTp))` (SGLang `get_num_kv_heads`). */
export function kvHeadsPerRank(kvHeads: number, attnTp: number): number {
  return Math.max(1, Math.floor(kvHeads / attnTp));
}

/** Bytes of KV one token takes over every layer on one GPU (`cell_size`). */
export function cellBytes(model: ModelShape, bytes: number, attnTp: number): number {
  if (model.kind === 'mla') return (model.kvLoraRank + model.qkRopeHeadDim) * model.layers * bytes;
  const heads = kvHeadsPerRank(model.kvHeads, attnTp);
  return heads * (model.headDim + model.vHeadDim) * model.layers * bytes;
}

/**
 * The capacity of one role's pool in tokens, with its intermediate numbers. The rest memory may
 * be zero or negative (the engine would refuse to start); `tokens` is then 0.
 */
export function poolCapacity(role: RoleSpec): PoolCapacity {
  const { pool, pageSize } = role;
  const align = (tokens: number) => Math.floor(Math.max(0, tokens) / pageSize) * pageSize;
  if (pool.kind === 'given') {
    return { tokens: align(pool.maxTotalTokens), pageSize, source: 'given' };
  }
  const attnTp = attentionTp(role);
  const cell = cellBytes(pool.model, dtypeBytes[pool.kvCacheDtype], attnTp);
  // The same floating-point steps as SGLang: available memory, minus the non-static share.
  const available = pool.gpuMemoryGiB - pool.weightsGiB - pool.otherGiB;
  const restGiB = available - pool.gpuMemoryGiB * (1 - pool.memFractionStatic);
  const restBytes = restGiB * bytesPerGiB;
  const profiledTokens = Math.max(0, Math.floor(restBytes / cell));
  const cap = pool.maxTotalTokens;
  const capped = cap !== undefined && cap < profiledTokens ? cap : profiledTokens;
  return {
    tokens: align(capped),
    pageSize,
    source: 'computed',
    ...(pool.model.kind === 'gqa'
      ? { kvHeadsPerRank: kvHeadsPerRank(pool.model.kvHeads, attnTp) }
      : {}),
    cellBytes: cell,
    restBytes,
    profiledTokens,
    ...(cap !== undefined && cap < profiledTokens ? { cappedAt: cap } : {}),
  };
}

/** Both pools of a deployment. */
export function poolCapacities(d: Deployment): { prefill: PoolCapacity; decode: PoolCapacity } {
  return { prefill: poolCapacity(d.prefill), decode: poolCapacity(d.decode) };
}
