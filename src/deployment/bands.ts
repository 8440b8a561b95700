/**
 * Which prompt lengths reach which path. The tokenizer accepts `1 ≤ len ≤ contextLen − 1` (a
 * request that sets `max_new_tokens` also needs `len + max_new_tokens < contextLen`, so for it the
 * bands end lower; a request without it, as in the incident, meets only the first rule); each
 * side's scheduler rejects `len ≥ maxReqInputLen = min(contextLen − 1, pool − 1) − reserve`. The
 * accepted lengths therefore fall into at most four bands: accepted by both schedulers, rejected
 * by prefill only, rejected by decode only, rejected by both. The last is never empty: even with
 * pools far larger than the window, `maxReqInputLen ≤ contextLen − 1 − reserve`.
 */
import { type NodeRole, schedulerLimit } from '../../machines/scenario.ts';

/** Which schedulers reject the prompt lengths of a band. */
export type BandKind = 'accepted' | 'prefillRejects' | 'decodeRejects' | 'bothReject';

/** Band kinds in the order of increasing prompt length for a given pair of limits. */
export const bandKinds: readonly BandKind[] = [
  'accepted',
  'prefillRejects',
  'decodeRejects',
  'bothReject',
];

/** A non-empty, inclusive range of prompt lengths that the tokenizer accepts. */
export interface Band {
  readonly kind: BandKind;
  readonly from: number;
  readonly to: number;
  /** `to − from + 1`. */
  readonly lengths: number;
}

/** Each side's scheduler limit (`maxReqInputLen`). */
export type Limits = Readonly<Record<NodeRole, number>>;

/** Each side's `maxReqInputLen` from its pool capacity. */
export function limitsOf(
  contextLen: number,
  reserve: number,
  pools: Readonly<Record<NodeRole, number>>,
): Limits {
  return {
    prefill: schedulerLimit(contextLen, pools.prefill, reserve),
    decode: schedulerLimit(contextLen, pools.decode, reserve),
  };
}

/**
 * The non-empty bands of prompt lengths `1 … contextLen − 1`, in increasing length. A side
 * accepts `len` iff `len < limit`.
 */
export function promptBands(contextLen: number, limits: Limits): Band[] {
  const lo = Math.min(limits.prefill, limits.decode);
  const hi = Math.max(limits.prefill, limits.decode);
  const last = contextLen - 1;
  const split: BandKind = limits.prefill < limits.decode ? 'prefillRejects' : 'decodeRejects';
  const ranges: [BandKind, number, number][] = [
    ['accepted', 1, Math.min(lo - 1, last)],
    [split, Math.max(1, lo), Math.min(hi - 1, last)],
    ['bothReject', Math.max(1, hi), last],
  ];
  return ranges
    .filter(([, from, to]) => from <= to)
    .map(([kind, from, to]) => ({ kind, from, to, lengths: to - from + 1 }));
}

/** Whether `role`'s scheduler rejects the prompts of a band of `kind`. */
export function rejectsIn(role: NodeRole, kind: BandKind): boolean {
  return (
    kind === 'bothReject' ||
    (role === 'prefill' ? kind === 'prefillRejects' : kind === 'decodeRejects')
  );
}
