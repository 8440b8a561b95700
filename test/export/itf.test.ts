/**
 * Counterexamples in the Informal Trace Format: the incident's cross-tenant read (its header and
 * each state's event and change sentences pinned as a projection), the shape every ITF reader
 * relies on, and a liveness lasso with ITF's `loop`.
 */
import { lassoTrace, livenessStatements } from '../../src/checker/serving/servingLiveness.ts';
import {
  itfFileName,
  itfFormatDescription,
  itfLasso,
  itfTrace,
  toItf,
  toItfLasso,
} from '../../src/export/itf.ts';
import { incidentTrace, stalledDecodeRun } from './fixtures.ts';

const { trace, meta } = incidentTrace('noCrossTenantRead');

describe('toItf', () => {
  const text = toItf(trace, meta);
  const itf = itfTrace(trace, meta);

  it('tells the incident’s cross-tenant read: header, then each state’s event and changes', () => {
    const states = itf.states.map((x) => [`${x.event} (${x.actor})`, ...(x.changes ?? [])]);
    expect({ meta: itf['#meta'], states }).toMatchSnapshot();
  });

  it('gives each state after the first the regions of its step', () => {
    expect(itf.states.slice(1).map((x) => x.regions)).toEqual(trace.steps.map((x) => x.regions));
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
    for (const s of itf.states)
      expect(Object.keys(s).sort()).toEqual(['#meta', ...itf.vars].sort());
  });

  it('has the initial state and then one state per step', () => {
    expect(itf.states).toHaveLength(trace.steps.length + 1);
    itf.states.forEach((s, i) => {
      expect(s['#meta'].index).toBe(i);
      expect(s.step).toEqual({ '#bigint': String(i) });
    });
    expect(itf.states[0]?.regions).toEqual({
      a1: { router: 'idle', prefill: 'idle', transfer: 'unopened', decode: 'idle' },
      b1: { router: 'idle', prefill: 'idle', transfer: 'unopened', decode: 'idle' },
    });
    expect(itf.states[13]).toMatchObject({
      event: 'PREFILL_INTAKE b1',
      actor: 'prefill scheduler',
    });
    expect(itf.states.at(-1)?.regions).toEqual(trace.steps.at(-1)?.regions);
  });

  it('leaves the change sentences out on request, and names its source', () => {
    const bare = itfTrace(trace, meta, { changes: false, source: 'ci' });
    expect(bare.vars).toEqual(['step', 'event', 'actor', 'regions']);
    expect(bare.states.every((s) => s.changes === undefined)).toBe(true);
    expect(bare['#meta'].source).toBe('ci');
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
    expect(lasso.steps.at(-1)?.regions).toEqual(itf.states[itf.loop]?.regions);
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
