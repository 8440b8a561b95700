/**
 * The manifest: the expected outcome of every scenario × variant kvcheck ships, in one format,
 * as TLA+ Examples' manifest.json records each model's: the verdict, the properties violated, and
 * the size of the state space (distinct states, transitions, depth), with the search mode where
 * a row was not explored breadth first without symmetry. It holds three groups of rows: the
 * built-in scenarios under the built-in variants (`kvcheck all` compares against them), the bug
 * catalogue's scenarios under each fault's variant and under `fixed` (`kvcheck catalogue` reads
 * which properties catch each fault), and `incident-large`'s exhaustive run, measured once and
 * recorded. The tests re-run every row but the measured one: a change to a count is a change to
 * the model, made on purpose.
 */

/** A row measured once and recorded rather than re-run: its run is too long for the tests. */
export interface Measurement {
  /** The command that produced the row. */
  readonly command: string;
  /** The day of the run, `YYYY-MM-DD`. */
  readonly date: string;
  /** Wall time of the run, in seconds. */
  readonly seconds: number;
  /** Where it ran: cores, heap, and anything else that bears on the time. */
  readonly host: string;
  /** The estimated probability that two stored states shared a fingerprint (a pass holds up to it). */
  readonly collisionProbability: number;
  /**
   * The commit whose model the run explored. A model change after it makes the row a record of
   * that model, not an expectation of the current one, until the row is measured again.
   */
  readonly model: string;
}

/** What one scenario × variant must produce when explored to the end. */
export interface ManifestRow {
  readonly scenario: string;
  readonly variant: string;
  /** The verdict of an exhaustive run: no row is bounded. */
  readonly status: 'ok' | 'violation';
  /** Every violated property, in registry order. */
  readonly violated: readonly string[];
  /**
   * On a catalogue fault's row: the properties expected to catch the fault. It is caught when
   * one of them is violated; the first violated, in this order, is the one the catalogue reports.
   */
  readonly caughtByOneOf?: readonly string[];
  /** Distinct states (representatives, under symmetry reduction). */
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
  /** Under symmetry reduction: the states of the unreduced space the representatives stand for. */
  readonly unreducedStates?: number;
  /** Symmetry reduction (`--symmetry on`). @default false */
  readonly symmetry?: boolean;
  /** The search order (`--search`); under `depth`, `depth` is the search tree's. @default 'breadth' */
  readonly search?: 'breadth' | 'depth';
  /**
   * Partial-order reduction (`--por on`): the counts are of the reduced space, which keeps
   * every verdict and witness of the unreduced one. @default false
   */
  readonly por?: boolean;
  /** Present when the row was measured once and is not re-run by the tests. */
  readonly measured?: Measurement;
}

const leak = [
  'rejectedNeverHandedOff',
  'rejectedHoldsNothing',
  'noCrossTenantRead',
  'coverageBeforeCommit',
  'errorReachesClient',
];

/**
 * Every built-in scenario under every built-in variant: what `kvcheck all` compares against.
 *
 * `rejectedHoldsNothing` (#38935) moved verdicts, not counts: it joins the violated lists of
 * incident × incident-2026 (and B1), band × incident-2026 and coverage-only on both scenarios,
 * and turns retire-only on incident and band from ok to violation, because #36988 alone still
 * gives the placeholder a bootstrap room, prefill pages and a forward before it retires the
 * result. No state, transition or depth count changed.
 *
 * A decode placeholder's pending abort lands at commit, with no decode step (SGLang's
 * `process_batch_result_prebuilt` runs `check_finished()` before any forward). That removed the
 * placeholder's `running` state: band × incident-2026 and band × coverage-only, where B's prompt
 * becomes a placeholder on both sides, went from 1,328 states, 2,596 transitions and depth 25 to
 * 1,060, 2,023 and 24. Their verdicts did not change; no other row moved.
 *
 * Decode preallocates without waiting for prefill's sender (its receiver needs only the prefill
 * server's bootstrap info), and its waiting timeout also ends a preallocated request whose KV can
 * no longer come. DECODE_PREALLOC is then enabled before SENDER_CREATED, and a request prefill
 * retired at admission can hold decode pages until that timeout. Every row grew and no verdict
 * moved: 2,115 → 2,195 states (pool-2x, happy and incident × incident-2026), incident × fixed
 * 126 → 319 (b1 now preallocates on decode and times out), incident × retire-only 747 → 805,
 * coverage-only 1,098 → 1,165, band 1,060 → 1,127, 108 → 114 and 717 → 775.
 *
 * Decode's reservation budget and retraction (SGLang's `pop_preallocated` / `_allocatable_tokens`,
 * `retract_decode` and `resume_retracted_reqs`) moved no row above: no pool in these scenarios
 * runs dry under a running batch, and the budget never refuses a prealloc the pool had room for.
 * They are what `tight-decode` exercises: without them its two requests wait on each other for a
 * decode page, and the model reported `noDeadlock`, `everyRequestAnswered` and
 * `noLeakAtQuiescence` (3,624 states); with them decode retracts one request to host, the other
 * finishes, and the first resumes (5,242 states, every variant ok: nothing is rejected).
 */
