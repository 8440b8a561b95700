/**
 * Loads a deployment description (YAML or JSON) into a `Deployment`, or fails with one line that
 * names the file, the field and what is accepted, as scenario files do (`ConfigError`, exit 2).
 *
 * ```yaml
 * name: llama-70b                # required, 1-64 chars, [A-Za-z0-9_.-]
 * description: "…"               # optional
 * variant: fixed                 # a kvcheck variant (kvcheck list)
 * contextLen: 131072             # integer >= 2: the advertised context window
 * reserve: 5                     # integer >= 0, default 5
 * prefill:                       # and decode: the same fields
 *   model: { layers: 80, kvHeads: 8, headDim: 128 }   # or { layers, kvLoraRank, qkRopeHeadDim }
 *   kvCacheDtype: bf16           # fp32, bf16, fp16, fp8_e4m3, fp8_e5m2
 *   tpSize: 8                    # default 1; divides kvHeads or is a multiple of it
 *   dpSize: 1                    # default 1 (DP attention); divides tpSize
 *   gpuMemoryGiB: 80             # > 0
 *   memFractionStatic: 0.85      # in (0, 1]
 *   weightsGiB: 16.5             # >= 0, per GPU
 *   otherGiB: 0.5                # >= 0, default 0
 *   pageSize: 16                 # integer >= 1, default 1
 *   maxTotalTokens: 2000000      # optional cap; alone (without model) it is the pool, given directly
 * ```
 *
 * Only the first problem is reported, in the order above. Cross-field checks (the memory fields
 * a model needs, TP against KV heads, DP against TP, a pool of at least one page) run on a role
 * whose fields are each valid.
 */
import { z } from 'zod';
import { schedulerLimit } from '../../machines/scenario.ts';
import { variantNames } from '../../machines/variants.ts';
import { describeProblem, enumError, mappingError } from '../config/describeProblem.ts';
import { ConfigError, loadDataFile } from '../config/loadScenario.ts';
import { count } from '../numbers.ts';
import { attentionTp, poolCapacity } from './capacity.ts';
import type { Deployment, ModelShape, RoleSpec } from './deployment.ts';
import { dtypeNames } from './deployment.ts';

const integer = (min: number) => {
  const error = `must be an integer >= ${min}`;
  return z.int({ error }).min(min, { error });
};
const gib = (min: 'positive' | 'nonNegative') => {
  const error = min === 'positive' ? 'must be a number of GiB > 0' : 'must be a number of GiB >= 0';
  const n = z.number({ error });
  return min === 'positive' ? n.gt(0, { error }) : n.min(0, { error });
};

/** Strict mapping: an unknown key gets the close keys, or lists the accepted ones. */
const mapping = <T extends z.core.$ZodLooseShape>(shape: T, what: string) =>
  z.strictObject(shape, mappingError(Object.keys(shape), what));

const mlaHint = ' (or give kvLoraRank and qkRopeHeadDim for MLA)';

const modelSchema = mapping(
  {
    layers: integer(1),
    kvHeads: integer(1).optional(),
    headDim: integer(1).optional(),
    vHeadDim: integer(1).optional(),
    kvLoraRank: integer(1).optional(),
    qkRopeHeadDim: integer(1).optional(),
  },
  'must be a mapping: layers, kvHeads, headDim[, vHeadDim], or layers, kvLoraRank, qkRopeHeadDim',
)
  .superRefine((m, ctx) => {
    const issue = (key: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [key], message });
    if (m.kvLoraRank !== undefined || m.qkRopeHeadDim !== undefined) {
      const mla = m.kvLoraRank !== undefined ? 'kvLoraRank' : 'qkRopeHeadDim';
      for (const key of ['kvHeads', 'headDim', 'vHeadDim'] as const) {
        if (m[key] !== undefined) issue(key, `cannot be given with an MLA field (${mla})`);
      }
      if (m.kvLoraRank === undefined) issue('kvLoraRank', 'must be an integer >= 1 for MLA');
      if (m.qkRopeHeadDim === undefined) issue('qkRopeHeadDim', 'must be an integer >= 1 for MLA');
      return;
    }
    if (m.kvHeads === undefined) issue('kvHeads', `must be an integer >= 1${mlaHint}`);
    if (m.headDim === undefined) issue('headDim', `must be an integer >= 1${mlaHint}`);
  })
  .transform((m): ModelShape => {
    if (m.kvLoraRank !== undefined && m.qkRopeHeadDim !== undefined) {
      return {
        kind: 'mla',
        layers: m.layers,
        kvLoraRank: m.kvLoraRank,
        qkRopeHeadDim: m.qkRopeHeadDim,
      };
    }
    const headDim = m.headDim ?? 0;
    return {
      kind: 'gqa',
      layers: m.layers,
      kvHeads: m.kvHeads ?? 0,
      headDim,
      vHeadDim: m.vHeadDim ?? headDim,
    };
  });

