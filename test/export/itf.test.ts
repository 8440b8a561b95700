/**
 * Counterexamples in the Informal Trace Format: the incident's cross-tenant read (its header and
 * each state's event and change sentences pinned as a projection), and the shape every ITF reader
 * relies on.
 */
import { itfFormatDescription, itfTrace, toItf } from '../../src/export/itf.ts';
import { incidentTrace } from './fixtures.ts';

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