export const builtinRows: readonly ManifestRow[] = [
  {
    scenario: 'incident',
    variant: 'incident-2026',
    status: 'violation',
    violated: leak,
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'incident',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 319,
    transitions: 668,
    depth: 19,
  },
  {
    scenario: 'incident',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 319,
    transitions: 668,
    depth: 19,
  },
  {
    scenario: 'incident',
    variant: 'retire-only',
    status: 'violation',
    violated: ['rejectedHoldsNothing'],
    states: 805,
    transitions: 1473,
    depth: 22,
  },
  {
    scenario: 'incident',
    variant: 'coverage-only',
    status: 'violation',
    violated: ['rejectedNeverHandedOff', 'rejectedHoldsNothing'],
    states: 1165,
    transitions: 2241,
    depth: 24,
  },
  {
    scenario: 'pool-2x',
    variant: 'incident-2026',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'coverage-only',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'band',
    variant: 'incident-2026',
    status: 'violation',
    violated: ['rejectedNeverHandedOff', 'rejectedHoldsNothing'],
    states: 1127,
    transitions: 2195,
    depth: 24,
  },
  {
    scenario: 'band',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 114,
    transitions: 252,
    depth: 17,
  },
  {
    scenario: 'band',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 114,
    transitions: 252,
    depth: 17,
  },
  {
    scenario: 'band',
    variant: 'retire-only',
    status: 'violation',
    violated: ['rejectedHoldsNothing'],
    states: 775,
    transitions: 1440,
    depth: 22,
  },
  {
    scenario: 'band',
    variant: 'coverage-only',
    status: 'violation',
    violated: ['rejectedNeverHandedOff', 'rejectedHoldsNothing'],
    states: 1127,
    transitions: 2195,
    depth: 24,
  },
  {
    scenario: 'happy',
    variant: 'incident-2026',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'coverage-only',
    status: 'ok',
    violated: [],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'tight-decode',
    variant: 'incident-2026',
    status: 'ok',
    violated: [],
    states: 5242,
    transitions: 9923,
    depth: 33,
  },
  {
    scenario: 'tight-decode',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 5242,
    transitions: 9923,
    depth: 33,
  },
  {
    scenario: 'tight-decode',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 5242,
    transitions: 9923,
    depth: 33,
  },
  {
    scenario: 'tight-decode',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 5242,
    transitions: 9923,
    depth: 33,
  },
  {
    scenario: 'tight-decode',
    variant: 'coverage-only',
    status: 'ok',
    violated: [],
    states: 5242,
    transitions: 9923,
    depth: 33,
  },
];

/**
 * The bug catalogue's runs (`src/catalogue`): each fault's variant on its scenario, a violation
 * caught by one of `caughtByOneOf`, and `fixed` on the same scenario, which passes. B1's scenario
 * is the built-in `incident`, whose `fixed` row is among `builtinRows`.
 *
 * Since decode preallocates without waiting for prefill's sender, every row grew by a few states
 * (B4's by 434, the most), and B3 also violates `noLeakAtQuiescence`: without a waiting timeout,
 * decode holds the pages it preallocated for a request prefill retired, forever.
 *
 * Failed overrides Success (`update_status`): an abort after Success fails the room for the side
 * that has not consumed the Success yet. Only the scenarios with client aborts moved, and no
 * verdict: late-write 8,517 → 12,059 states under B4 and 7,990 → 11,420 under `fixed`,
 * aux-slot-reuse 2,182 → 2,780 and 2,147 → 2,733, late-abort 38 → 43 and 39 → 44.
 *
 * B9 (shared bootstrap rooms) is new: under its fault the two requests of one room share decode's
 * status entry and prefill's `transfer_infos`, so one's KV lands in the other's pages (read as
 * another tenant's, and written into pages its sender did not hold) and one commits on the
 * other's Success. Under `fixed` the router refuses the second request while the first is in
 * flight (#40185), and it runs once the first is answered. No other row moved.
 *
 * B10 and B11 are new, on pull-mode transfer (vLLM's NIXL connector, `pullTransferRegion.ts`):
 * under B10 a fixed timeout frees a finished request's prefill pages before decode's READ, and
 * the READ copies the KV another tenant's prefill wrote there; under B11 decode frees an aborted
 * request's blocks while its READ is in flight, and the READ lands in another tenant's. Adding
 * pull mode moved no push-mode row.
 */
