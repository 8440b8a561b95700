/**
 * How each computed pool's capacity moves when one setting changes: the KV cache dtype, the
 * tensor parallel size, or `mem_fraction_static`. The report stresses that the pool can change
 * silently with any of these; the table shows which change would open a gap against the window.
 *
 * A TP change keeps the model's total weights: `weightsGiB` (per GPU) scales by `tp / tp′`.
 * DP attention (`dpSize`) stays as deployed, so only TP sizes divisible by it are tried.
 */
import type { NodeRole } from '../../machines/scenario.ts';
import { schedulerLimit } from '../../machines/scenario.ts';
import { attentionTp, poolCapacity } from './capacity.ts';
import { type Deployment, dtypeBytes, type KvDtype, type RoleSpec, roles } from './deployment.ts';

/** Where a capacity sits against the context window. */
export type Headroom = 'noRoom' | 'belowContext' | 'belowTwiceContext' | 'twiceContext';

/** The settings the table varies. */
export type SensitivityParameter = 'kvCacheDtype' | 'tpSize' | 'memFractionStatic';

/** One alternative value of one setting for one pool, and the capacity it gives. */
export interface SensitivityRow {
  readonly role: NodeRole;
  readonly parameter: SensitivityParameter;
  readonly value: string;
  /** Whether this is the deployed value. */
  readonly current: boolean;
  readonly tokens: number;
  readonly maxReqInputLen: number;
  readonly headroom: Headroom;
}

/** Where `tokens` sits against `contextLen` (no room: less than one page). */
export function headroomOf(tokens: number, pageSize: number, contextLen: number): Headroom {
  if (tokens < pageSize) return 'noRoom';
  if (tokens < contextLen) return 'belowContext';
  if (tokens < 2 * contextLen) return 'belowTwiceContext';
  return 'twiceContext';
}

/** `headroomOf` in words, for tables. */
export const headroomText: Readonly<Record<Headroom, string>> = {
  noRoom: 'no room: the engine would not start',
  belowContext: 'below the context window',
  belowTwiceContext: 'below 2× the context window',
  twiceContext: 'at least 2× the context window',
};

/** One dtype per element size, the deployed one standing for its size. */
function dtypeAlternatives(current: KvDtype): KvDtype[] {
  const defaults: KvDtype[] = ['fp32', 'bf16', 'fp8_e4m3'];
  return defaults.map((d) => (dtypeBytes[d] === dtypeBytes[current] ? current : d));
}

function tpAlternatives(role: RoleSpec): number[] {
  const { tpSize, dpSize, pool } = role;
  const candidates = [tpSize / 2, tpSize, tpSize * 2].filter(
    (tp) => Number.isInteger(tp) && tp >= dpSize && tp % dpSize === 0,
  );
  return candidates.filter((tp) => {
    if (pool.kind !== 'computed' || pool.model.kind !== 'gqa') return true;
    const attnTp = attentionTp({ tpSize: tp, dpSize });
    return pool.model.kvHeads % attnTp === 0 || attnTp % pool.model.kvHeads === 0;
  });
}

function fractionAlternatives(f: number): number[] {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return [round(f - 0.1), round(f - 0.05), f, round(f + 0.05)].filter((x) => x > 0 && x <= 1);
}

/** The sensitivity rows of one role; empty for a pool given directly. */
export function roleSensitivity(d: Deployment, role: NodeRole): SensitivityRow[] {
  const spec = d[role];
  const pool = spec.pool;
  if (pool.kind !== 'computed') return [];
  const row = (
    parameter: SensitivityParameter,
    value: string,
    current: boolean,
    changed: RoleSpec,
  ): SensitivityRow => {
    const { tokens } = poolCapacity(changed);
    return {
      role,
      parameter,
      value,
      current,
      tokens,
      maxReqInputLen: schedulerLimit(d.contextLen, tokens, d.reserve),
      headroom: headroomOf(tokens, spec.pageSize, d.contextLen),
    };
  };
  return [
    ...dtypeAlternatives(pool.kvCacheDtype).map((dtype) =>
      row('kvCacheDtype', dtype, dtype === pool.kvCacheDtype, {
        ...spec,
        pool: { ...pool, kvCacheDtype: dtype },
      }),
    ),
    ...tpAlternatives(spec).map((tp) =>
      row('tpSize', String(tp), tp === spec.tpSize, {
        ...spec,
        tpSize: tp,
        pool: { ...pool, weightsGiB: (pool.weightsGiB * spec.tpSize) / tp },
      }),
    ),
    ...fractionAlternatives(pool.memFractionStatic).map((f) =>
      row('memFractionStatic', String(f), f === pool.memFractionStatic, {
        ...spec,
        pool: { ...pool, memFractionStatic: f },
      }),
    ),
  ];
}

/** The sensitivity rows of both pools, prefill first. */
export function sensitivity(d: Deployment): SensitivityRow[] {
  return roles.flatMap((role) => roleSensitivity(d, role));
}
