/**
 * What a reviewer should know about a deployment, each finding with a severity and a message in
 * the deployment's own numbers. The severity of a reject path follows the deployed variant's
 * switches, as the model checker's verdicts on the built-in scenarios show (README, "Verdicts"):
 *
 * | band (who rejects)  | no barrier (incident-2026) | #38704 only | #36988 only | #38935 (fixed) |
 * | ------------------- | -------------------------- | ----------- | ----------- | -------------- |
 * | prefill only        | leak: error                | handed off  | spent       | clean          |
 * | decode only         | handed off                 | handed off  | handed off  | clean          |
 * | both                | handed off                 | handed off  | spent       | clean          |
 *
 * "Handed off" (warning): a rejected prompt still gets a placeholder, KV and a handoff, but no
 * foreign KV is read. "Spent" (warning): nothing is handed off and the client gets an error, but
 * the rejected request held a room, pages or a forward first (`rejectedHoldsNothing`). "Clean" (info): the client gets an error and nothing is handed off; when
 * only decode rejects under #38935, decode retires the request at admission and prefill, which
 * admitted it, fails it on its bootstrap timeout. `kvcheck check --deployment` model-checks the
 * same bands, and
 * `test/deployment/agreement.test.ts` checks that both agree.
 */
import type { NodeRole } from '../../machines/scenario.ts';
import type { Switches } from '../../machines/variants.ts';
import { count } from '../numbers.ts';
import { type Band, type BandKind, type Limits, rejectsIn } from './bands.ts';
import type { PoolCapacity } from './capacity.ts';
import type { Deployment } from './deployment.ts';
import { headroomText, type SensitivityRow } from './sensitivity.ts';

/** How much a finding matters: an error fails `kvcheck lint` (exit 1). */
export type Severity = 'error' | 'warning' | 'info';

/** Severities, most severe first. */
export const severities: readonly Severity[] = ['error', 'warning', 'info'];

/** The kinds of finding. */
export type FindingId = 'contextExceedsPool' | 'limitsDisagree' | 'rejectBand' | 'headroomBelow2x';

/** One finding: what, how bad, where, and the prompt lengths it concerns. */
export interface Finding {
  readonly id: FindingId;
  readonly severity: Severity;
  /** The pool it is about, when it is about one. */
  readonly role?: NodeRole;
  /** Prompt lengths affected, inclusive. */
  readonly band?: { readonly from: number; readonly to: number };
  readonly message: string;
}

/** What the engine does with a prompt in a reject band. */
export type RejectEffect = 'leak' | 'handedOff' | 'spent' | 'clean' | 'unanalysed';

/** The switches this module's table reads; any other switch that is on makes a band unanalysed. */
const analysedSwitches: readonly string[] = [
  'admissionRetire',
  'retireAbortedResult',
  'coverageCheck',
  'routerPolicy',
];

/** Switches of `s` that are on and that the table does not cover (fault switches). */
export function unanalysedSwitches(s: Switches): string[] {
  return Object.entries(s)
    .filter(([k, v]) => !analysedSwitches.includes(k) && v === true)
    .map(([k]) => k);
}

/** The effect of a reject band under a variant's switches (the table in this module's header). */
export function rejectEffect(s: Switches, kind: Exclude<BandKind, 'accepted'>): RejectEffect {
  if (unanalysedSwitches(s).length > 0) return 'unanalysed';
  if (s.admissionRetire) return 'clean';
  if (kind === 'decodeRejects') return 'handedOff';
  if (kind === 'prefillRejects') {
    if (s.retireAbortedResult) return 'spent';
    return s.coverageCheck ? 'handedOff' : 'leak';
  }
  return s.retireAbortedResult ? 'spent' : 'handedOff';
}

const effectLabel: Readonly<Record<RejectEffect, string>> = {
  leak: 'a cross-tenant leak (see limitsDisagree)',
  handedOff: 'handed off as a placeholder, though no foreign KV is read',
  spent: 'a client error, after the placeholder spent a sender, prefill compute and pages',
  unanalysed: 'not analysed here (run kvcheck check --deployment)',
  clean: 'a clean client error',
};

