/**
 * Words and small tables shared by the terminal output and the report's deployment section:
 * how a pool's capacity was computed, and each band, finding and sensitivity row as cells.
 */
import type { NodeRole } from '../../machines/scenario.ts';
import { count } from '../numbers.ts';
import { type AbstractMapping, bandText } from './abstractScenario.ts';
import type { Band } from './bands.ts';
import { bytesPerGiB } from './capacity.ts';
import { dtypeBytes } from './deployment.ts';
import type { LintReport } from './lint.ts';
import { headroomOf, headroomText } from './sensitivity.ts';

const gib = (n: number) => `${Number(n.toFixed(4))}`;

/**
 * The arithmetic behind one pool's capacity, one step per line, in the deployment's numbers:
 * the cell size, the rest memory, the profiled tokens, the cap and the page alignment.
 */
export function capacityDerivation(report: LintReport, role: NodeRole): string[] {
  const spec = report.deployment[role];
  const cap = report.pools[role];
  const pool = spec.pool;
  const page = `page-aligned (page size ${spec.pageSize}): ${count(cap.tokens)} tokens`;
  if (pool.kind === 'given') {
    return [`maxTotalTokens ${count(pool.maxTotalTokens)} given directly; ${page}`];
  }
  const bytes = dtypeBytes[pool.kvCacheDtype];
  const m = pool.model;
  const cell =
    m.kind === 'mla'
      ? `cell = (kvLoraRank ${m.kvLoraRank} + qkRopeHeadDim ${m.qkRopeHeadDim}) × ${m.layers} layers × ${bytes} byte(s) (${pool.kvCacheDtype}) = ${count(cap.cellBytes ?? 0)} bytes per token (MLA)`
      : `cell = ${cap.kvHeadsPerRank} KV head(s) per rank (${m.kvHeads} heads, attention TP ${spec.tpSize / spec.dpSize}) × (headDim ${m.headDim} + vHeadDim ${m.vHeadDim}) × ${m.layers} layers × ${bytes} byte(s) (${pool.kvCacheDtype}) = ${count(cap.cellBytes ?? 0)} bytes per token`;
  const restGiB = (cap.restBytes ?? 0) / bytesPerGiB;
  const rest = `rest = ${gib(pool.gpuMemoryGiB)} − ${gib(pool.weightsGiB)} (weights) − ${gib(pool.otherGiB)} (other) − ${gib(pool.gpuMemoryGiB)} × (1 − ${pool.memFractionStatic}) = ${gib(restGiB)} GiB`;
  const profiled = `tokens = floor(${gib(restGiB)} × 2^30 / ${count(cap.cellBytes ?? 0)}) = ${count(cap.profiledTokens ?? 0)}`;
  const capped =
    cap.cappedAt === undefined ? [] : [`capped by maxTotalTokens at ${count(cap.cappedAt)}`];
  return [cell, rest, profiled, ...capped, page];
}

/** The pools as table rows: role, source, tokens, page size, maxReqInputLen, headroom. */
export function poolRows(report: LintReport): string[][] {
  const { contextLen } = report.deployment;
  return (['prefill', 'decode'] as const).map((role) => {
    const cap = report.pools[role];
    return [
      role,
      cap.source === 'given' ? 'given (maxTotalTokens)' : 'computed',
      count(cap.tokens),
      String(cap.pageSize),
      count(report.limits[role]),
      headroomText[headroomOf(cap.tokens, cap.pageSize, contextLen)],
    ];
  });
}

/** Header of `poolRows`. */
export const poolHeader = [
  'pool',
  'source',
  'tokens',
  'page',
  'maxReqInputLen',
  'against the window',
];

/** The prompt-length bands as rows: lengths, how many, who rejects them. */
export function bandRows(report: LintReport): string[][] {
  return report.bands.map((b) => [
    b.from === b.to ? count(b.from) : `${count(b.from)} to ${count(b.to)}`,
    count(b.lengths),
    bandText[b.kind],
  ]);
}

/** Header of `bandRows`. */
export const bandHeader = ['prompt lengths', 'how many', 'schedulers'];

/** The sensitivity table as rows. */
export function sensitivityRows(report: LintReport): string[][] {
  return report.sensitivity.map((r) => [
    r.role,
    r.parameter,
    `${r.value}${r.current ? ' (deployed)' : ''}`,
    count(r.tokens),
    r.headroom === 'noRoom' ? '—' : count(r.maxReqInputLen),
    headroomText[r.headroom],
  ]);
}

/** Header of `sensitivityRows`. */
export const sensitivityHeader = [
  'pool',
  'setting',
  'value',
  'tokens',
  'maxReqInputLen',
  'against the window',
];

/** `2 errors, 1 warning, 0 info`. */
export function findingCounts(report: LintReport): string {
  const n = (s: string) => report.findings.filter((f) => f.severity === s).length;
  const e = n('error');
  const w = n('warning');
  return `${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'}, ${n('info')} info`;
}

/** The real-to-abstract mapping as rows: what, real value, abstract value. */
export function mappingRows(m: AbstractMapping): string[][] {
  const span = (b: Band) =>
    b.from === b.to ? count(b.from) : `${count(b.from)} to ${count(b.to)}`;
  const pool = (role: NodeRole) => {
    const p = m.pools[role];
    return [
      `${role} pool (maxReqInputLen)`,
      `${count(p.real)} (${count(p.realLimit)})`,
      `${p.abstract} (${p.abstractLimit})`,
    ];
  };
  const runs = m.runs.map((r) => {
    const b = r.scenario.requests.find((q) => q.id === 'b1');
    return [
      r.scenario.name,
      `b1’s prompt: ${span(r.real)} (${bandText[r.kind]})`,
      `b1’s prompt: ${b?.promptLen ?? ''}`,
    ];
  });
  const first = m.runs[0];
  const a = first
    ? [['every scenario', `a1’s prompt: ${span(first.realOfA)}`, 'a1’s prompt: 1']]
    : [];
  return [
    ['context window', count(m.contextLen.real), String(m.contextLen.abstract)],
    ['reserve', String(m.reserve.real), String(m.reserve.abstract)],
    [
      'page size',
      `${m.pageSize.prefill} (prefill), ${m.pageSize.decode} (decode)`,
      `${m.pageSize.abstract}: capacities are already whole pages`,
    ],
    pool('prefill'),
    pool('decode'),
    ...a,
    ...runs,
    [
      'output tokens per request',
      'any with len + max_new_tokens < the window',
      '2: the least a leak needs',
    ],
  ];
}

/** Header of `mappingRows`. */
export const mappingHeader = ['', 'real', 'abstract'];
