/**
 * When the 2026 leak is possible, decided by arithmetic over the scenario alone, without the
 * machines: the oracle the model is checked against (`test/properties/scenarios.oracle.test.ts`).
 *
 * Under `incident-2026`, `noCrossTenantRead` is violated exactly when some request X (the
 * victim) and some request Y of another tenant (the writer) satisfy all of:
 *
 * 1. X's prompt passes the tokenizer (`promptLen < contextLen`), is rejected by prefill's
 *    scheduler (`promptLen >= maxReqInputLen(prefill)`) and accepted by decode's
 *    (`promptLen < maxReqInputLen(decode)`): prefill computes a one-token placeholder, decode
 *    preallocates the whole prompt and commits `seq_len = promptLen` after a transfer that wrote
 *    position 0 only.
 * 2. X generates at least two tokens: the first comes from prefill's aux slot, the second is
 *    decode's first attention forward, which reads positions `[0, promptLen]`.
 * 3. X can get that far: prefill's pool holds one page, and decode's pool holds the pages for
 *    positions `[0, promptLen]` (the preallocation plus, when the row is full, the step's page).
 * 4. Y wrote a decode slot and freed it before X preallocated. Decode pages are freed all at once
 *    when decode finishes with a request, and nobody else writes into a page Y or X holds, so Y
 *    ran its whole decode lifecycle first. With two requests the decode pool is fresh when Y
 *    allocates and whole again when Y frees (freed pages are prepended in ascending order), so
 *    Y's position q and X's position q are the same slot. Y finishes decode exactly when it
 *    passes the tokenizer, its prefill fits prefill's pool and its preallocation plus every
 *    decode step fits decode's pool (nothing in `incident-2026` without faults or client aborts
 *    ends it otherwise). Y writes positions `[0, arrived)` by transfer, `arrived` the smaller of
 *    what each side holds (1 for a placeholder on either side), then one position per decode
 *    step from `decodeLen` on: `outputLen - 1` steps when decode admitted it, none for a decode
 *    placeholder, whose pending abort ends it at commit (`process_batch_result_prebuilt`).
 * 5. Some position Y wrote is one X reads without having written it: in `[1, promptLen)`
 *    (position 0 came by transfer, position `promptLen` is written by the step before it reads).
 *
 * Scope (`leakOracleApplies`): at most two requests, no transfer faults, no client aborts, one
 * prefill chunk, no other scenario option. With a third request the free list can be reordered between Y's free and X's
 * preallocation, so a slot can land at another position; that is left to the model checker.
 */
import {
  maxReqInputLen,
  pagesFor,
  poolPages,
  type RequestSpec,
  type Scenario,
} from '../../machines/scenario.ts';

/** A victim and the request of another tenant whose KV it can read. */
export interface LeakPair {
  /** The request whose decode step reads foreign KV. */
  readonly victim: string;
  /** The request that wrote that KV and freed its pages first. */
  readonly writer: string;
}

const coreScenarioFields = new Set([
  'name',
  'description',
  'requests',
  'pageSize',
  'prefillPoolTokens',
  'decodePoolTokens',
  'contextLen',
  'reserve',
  'transferFaults',
  'prefillChunks',
  'clientAborts',
  'witnesses',
]);
const coreRequestFields = new Set(['id', 'tenant', 'promptLen', 'outputLen']);

/** Every field outside `core` is absent or false: no optional mechanism is turned on. */
function onlyCore(record: object, core: ReadonlySet<string>): boolean {
  return Object.entries(record).every(([k, v]) => core.has(k) || v === undefined || v === false);
}

/**
 * Whether `leakPair` is exact for `scenario`: at most two requests, no transfer faults, no
 * client aborts, one prefill chunk, and no other scenario option turned on (an option the
 * oracle does not know, such as a prefix cache or aux slots, takes a scenario out of scope).
 */
export function leakOracleApplies(scenario: Scenario): boolean {
  return (
    scenario.requests.length <= 2 &&
    !scenario.transferFaults &&
    !scenario.clientAborts &&
    scenario.prefillChunks === 1 &&
    onlyCore(scenario, coreScenarioFields) &&
    scenario.requests.every((r) => onlyCore(r, coreRequestFields))
  );
}

/** Conditions 1 to 3: `x` becomes a placeholder on prefill that decode commits and steps. */
export function canBeVictim(scenario: Scenario, x: RequestSpec): boolean {
  const len = x.promptLen;
  return (
    len < scenario.contextLen &&
    len >= maxReqInputLen(scenario, 'prefill') &&
    len < maxReqInputLen(scenario, 'decode') &&
    x.outputLen >= 2 &&
    poolPages(scenario, 'prefill') >= 1 &&
    pagesFor(len + 1, scenario.pageSize) <= poolPages(scenario, 'decode')
  );
}

/** What a request writes into decode's pool before it frees its pages (condition 4). */
export interface DecodeWrites {
  /** Positions `[0, arrived)` came by transfer. */
  readonly arrived: number;
  /** Decode steps wrote positions `[stepsFrom, stepsFrom + steps)`. */
  readonly stepsFrom: number;
  readonly steps: number;
}

/**
 * The decode positions `y` writes on its way to freeing its decode pages, or null if it never
 * frees any (the tokenizer rejects it, or a pool cannot hold what it needs, so it waits forever).
 */
export function decodeWrites(scenario: Scenario, y: RequestSpec): DecodeWrites | null {
  const len = y.promptLen;
  if (len >= scenario.contextLen) return null;
  const prefillLen = len >= maxReqInputLen(scenario, 'prefill') ? 1 : len;
  const decodePlaceholder = len >= maxReqInputLen(scenario, 'decode');
  const decodeLen = decodePlaceholder ? 1 : len;
  const steps = decodePlaceholder ? 0 : y.outputLen - 1;
  const ps = scenario.pageSize;
  if (pagesFor(prefillLen, ps) > poolPages(scenario, 'prefill')) return null;
  if (pagesFor(decodeLen + steps, ps) > poolPages(scenario, 'decode')) return null;
  return { arrived: Math.min(prefillLen, decodeLen), stepsFrom: decodeLen, steps };
}

/** Condition 5: some position `w` wrote lies in `[1, victimLen)`. */
export function overlapsStale(w: DecodeWrites, victimLen: number): boolean {
  const byTransfer = w.arrived >= 2 && victimLen >= 2;
  const bySteps = w.steps >= 1 && w.stepsFrom < victimLen;
  return byTransfer || bySteps;
}

/**
 * The first victim and writer (in request order) for which the leak is possible under
 * `incident-2026`, or null when it is not. Exact only where `leakOracleApplies`.
 */
export function leakPair(scenario: Scenario): LeakPair | null {
  for (const x of scenario.requests) {
    if (!canBeVictim(scenario, x)) continue;
    for (const y of scenario.requests) {
      if (y.tenant === x.tenant) continue;
      const w = decodeWrites(scenario, y);
      if (w && overlapsStale(w, x.promptLen)) return { victim: x.id, writer: y.id };
    }
  }
  return null;
}

/** Whether `noCrossTenantRead` can be violated under `incident-2026` (see `leakPair`). */
export function leakPossible(scenario: Scenario): boolean {
  return leakPair(scenario) !== null;
}