const effectSeverity: Readonly<Record<RejectEffect, Severity>> = {
  leak: 'error',
  handedOff: 'warning',
  spent: 'warning',
  unanalysed: 'warning',
  clean: 'info',
};

function effectText(
  effect: RejectEffect,
  kind: Exclude<BandKind, 'accepted'>,
  s: Switches,
): string {
  if (effect === 'unanalysed') {
    return `the variant turns on switches this lint does not analyse (${unanalysedSwitches(s).join(', ')}); \`kvcheck check --deployment\` gives the verdict`;
  }
  if (effect === 'clean' && kind === 'decodeRejects') {
    return 'decode retires the request at admission (#38935) and answers 400; prefill, which accepts it, waits for a decode bootstrap that never comes until its bootstrap timeout fails the room (500): the client gets an error and nothing is handed off';
  }
  if (effect === 'clean') {
    return s.admissionRetire
      ? 'the request is retired at admission (#38935): the client gets an error and nothing is handed off'
      : 'the placeholder’s prefill result is retired, never sent (#36988): the client gets an error and no KV is handed off';
  }
  if (effect === 'spent') {
    return 'the placeholder’s prefill result is retired, never sent (#36988): the client gets an error and no KV is handed off, but the rejected request still got a sender, a prefill forward and pages, and decode may have preallocated for it; admission retire (#38935) spends none of that';
  }
  if (effect === 'leak') {
    return 'prefill swaps the prompt for a one-token placeholder and hands it off; decode, which accepts the full length, preallocates pages for it, commits once one page of KV arrives and attends over pages that may still hold another tenant’s KV: a cross-tenant leak';
  }
  if (kind === 'prefillRejects') {
    return 'the placeholder’s KV still travels to decode, which refuses it on arrival (#38704): no foreign KV is read, but a rejected prompt is handed off';
  }
  if (kind === 'decodeRejects') {
    return 'decode turns the prompt into a one-token placeholder while prefill computes all of it; the rejected request is still handed off';
  }
  return 'both sides turn the prompt into a one-token placeholder and still hand it off; they agree on its length, so no foreign KV is read, but a rejected prompt is handed off';
}

const range = (b: { from: number; to: number }) =>
  b.from === b.to
    ? `${count(b.from)} token${b.from === 1 ? '' : 's'}`
    : `${count(b.from)} to ${count(b.to)} tokens`;
const lengths = (b: Band) => `${count(b.lengths)} length${b.lengths === 1 ? '' : 's'}`;

/** Everything the findings are computed from. */
export interface FindingInput {
  readonly deployment: Deployment;
  readonly switches: Switches;
  readonly pools: Readonly<Record<NodeRole, PoolCapacity>>;
  readonly limits: Limits;
  readonly bands: readonly Band[];
  readonly sensitivity: readonly SensitivityRow[];
}

function limitText(d: Deployment, pool: number, limit: number): string {
  return `maxReqInputLen = min(${count(d.contextLen - 1)}, ${count(pool - 1)}) − ${d.reserve} = ${count(limit)}`;
}

function worse(a: Severity, b: Severity): Severity {
  return severities.indexOf(a) <= severities.indexOf(b) ? a : b;
}

function contextExceedsPool(input: FindingInput, role: NodeRole): Finding[] {
  const { deployment: d, pools, limits, bands, switches } = input;
  const pool = pools[role].tokens;
  if (pool >= d.contextLen) return [];
  const from = Math.max(1, limits[role]);
  const to = d.contextLen - 1;
  const mine = bands.filter(
    (b): b is Band & { kind: Exclude<BandKind, 'accepted'> } =>
      b.kind !== 'accepted' && rejectsIn(role, b.kind),
  );
  let severity: Severity = 'warning';
  const effects = mine.map((b) => {
    const effect = rejectEffect(switches, b.kind);
    severity = worse(severity, effectSeverity[effect]);
    const who = b.kind === 'bothReject' ? 'both sides reject' : `only ${role} rejects`;
    return `${range(b)} (${who}): ${effectLabel[effect]}`;
  });
  const lengthsHit = to - from + 1;
  return [
    {
      id: 'contextExceedsPool',
      severity,
      role,
      band: { from, to },
      message: `The context window (${count(d.contextLen)} tokens) exceeds the ${role} pool (${count(pool)} tokens): prompts of ${range({ from, to })} (${count(lengthsHit)} length${lengthsHit === 1 ? '' : 's'}) pass the tokenizer (len < ${count(d.contextLen)}) but reach ${role}’s scheduler reject path (len ≥ ${limitText(d, pool, limits[role])}). Under ${d.variant}, ${effects.join('; ')}.`,
    },
  ];
}

