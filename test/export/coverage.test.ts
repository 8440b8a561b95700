/**
 * Statechart coverage tells what the scenarios switched off from what they could have taken and
 * never did: a transition behind a mechanism every scenario switched off is listed as not
 * exercised, naming the mechanism, and only a possible transition never taken is a finding.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { LifecycleMove } from '../../src/checker/outcome.ts';
import {
  type ChartFor,
  classifyCoverage,
  liveParts,
  type RegionCoverage,
  regionCoverage,
  scenarioMechanisms,
} from '../../src/export/coverage.ts';
import { chartGraph } from '../../src/export/statechart.ts';

const incident2026 = variantNamed('incident-2026');
const fixed = variantNamed('fixed');
const chartFor =
  (v = incident2026): ChartFor =>
  (transfer, off) =>
    chartGraph('request', v, { transfer, faultsOff: off });

/** The incident scenario's runs' lifecycle moves under `incident-2026`, checked once. */
let moves: readonly LifecycleMove[];
beforeAll(() => {
  moves = check(incident, incident2026).coverage;
});

/** The region of `coverage` named `name`. */
function region(coverage: readonly RegionCoverage[], name: string): RegionCoverage {
  const r = coverage.find((c) => c.region === name);
  if (!r) throw new Error(`no region ${name}`);
  return r;
}

/** The mechanism `item` is listed under in `c`'s off list, if it is listed. */
function offMechanism(c: RegionCoverage, item: string): string | undefined {
  return [...c.states.off, ...c.transitions.off].find((u) => u.item === item)?.mechanism;
}

const clientAbort = 'router: awaiting → replied on CLIENT_ABORT';
const tokenizerReject = 'prefill: received → done.clientError on PREFILL_INTAKE';

describe('statechart coverage', () => {
  it('reads the mechanisms a scenario switches off from its options', () => {
    expect(scenarioMechanisms(incident)).toEqual({
      transfer: 'push',
      off: [
        'transferFaultsEnabled',
        'clientAbortsEnabled',
        'lateWritesEnabled',
        'prefillErrorsEnabled',
      ],
    });
    const pull: Scenario = { ...incident, transfer: 'pull', clientAborts: true };
    expect(scenarioMechanisms(pull)).toEqual({
      transfer: 'pull',
      off: ['transferFaultsEnabled', 'prefillErrorsEnabled'],
    });
  });

  it('lists a transition behind a switched-off mechanism as such, never as a finding', () => {
    const coverage = regionCoverage(incident2026, [incident], moves);
    const router = region(coverage, 'router');
    expect(router.transitions.missed).not.toContain(clientAbort);
    expect(offMechanism(router, clientAbort)).toBe(
      'client aborts (clientAborts off in every scenario)',
    );
    const transfer = region(coverage, 'transfer');
    expect(offMechanism(transfer, 'transfer: bootstrapping → failed on TRANSFER_FAIL')).toBe(
      'transfer faults (transferFaults off in every scenario)',
    );
    // Off by a chain: no client abort, so no other region ever raises RECEIVER_ABORTED.
    expect(offMechanism(transfer, 'transfer: awaitingSender → abandoned on RECEIVER_ABORTED')).toBe(
      'client aborts (clientAborts off in every scenario)',
    );
    expect(offMechanism(transfer, 'transfer.draining')).toBe(
      'late writes (lateWrites off and push transfer in every scenario)',
    );
    expect(offMechanism(transfer, 'transfer: waitingForInput → leased on KV_CHUNK_SENT')).toBe(
      'pull transfer (no scenario pulls)',
    );
  });

  it('names the variant’s switch for a transition the variant disables', () => {
    const coverage = regionCoverage(fixed, [incident], check(incident, fixed).coverage);
    const prefill = region(coverage, 'prefill');
    expect(offMechanism(prefill, 'prefill: received → placeholder on PREFILL_INTAKE')).toBe(
      'switch admissionRetire on in fixed',
    );
    expect(offMechanism(prefill, 'prefill.placeholder')).toBe('unreachable under fixed’s switches');
  });

  it('counts a possible transition that no run took as a finding', () => {
    const prefill = region(regionCoverage(incident2026, [incident], moves), 'prefill');
    // Every prompt of the scenario fits the context window: the tokenizer never rejects one.
    expect(incident.requests.every((r) => r.promptLen < incident.contextLen)).toBe(true);
    expect(prefill.transitions.missed).toContain(tokenizerReject);
    expect(offMechanism(prefill, tokenizerReject)).toBeUndefined();
  });

  it('makes the same transition a finding once a scenario switches its mechanism on', () => {
    const aborting: Scenario = { ...incident, clientAborts: true };
    const coverage = classifyCoverage(
      chartFor(),
      incident2026,
      [incident, aborting].map(scenarioMechanisms),
      moves,
    );
    const router = region(coverage, 'router');
    expect(router.transitions.missed).toContain(clientAbort);
    expect(offMechanism(router, clientAbort)).toBeUndefined();
    expect(router.transitions.total).toBe(
      region(regionCoverage(incident2026, [incident], moves), 'router').transitions.total + 1,
    );
  });

  it('keeps totals to what some scenario allows: taken and missed make the total', () => {
    for (const c of regionCoverage(incident2026, [incident], moves)) {
      expect(c.transitions.taken + c.transitions.missed.length).toBe(c.transitions.total);
      expect(c.states.visited + c.states.missed.length).toBe(c.states.total);
    }
  });

  it('finds no event raised that no possible transition raises', () => {
    const all = liveParts(chartFor()('push', []));
    const none = liveParts(chartFor()('push', ['clientAbortsEnabled']));
    const received = 'transfer: awaitingSender → abandoned on RECEIVER_ABORTED#0';
    expect(all.edges.has(received)).toBe(true);
    expect(none.edges.has(received)).toBe(false);
  });
});