const dtypeError = `must be one of ${dtypeNames.join(', ')}`;
const fractionError = 'must be a number in (0, 1]';

const roleShape = {
  model: modelSchema.optional(),
  kvCacheDtype: z.enum(dtypeNames, enumError('dtype', dtypeNames)).optional(),
  tpSize: integer(1).default(1),
  dpSize: integer(1).default(1),
  gpuMemoryGiB: gib('positive').optional(),
  memFractionStatic: z
    .number({ error: fractionError })
    .gt(0, { error: fractionError })
    .lte(1, { error: fractionError })
    .optional(),
  weightsGiB: gib('nonNegative').optional(),
  otherGiB: gib('nonNegative').optional(),
  pageSize: integer(1).default(1),
  maxTotalTokens: integer(1).optional(),
};

/** The fields a computed pool needs besides the model, with what each accepts. */
const memoryFields = {
  kvCacheDtype: dtypeError,
  gpuMemoryGiB: 'must be a number of GiB > 0',
  memFractionStatic: fractionError,
  weightsGiB: 'must be a number of GiB >= 0',
} as const;

type RawRole = z.output<ReturnType<typeof mapping<typeof roleShape>>>;

function toRole(r: RawRole): RoleSpec {
  const base = { tpSize: r.tpSize, dpSize: r.dpSize, pageSize: r.pageSize };
  if (r.model === undefined) {
    return { ...base, pool: { kind: 'given', maxTotalTokens: r.maxTotalTokens ?? 0 } };
  }
  return {
    ...base,
    pool: {
      kind: 'computed',
      model: r.model,
      kvCacheDtype: r.kvCacheDtype ?? 'bf16',
      gpuMemoryGiB: r.gpuMemoryGiB ?? 0,
      memFractionStatic: r.memFractionStatic ?? 1,
      weightsGiB: r.weightsGiB ?? 0,
      otherGiB: r.otherGiB ?? 0,
      maxTotalTokens: r.maxTotalTokens,
    },
  };
}

function checkRole(r: RawRole, ctx: z.core.$RefinementCtx<RawRole>): void {
  const issue = (key: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [key], message });
  if (r.model === undefined) {
    if (r.maxTotalTokens === undefined) {
      issue('model', 'must be the model’s KV shape, or give maxTotalTokens (the pool in tokens)');
      return;
    }
    for (const key of [...Object.keys(memoryFields), 'otherGiB'] as const) {
      if (r[key as keyof RawRole] !== undefined) {
        issue(key, 'is used only with model; give the model’s KV shape or remove it');
        return;
      }
    }
  } else {
    for (const [key, accepts] of Object.entries(memoryFields)) {
      if (r[key as keyof RawRole] === undefined) {
        issue(key, `${accepts}; required with model`);
        return;
      }
    }
  }
  if (r.tpSize % r.dpSize !== 0) {
    issue('dpSize', `must divide tpSize (${r.tpSize})`);
    return;
  }
  const attnTp = attentionTp(r);
  if (r.model?.kind === 'gqa') {
    const heads = r.model.kvHeads;
    if (heads % attnTp !== 0 && attnTp % heads !== 0) {
      const which = r.dpSize === 1 ? '' : ` (attention TP size tpSize / dpSize = ${attnTp})`;
      issue('tpSize', `must divide the KV head count (${heads}) or be a multiple of it${which}`);
      return;
    }
  }
  if (r.maxTotalTokens !== undefined && r.maxTotalTokens < r.pageSize) {
    issue('maxTotalTokens', `must be >= pageSize (${r.pageSize}) so that the pool holds a page`);
    return;
  }
  const role = toRole(r);
  const capacity = poolCapacity(role);
  if (role.pool.kind === 'computed' && capacity.tokens < r.pageSize) {
    const rest = ((capacity.restBytes ?? 0) / 2 ** 30).toFixed(2);
    issue(
      'memFractionStatic',
      `leaves ${rest} GiB for the KV pool (gpuMemoryGiB × memFractionStatic − weightsGiB − otherGiB), less than one page of ${r.pageSize} token(s)`,
    );
  }
}