function limitsDisagree(input: FindingInput): Finding[] {
  const { deployment: d, limits, bands, switches } = input;
  const band = bands.find((b) => b.kind === 'prefillRejects' || b.kind === 'decodeRejects');
  if (band === undefined || band.kind === 'accepted' || band.kind === 'bothReject') return [];
  const effect = rejectEffect(switches, band.kind);
  const [rejecter, accepter]: NodeRole[] =
    band.kind === 'prefillRejects' ? ['prefill', 'decode'] : ['decode', 'prefill'];
  return [
    {
      id: 'limitsDisagree',
      severity: effectSeverity[effect],
      band: { from: band.from, to: band.to },
      message: `Prefill and decode limits disagree: maxReqInputLen is ${count(limits.prefill)} on prefill and ${count(limits.decode)} on decode. Prompts of ${range(band)} (${lengths(band)}) are rejected by ${rejecter} and accepted by ${accepter}${band.kind === 'prefillRejects' ? ', the precondition of the incident’s leak' : ''}. Under ${d.variant}, ${effectText(effect, band.kind, switches)}.`,
    },
  ];
}

function rejectBand(input: FindingInput): Finding[] {
  const { deployment: d, limits, bands, switches } = input;
  const band = bands.find((b) => b.kind === 'bothReject');
  if (band === undefined) return [];
  const effect = rejectEffect(switches, 'bothReject');
  const top = d.contextLen - 1 - d.reserve;
  return [
    {
      id: 'rejectBand',
      severity: effectSeverity[effect],
      band: { from: band.from, to: band.to },
      message: `Prompts of ${range(band)} (${lengths(band)}) pass the tokenizer and are rejected by both schedulers (maxReqInputLen ${count(limits.prefill)} on prefill, ${count(limits.decode)} on decode). No pool size closes this band: maxReqInputLen is at most context − 1 − reserve = ${count(top)}. Under ${d.variant}, ${effectText(effect, 'bothReject', switches)}.`,
    },
  ];
}

function headroom(input: FindingInput, role: NodeRole): Finding[] {
  const { deployment: d, pools, sensitivity } = input;
  const pool = pools[role].tokens;
  if (pool < d.contextLen || pool >= 2 * d.contextLen) return [];
  const risky = sensitivity.filter(
    (r) =>
      r.role === role && !r.current && (r.headroom === 'belowContext' || r.headroom === 'noRoom'),
  );
  const examples = risky.map(
    (r) =>
      `${r.parameter} ${r.value} gives ${count(r.tokens)} tokens (${headroomText[r.headroom]})`,
  );
  const hint =
    examples.length > 0
      ? ` In the sensitivity table, ${examples.join('; ')}.`
      : pools[role].source === 'given'
        ? ''
        : ' No single change in the sensitivity table drops it below the window.';
  return [
    {
      id: 'headroomBelow2x',
      severity: 'warning',
      role,
      message: `The ${role} pool (${count(pool)} tokens) holds the context window (${count(d.contextLen)}) but less than twice it (${count(2 * d.contextLen)}): a new KV dtype, TP size, memory fraction, CUDA graph size or model version can shrink it below the window without notice.${hint}`,
    },
  ];
}

/** Every finding, most severe first (then in a fixed order of kinds and roles). */
export function findingsOf(input: FindingInput): Finding[] {
  const all = [
    ...contextExceedsPool(input, 'prefill'),
    ...contextExceedsPool(input, 'decode'),
    ...limitsDisagree(input),
    ...rejectBand(input),
    ...headroom(input, 'prefill'),
    ...headroom(input, 'decode'),
  ];
  return all
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) => severities.indexOf(a.f.severity) - severities.indexOf(b.f.severity) || a.i - b.i,
    )
    .map(({ f }) => f);
}
