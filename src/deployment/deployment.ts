/**
 * A real deployment as kvcheck reads it: per role (prefill, decode), the model's KV shape, the
 * KV cache dtype, tensor and data parallelism, the GPU memory budget and the page size, or the
 * pool capacity given directly; plus the context window, the scheduler's reserve and the engine
 * variant deployed. `loadDeployment.ts` parses it; `capacity.ts` turns it into pool sizes.
 */
import type { NodeRole } from '../../machines/scenario.ts';

/** Bytes per element of each KV cache dtype (SGLang `--kv-cache-dtype`, `torch` element size). */
export const dtypeBytes = {
  fp32: 4,
  bf16: 2,
  fp16: 2,
  fp8_e4m3: 1,
  fp8_e5m2: 1,
} as const;

/** A KV cache dtype name. */
export type KvDtype = keyof typeof dtypeBytes;

/** The accepted dtype names, widest first. */
export const dtypeNames = Object.keys(dtypeBytes) as [KvDtype, ...KvDtype[]];

/**
 * Multi-head or grouped-query attention: K and V per KV head, per layer (Hugging Face config
 * `num_hidden_layers`, `num_key_value_heads`, `head_dim`; `vHeadDim` defaults to `headDim`).
 */
export interface GqaShape {
  readonly kind: 'gqa';
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly vHeadDim: number;
}

/**
 * Multi-head latent attention (DeepSeek-V2/V3): one compressed latent of `kvLoraRank` plus the
 * rotary part `qkRopeHeadDim` per token and layer, shared by every head.
 */
export interface MlaShape {
  readonly kind: 'mla';
  readonly layers: number;
  readonly kvLoraRank: number;
  readonly qkRopeHeadDim: number;
}

/** The part of a model that decides how many bytes one token's KV takes. */
export type ModelShape = GqaShape | MlaShape;

/**
 * How one pool's capacity is known: computed from the model and the memory budget as SGLang's
 * `profile_max_num_token` does (and capped by `maxTotalTokens` when given), or given directly.
 */
export type PoolSource =
  | {
      readonly kind: 'computed';
      readonly model: ModelShape;
      readonly kvCacheDtype: KvDtype;
      /**
       * GPU memory per GPU, GiB, as the engine measures it free after distributed init and before
       * loading weights (`total_gpu_memory`, from `get_available_gpu_memory`), not the physical size.
       */
      readonly gpuMemoryGiB: number;
      /** `--mem-fraction-static`, in (0, 1]. */
      readonly memFractionStatic: number;
      /** Model weights per GPU after tensor-parallel sharding, GiB. */
      readonly weightsGiB: number;
      /** Other memory taken after that measurement and before the KV pool is sized, GiB. */
      readonly otherGiB: number;
      /** `--max-total-tokens`, a cap on the computed capacity, if set. */
      readonly maxTotalTokens?: number | undefined;
    }
  | {
      readonly kind: 'given';
      /** The pool capacity in tokens as the operator reports it (`max_total_num_tokens`). */
      readonly maxTotalTokens: number;
    };

/** One role's servers: parallelism, page size and how its pool is sized. */
export interface RoleSpec {
  /** `--tp-size`. */
  readonly tpSize: number;
  /** `--dp-size` with `--enable-dp-attention` (1: no DP attention); each DP rank has its own pool. */
  readonly dpSize: number;
  /** `--page-size`, tokens per KV page. */
  readonly pageSize: number;
  readonly pool: PoolSource;
}

/** A deployment description, as `kvcheck lint` and `kvcheck check --deployment` read it. */
export interface Deployment {
  /** Name used in messages and as the prefix of the abstract scenarios' names. */
  readonly name: string;
  readonly description: string;
  /** The kvcheck variant whose behaviour is deployed (`machines/variants.ts`). */
  readonly variant: string;
  /** Advertised context window in tokens (`--context-length`). */
  readonly contextLen: number;
  /** The scheduler's reserve subtracted from `max_req_len` (5 in SGLang). */
  readonly reserve: number;
  readonly prefill: RoleSpec;
  readonly decode: RoleSpec;
}

/** Both roles, in the order reports list them. */
export const roles: readonly NodeRole[] = ['prefill', 'decode'];