const roleSchema = mapping(roleShape, 'must be a mapping of pool fields (model, kvCacheDtype, …)')
  .superRefine(checkRole)
  .transform(toRole);

const nameError = 'must be 1 to 64 characters, each a letter, digit, "_", "." or "-"';
const variantList = variantNames as [string, ...string[]];

const deploymentShape = {
  name: z.string({ error: nameError }).regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: nameError }),
  description: z.string({ error: 'must be a string' }).default(''),
  variant: z.enum(variantList, enumError('variant', variantList)),
  contextLen: integer(2),
  reserve: integer(0).default(5),
  prefill: roleSchema,
  decode: roleSchema,
};
const deploymentKeys = Object.keys(deploymentShape);

/**
 * The zod schema of a deployment file: strict mappings, messages in plain words, defaults filled
 * in (`description: ""`, `reserve: 5`, `tpSize: 1`, `dpSize: 1`, `pageSize: 1`, `otherGiB: 0`,
 * `vHeadDim: headDim`), and the cross-field checks. Its output is a `Deployment`.
 */
export const deploymentSchema = mapping(
  deploymentShape,
  'must be a mapping of deployment fields',
).superRefine(checkSchedulerLimits);

/**
 * The engine refuses to start when a side's scheduler would admit no prompt
 * (`max_req_input_len > 0`, "Memory pool size is too small"); such a file is refused here too,
 * naming the field that sets the smaller term of `min(contextLen − 1, pool − 1) − reserve`.
 */
function checkSchedulerLimits(
  d: { contextLen: number; reserve: number; prefill: RoleSpec; decode: RoleSpec },
  ctx: z.core.$RefinementCtx,
): void {
  // zod runs an object's refinement even when a field failed: report that field first.
  if (ctx.issues.length > 0) return;
  for (const role of ['prefill', 'decode'] as const) {
    const tokens = poolCapacity(d[role]).tokens;
    const limit = schedulerLimit(d.contextLen, tokens, d.reserve);
    if (limit >= 1) continue;
    const byPool = tokens < d.contextLen;
    const given = d[role].pool.kind === 'given';
    const path = byPool ? [role, given ? 'maxTotalTokens' : 'memFractionStatic'] : ['contextLen'];
    const terms = `min(${count(d.contextLen)} − 1, ${count(tokens)} − 1) − ${d.reserve} = ${limit}`;
    ctx.addIssue({
      code: 'custom',
      path,
      message: `leaves ${role}’s scheduler no prompt length: maxReqInputLen = min(contextLen − 1, pool − 1) − reserve = ${terms}, and the engine refuses to start below 1`,
    });
    return;
  }
}

/**
 * Validates parsed YAML/JSON `data` as a deployment; `source` names the file in the message.
 * Throws a ConfigError with the first problem, as `source: field: what is accepted (got …)`.
 */
export function parseDeployment(data: unknown, source: string): Deployment {
  const result = deploymentSchema.safeParse(data);
  if (result.success) return result.data;
  throw new ConfigError(`${source}: ${describeProblem(result.error.issues, data)}`);
}

/**
 * Reads and validates the deployment file at `path` (`.yaml`, `.yml` or `.json`, at most
 * `maxFileBytes`, mappings nested at most three deep: the file, a role, its model).
 */
export function loadDeploymentFile(path: string): Deployment {
  const data = loadDataFile(path, `a mapping with keys ${deploymentKeys.join(', ')}`, {
    max: 3,
    deepest: 'prefill.model',
  });
  return parseDeployment(data, path);
}
