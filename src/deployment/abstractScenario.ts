/**
 * From a deployment to scenarios small enough to explore in about a second, keeping the order
 * relations that decide verdicts (README, "Verdicts of the built-in scenarios"):
 *
 * - the context window becomes 10 tokens and the reserve 5, as in the built-in scenarios;
 * - a pool of at least twice the window becomes 20, one of at least the window 10 (limit 4 on
 *   both: `min(9, pool − 1) − 5`); a pool below the window becomes 8 (limit 2), or 9 (limit 3)
 *   when both pools are below it and this one's limit is the larger; a pool whose real limit
 *   admits no prompt at all (1 or less, e.g. a window of at most reserve + 2) becomes 7
 *   (limit 1); so the order of the two limits, and of each pool against the window, is the
 *   deployment's wherever it changes which prompts are accepted;
 * - pages become one token: real capacities are already whole pages;
 * - each non-empty band of prompt lengths (accepted by both, rejected by one side, rejected by
 *   both) gets one scenario, in which tenant A's one-token request may finish first and tenant
 *   B's prompt stands for the band. B's length is the band's largest for the first three kinds
 *   and one above the limit for "both reject", as in the built-in `incident` and `band`.
 *
 * Each request asks for 2 output tokens: the first comes from prefill, the second is decode's
 * first step, the least a leak needs. With the incident's pools this gives exactly the built-in
 * `incident` scenario for the band that leaks.
 */
import type { NodeRole, Scenario } from '../../machines/scenario.ts';
import { schedulerLimit } from '../../machines/scenario.ts';
import { type Band, type BandKind, limitsOf, promptBands } from './bands.ts';
import { roles } from './deployment.ts';
import type { LintReport } from './lint.ts';

/** The abstract context window and reserve. */
export const abstractContext = { contextLen: 10, reserve: 5 } as const;

/** One pool, real and abstract. */
export interface PoolMapping {
  readonly real: number;
  readonly realLimit: number;
  readonly abstract: number;
  readonly abstractLimit: number;
}

/** One abstract scenario and the real prompt lengths its requests stand for. */
export interface BandRun {
  readonly kind: BandKind;
  /** The real band B's prompt stands for. */
  readonly real: Band;
  /** The abstract band B's prompt lies in. */
  readonly abstract: Band;
  /** The real band A's one-token prompt stands for. */
  readonly realOfA: Band;
  readonly scenario: Scenario;
}

/** How a deployment became abstract scenarios. */
export interface AbstractMapping {
  readonly contextLen: { readonly real: number; readonly abstract: number };
  readonly reserve: { readonly real: number; readonly abstract: number };
  readonly pageSize: { readonly prefill: number; readonly decode: number; readonly abstract: 1 };
  readonly pools: Readonly<Record<NodeRole, PoolMapping>>;
  readonly runs: readonly BandRun[];
}

function abstractPools(report: LintReport): Record<NodeRole, number> {
  const { contextLen } = report.deployment;
  const tokens = (r: NodeRole) => report.pools[r].tokens;
  const below = roles.filter((r) => tokens(r) < contextLen);
  const limit = (r: NodeRole) => report.limits[r];
  const pick = (r: NodeRole): number => {
    // A limit of 1 or less admits no prompt at all, however the pool compares to the window.
    if (limit(r) <= 1) return 7;
    if (tokens(r) >= 2 * contextLen) return 20;
    if (tokens(r) >= contextLen) return 10;
    const other = below.find((o) => o !== r && limit(o) > 1);
    return other !== undefined && limit(r) > limit(other) ? 9 : 8;
  };
  return { prefill: pick('prefill'), decode: pick('decode') };
}

/** B's abstract prompt length for a band (see the module header). */
function representative(band: Band): number {
  return band.kind === 'bothReject' ? Math.min(band.from + 1, band.to) : band.to;
}

/**
 * The abstract scenarios of a linted deployment, one per non-empty band of prompt lengths, and
 * the mapping from real to abstract numbers. Throws if the abstract bands do not match the real
 * ones kind for kind (a bug in the mapping, not bad input).
 */
export function abstractScenarios(report: LintReport): AbstractMapping {
  const d = report.deployment;
  const { contextLen, reserve } = abstractContext;
  const pools = abstractPools(report);
  const limits = limitsOf(contextLen, reserve, pools);
  const bands = promptBands(contextLen, limits);
  const kinds = (bs: readonly Band[]) => bs.map((b) => b.kind).join();
  if (kinds(bands) !== kinds(report.bands)) {
    throw new Error(`abstract bands ${kinds(bands)} do not match ${kinds(report.bands)}`);
  }
  const bandOf = (bs: readonly Band[], len: number) => bs.find((b) => b.from <= len && len <= b.to);
  const runs = bands.map((abstract, i): BandRun => {
    const real = report.bands[i] as Band;
    const promptLen = representative(abstract);
    const ofA = bands.indexOf(bandOf(bands, 1) as Band);
    const witnesses =
      abstract.kind === 'accepted'
        ? ['someRequestDecoded']
        : ['someRequestRejected', 'someRequestDecoded'];
    const scenario: Scenario = {
      name: `${d.name}.${abstract.kind}`,
      description: `Deployment ${d.name}: B’s prompt of ${promptLen} stands for the real prompts of ${real.from} to ${real.to} tokens (${bandText[abstract.kind]}).`,
      requests: [
        { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
        { id: 'b1', tenant: 'B', promptLen, outputLen: 2 },
      ],
      pageSize: 1,
      prefillPoolTokens: pools.prefill,
      decodePoolTokens: pools.decode,
      contextLen,
      reserve,
      transferFaults: false,
      prefillChunks: 1,
      clientAborts: false,
      witnesses,
    };
    return { kind: abstract.kind, real, abstract, realOfA: report.bands[ofA] as Band, scenario };
  });
  const pool = (r: NodeRole): PoolMapping => ({
    real: report.pools[r].tokens,
    realLimit: report.limits[r],
    abstract: pools[r],
    abstractLimit: schedulerLimit(contextLen, pools[r], reserve),
  });
  return {
    contextLen: { real: d.contextLen, abstract: contextLen },
    reserve: { real: d.reserve, abstract: reserve },
    pageSize: { prefill: d.prefill.pageSize, decode: d.decode.pageSize, abstract: 1 },
    pools: { prefill: pool('prefill'), decode: pool('decode') },
    runs,
  };
}

/** Each band kind in words. */
export const bandText: Readonly<Record<BandKind, string>> = {
  accepted: 'accepted by both schedulers',
  prefillRejects: 'rejected by prefill only',
  decodeRejects: 'rejected by decode only',
  bothReject: 'rejected by both schedulers',
};