export const catalogueRows: readonly ManifestRow[] = [
  {
    scenario: 'incident',
    variant: 'b1-placeholder-handoff',
    status: 'violation',
    violated: leak,
    caughtByOneOf: ['rejectedNeverHandedOff', 'coverageBeforeCommit', 'noCrossTenantRead'],
    states: 2195,
    transitions: 4244,
    depth: 26,
  },
  {
    scenario: 'prefill-error',
    variant: 'b2-success-overwrites-abort',
    status: 'violation',
    violated: ['errorReachesClient'],
    caughtByOneOf: ['errorReachesClient'],
    states: 29,
    transitions: 37,
    depth: 14,
  },
  {
    scenario: 'prefill-error',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 24,
    transitions: 29,
    depth: 13,
  },
  {
    scenario: 'prefill-reject',
    variant: 'b3-router-join-hang',
    status: 'violation',
    violated: ['noDeadlock', 'everyRequestAnswered', 'noLeakAtQuiescence'],
    caughtByOneOf: ['everyRequestAnswered', 'noDeadlock'],
    states: 7,
    transitions: 8,
    depth: 4,
  },
  {
    scenario: 'prefill-reject',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 11,
    transitions: 12,
    depth: 6,
  },
  {
    scenario: 'late-write',
    variant: 'b4-release-before-drain',
    status: 'violation',
    violated: ['noCrossTenantRead', 'coverageBeforeCommit', 'noWriteAfterFree'],
    caughtByOneOf: ['noWriteAfterFree', 'noCrossTenantRead'],
    states: 12059,
    transitions: 21942,
    depth: 25,
  },
  {
    scenario: 'late-write',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 11420,
    transitions: 20953,
    depth: 25,
  },
  {
    scenario: 'aux-slot-reuse',
    variant: 'b5-aux-slot-reuse',
    status: 'violation',
    violated: ['auxSlotIntegrity'],
    caughtByOneOf: ['auxSlotIntegrity'],
    states: 2780,
    transitions: 4859,
    depth: 25,
  },
  {
    scenario: 'aux-slot-reuse',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 2733,
    transitions: 4773,
    depth: 25,
  },
  {
    scenario: 'prefill-error',
    variant: 'b6-double-release',
    status: 'violation',
    violated: [
      'exclusivePageOwnership',
      'freedExactlyOnce',
      'poolAccounting',
      'noLeakAtQuiescence',
    ],
    caughtByOneOf: ['freedExactlyOnce'],
    states: 24,
    transitions: 29,
    depth: 13,
  },
  {
    scenario: 'late-abort',
    variant: 'b7-late-result-leak',
    status: 'violation',
    violated: ['noLeakAtQuiescence'],
    // engine-notes also names SingleTerminalResponse; the model never streams a second reply, so
    // only the leak can show.
    caughtByOneOf: ['noLeakAtQuiescence'],
    states: 43,
    transitions: 52,
    depth: 13,
  },
  {
    scenario: 'late-abort',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 44,
    transitions: 53,
    depth: 13,
  },
  {
    scenario: 'shared-prefix',
    variant: 'b8-salt-ignored',
    status: 'violation',
    violated: ['noCrossTenantRead', 'prefixSharingRespectsSalt'],
    caughtByOneOf: ['prefixSharingRespectsSalt', 'noCrossTenantRead'],
    states: 1399,
    transitions: 2780,
    depth: 25,
  },
  {
    scenario: 'shared-prefix',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 1399,
    transitions: 2780,
    depth: 25,
  },
  {
    scenario: 'room-collision',
    variant: 'b9-duplicate-room',
    status: 'violation',
    violated: [
      'noCrossTenantRead',
      'coverageBeforeCommit',
      'noWriteAfterFree',
      'statusPerIncarnation',
    ],
    caughtByOneOf: ['statusPerIncarnation', 'noCrossTenantRead'],
    states: 71877,
    transitions: 132664,
    depth: 26,
  },
  {
    scenario: 'room-collision',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 143,
    transitions: 214,
    depth: 26,
  },
  {
    scenario: 'pull-lease',
    variant: 'b10-lease-expires-under-read',
    status: 'violation',
    violated: ['noCrossTenantRead', 'noReadAfterFree'],
    caughtByOneOf: ['noCrossTenantRead', 'noReadAfterFree'],
    states: 4668,
    transitions: 8953,
    depth: 25,
  },
  {
    scenario: 'pull-lease',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 1430,
    transitions: 2964,
    depth: 25,
  },
  {
    scenario: 'pull-abort',
    variant: 'b11-aborted-load-freed',
    status: 'violation',
    violated: ['noCrossTenantRead', 'coverageBeforeCommit', 'noWriteAfterFree'],
    caughtByOneOf: ['noWriteAfterFree', 'noCrossTenantRead'],
    states: 5505,
    transitions: 11745,
    depth: 25,
  },
  {
    scenario: 'pull-abort',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 5288,
    transitions: 11384,
    depth: 25,
  },
];

