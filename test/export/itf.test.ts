/**
 * Counterexamples in the Informal Trace Format: the incident's cross-tenant read (its header and
 * each state's event and change sentences pinned as a projection), the shape every ITF reader
 * relies on, and a liveness lasso with ITF's `loop`.
 */

import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import type { RegionSnapshot } from '../../src/checker/outcome.ts';
import { lassoTrace, livenessStatements } from '../../src/checker/serving/servingLiveness.ts';
import {
  type ItfState,
  itfFileName,
  itfFormatDescription,
  itfLasso,
  itfTrace,
  toItf,
  toItfLasso,
} from '../../src/export/itf.ts';
import type { ItfRecord } from '../../src/export/itfValue.ts';
import { traceContexts } from '../../src/replay/traceContexts.ts';
import { incidentTrace, stalledDecodeRun } from './fixtures.ts';

const { trace, meta } = incidentTrace('noCrossTenantRead');

/** A state's `regions` `#map` as the trace's record: request id → region → state path. */
function regionsOf(state: ItfState | undefined): RegionSnapshot {
  const entries = (state?.regions['#map'] ?? []) as [string, Record<string, string>][];
  return Object.fromEntries(entries);
}

describe('toItf', () => {
  const text = toItf(trace, meta);
  const itf = itfTrace(trace, meta);

  it('tells the incident’s cross-tenant read: header, then each state’s event and changes', () => {
    const states = itf.states.map((x) => [`${x.event} (${x.actor})`, ...(x.changes ?? [])]);
    const { varTypes: _types, ...header } = itf['#meta'];
    expect({ meta: header, states }).toMatchSnapshot();
  });

  it('gives each state after the first the regions of its step', () => {
    expect(itf.states.slice(1).map(regionsOf)).toEqual(trace.steps.map((x) => x.regions));
    // A #map keyed by request id, in scenario order, each value a record of the four regions.
    expect(itf.states[1]?.regions['#map'].map(([rid]) => rid)).toEqual(['a1', 'b1']);
    expect(itf.states[1]?.regions['#map'][0]).toEqual(['a1', trace.steps[0]?.regions.a1]);
  });

  it('is JSON that reads back as the trace data', () => {
    expect(JSON.parse(text)).toEqual(itf);
    expect(toItf(trace, meta)).toBe(text);
  });

  it('has the ITF header and the variables every state holds', () => {
    expect(itf['#meta']).toMatchObject({
      format: 'ITF',
      'format-description': itfFormatDescription,
      source: 'kvcheck',
      property: 'noCrossTenantRead',
      violation: trace.message,
    });
    expect(itf.vars).toEqual(['step', 'event', 'actor', 'regions', 'changes']);
    expect(itf['#meta'].varTypes).toEqual({
      step: 'Int',
      event: 'Str',
      actor: 'Str',
      regions: 'Str -> { router: Str, prefill: Str, transfer: Str, decode: Str }',
      changes: 'Seq(Str)',
    });
    for (const s of itf.states)
      expect(Object.keys(s).sort()).toEqual(['#meta', ...itf.vars].sort());
  });

  it('has the initial state and then one state per step', () => {
    expect(itf.states).toHaveLength(trace.steps.length + 1);
    itf.states.forEach((s, i) => {
      expect(s['#meta'].index).toBe(i);
      expect(s.step).toEqual({ '#bigint': String(i) });
    });
    expect(regionsOf(itf.states[0])).toEqual({
      a1: { router: 'idle', prefill: 'idle', transfer: 'unopened', decode: 'idle' },
      b1: { router: 'idle', prefill: 'idle', transfer: 'unopened', decode: 'idle' },
    });
    expect(itf.states[13]).toMatchObject({
      event: 'PREFILL_INTAKE b1',
      actor: 'prefill scheduler',
    });
    expect(regionsOf(itf.states.at(-1))).toEqual(trace.steps.at(-1)?.regions);
  });

  it('leaves the change sentences out on request, and names its source', () => {
    const bare = itfTrace(trace, meta, { changes: false, source: 'ci' });
    expect(bare.vars).toEqual(['step', 'event', 'actor', 'regions']);
    expect(bare.states.every((s) => s.changes === undefined)).toBe(true);
    expect(bare['#meta'].source).toBe('ci');
  });
});

describe('toItf with the model’s state variables', () => {
  const variant = variantNamed('incident-2026');
  const states = traceContexts(incident, variant, trace.steps);
  const itf = itfTrace(trace, meta, { states });

  it('adds the model’s variables after the step’s, in every state, typed in #meta', () => {
    expect(itf.vars).toEqual([
      ...['step', 'event', 'actor', 'regions', 'changes'],
      ...['tenants', 'prefillPool', 'decodePool', 'requests', 'retractPending'],
    ]);
    expect(Object.keys(itf['#meta'].varTypes)).toEqual(itf.vars);
    for (const s of itf.states) expect(Object.keys(s)).toEqual(['#meta', ...itf.vars]);
    expect(itf.states[0]?.retractPending).toBe(false);
    expect(itf.states.at(-1)?.tenants).toEqual({
      '#map': [
        ['a1', 'A'],
        ['b1', 'B'],
      ],
    });
  });

  it('tells each state’s decoded context: b1’s decode pages after the last step', () => {
    const last = states.at(-1)?.requests.b1?.decodePages ?? [];
    const requests = itf.states.at(-1)?.requests as { '#map': [string, ItfRecord][] };
    const b1 = requests['#map'].find(([rid]) => rid === 'b1')?.[1];
    expect(b1?.decodePages).toEqual(last.map((p) => ({ '#bigint': String(p) })));
    expect(last.length).toBeGreaterThan(0);
  });

  it('is the same bytes for the same trace and contexts', () => {
    const again = traceContexts(incident, variant, trace.steps);
    expect(toItf(trace, meta, { states: again })).toBe(toItf(trace, meta, { states }));
  });

  it('refuses contexts that are not one per state', () => {
    expect(() => itfTrace(trace, meta, { states: states.slice(1) })).toThrow(RangeError);
    expect(() => itfTrace(trace, meta, { states: [] })).toThrow(RangeError);
  });

  it('recovers contexts only from a run of the machine', () => {
    const first = trace.steps[0];
    if (!first) throw new Error('empty trace');
    const wrong = [{ ...first, event: 'DECODE_COMMIT' }];
    expect(() => traceContexts(incident, variant, wrong)).toThrow(/^step 1 \(DECODE_COMMIT a1\)/);
    const elsewhere = [{ ...first, regions: trace.steps[1]?.regions ?? {} }];
    expect(() => traceContexts(incident, variant, elsewhere)).toThrow(/^step 1 /);
  });
});

describe('toItfLasso', () => {
  // A real lasso of the serving machine: a seeded decode step that never advances the request.
  const run = stalledDecodeRun();
  const found = run.result.lassos.find((l) => l.name === 'eventuallyAnswered');
  if (!found) throw new Error('the stalled decode has no eventuallyAnswered lasso');
  const lasso = lassoTrace(found, run.rids);
  const meta = {
    scenario: run.scenario,
    variant: run.variant,
    property: 'eventuallyAnswered',
    statement: livenessStatements.eventuallyAnswered ?? '',
  };
  const text = toItfLasso(lasso, meta);
  const itf = itfLasso(lasso, meta);

  it('round-trips through JSON with the lasso’s loop and one state per step (the initial one, not the last)', () => {
    const back = JSON.parse(text);
    expect(back).toEqual(itf);
    expect(back.loop).toBe(found.loop);
    expect(back.states).toHaveLength(found.trace.length);
    expect(Object.keys(back)).toEqual(['#meta', 'vars', 'states', 'loop']);
  });

  it('runs the cycle from states[loop] to the last state, whose next step returns to states[loop]', () => {
    expect(itf.loop).toBeGreaterThan(0);
    expect(itf.loop).toBeLessThan(itf.states.length);
    // The closing step leads back to the model state the cycle starts in.
    expect(lasso.steps.at(-1)?.regions).toEqual(regionsOf(itf.states[itf.loop]));
    expect(itf['#meta'].loopEvent).toBe(`${lasso.steps.at(-1)?.event} ${lasso.steps.at(-1)?.rid}`);
    // The cycle is the seeded stall's: decode steps only, none of them in the prefix.
    const events = [...itf.states.map((x) => x.event), itf['#meta'].loopEvent];
    expect(events.slice(itf.loop + 1).every((e) => /^DECODE_STEP [ab]1$/.test(e))).toBe(true);
    expect(events.slice(0, itf.loop + 1).some((e) => e.startsWith('DECODE_STEP'))).toBe(false);
    expect(itf['#meta'].violation).toBe(lasso.message);
    expect(lasso.message).toMatch(/^[ab]1 is dispatched and never answered by the router: /);
  });

  it('renders its states exactly as a counterexample’s, and adds only loop and loopEvent', () => {
    const { loop, ...rest } = itf;
    expect(loop).toBe(lasso.loop);
    const full = itfTrace(lasso, meta);
    expect(rest.states).toEqual(full.states.slice(0, -1));
    expect(rest['#meta']).toEqual({ ...full['#meta'], loopEvent: full.states.at(-1)?.event });
    expect(itfLasso(lasso, meta, { changes: false }).vars).not.toContain('changes');
  });

  it('refuses a loop that is not a step index', () => {
    expect(() => itfLasso({ ...lasso, loop: lasso.steps.length }, meta)).toThrow(RangeError);
    expect(() => itfLasso({ ...lasso, loop: -1 }, meta)).toThrow(RangeError);
  });

  it('is named as a counterexample is: scenario, variant and property', () => {
    expect(itfFileName(meta)).toBe('happy.stalled-decode.eventuallyAnswered.itf.json');
  });
});