/**
 * Runs measured once and recorded, not re-run by the tests: `incident-large` under `fixed`,
 * exhaustive, breadth first with symmetry on two worker threads (docs/performance.md, "The
 * scale scenario `incident-large`").
 */
export const measuredRows: readonly ManifestRow[] = [
  {
    scenario: 'incident-large',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 111_801_096,
    unreducedStates: 223_588_019,
    transitions: 382_741_498,
    depth: 44,
    symmetry: true,
    // The run the state-vector issue asks to record: `--workers 2`, breadth first, so `depth`
    // is the longest shortest path. It replaces the depth-first run with partial-order
    // reduction of the same day on the model of 810d72d (101,686,469 representatives standing
    // for 203,361,669 states, 346,744,203 transitions, search-tree depth 45, 3,271 s), whose
    // counts are of the reduced space: the model is the same, and the space without reduction
    // is the one every other way of running the check explores (one thread depth first found
    // these counts too, depth 45 being its search tree's). A breadth-first run of the whole
    // scenario fits in memory since the frontier is packed (a8e17d9). The same command on
    // a8e17d9 gave the same counts in 1,716 s with a peak RSS of 8.0 GB, and e9b8ad4 (bundled
    // workers, hashes carried with the chunks) in 1,637 s with 7.6 GB, and 4f6d929 (leaner
    // configuration views, events put together by region) in 1,583 s with 7.1 GB, and c812483
    // (selection by the parts' plans, leaner state records) in 1,268 s with 6.6 GB, and 7b92a02
    // (the properties' cheaper views and region readers) in 1,186 s with 6.6 GB, and 6ea1aee
    // (steps that allocate no arrays) in 1,050 s with 6.6 GB; this run is on 83a5ea8 (one guard
    // arguments object a selection), same model.
    measured: {
      command: 'kvcheck check --scenario incident-large --variant fixed --symmetry on --workers 2',
      date: '2026-12-08',
      seconds: 1014,
      host: 'a 2-core machine with 24 GiB, otherwise idle, both cores to the search (193% CPU, 1,966 s of CPU); under --max-seconds 4500, which it did not reach; node --max-old-space-size=16000, peak heap 43 MiB, peak RSS 6.7 GB (the frontier, up to 11.6 million packed states, and the two workers included), 10.5 bytes per stored state in the table',
      collisionProbability: 3.4e-4,
      model: '83a5ea8',
    },
  },
];

/** Every row: the built-in runs, the catalogue's, then the measured ones. */
export const manifest: readonly ManifestRow[] = [...builtinRows, ...catalogueRows, ...measuredRows];

/**
 * The row of one scenario × variant in `rows` (by default the manifest, which has at most one
 * per pair), or undefined.
 */
export function expectationFor(
  scenario: string,
  variant: string,
  rows: readonly ManifestRow[] = manifest,
): ManifestRow | undefined {
  return rows.find((e) => e.scenario === scenario && e.variant === variant);
}

/**
 * Whether `kvcheck paths` finds a statechart path from a rejected state to a decoding state
 * under each variant. `retire-only` has none: #36988 retires a rejected prefill result, and a
 * prompt that only decode's scheduler rejects becomes a decode placeholder that ends at commit,
 * before any decode step (`process_batch_result_prebuilt` calls `check_finished()` first).
 */
export const structuralPaths: Readonly<Record<string, boolean>> = {
  'incident-2026': true,
  fixed: false,
  'fixed-coverage': false,
  'retire-only': false,
  'coverage-only': true,
};
