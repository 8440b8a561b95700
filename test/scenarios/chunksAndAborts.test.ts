/**
 * Chunked prefill and client aborts, the mechanisms the larger scenarios add: each keeps the
 * fixed engine clean, and neither hides the incident.
 */
import { initialTransition, transition } from 'xstate';
import { regionPath } from '../../invariants/vocabulary.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { type StateGraph, stateGraphOf } from '../../src/checker/stateGraph.ts';

const chunked: Scenario = { ...happy, name: 'happy-chunked', prefillChunks: 2 };
const aborting: Scenario = { ...incident, name: 'incident-aborts', clientAborts: true };

describe('chunked prefill', () => {
  let graph: StateGraph;
  beforeAll(() => {
    graph = stateGraphOf(chunked, variantNamed('fixed'));
  });

  it('lands a first chunk’s KV on decode before prefill computes the last one', () => {
    const early = graph.states.some((s) => {
      const requests = decodeContext(s.context).requests;
      return Object.keys(requests).some(
        (rid) =>
          regionPath(s, rid, 'prefill') === 'admitted.chunked' &&
          (requests[rid]?.kvArrived ?? 0) > 0,
      );
    });
    expect(early).toBe(true);
  });

  it('holds every property under every variant', () => {
    for (const v of ['incident-2026', 'fixed', 'retire-only', 'coverage-only']) {
      expect(check(chunked, variantNamed(v)).status, v).toBe('ok');
    }
    expect(graph.states).toHaveLength(6849);
  });
});

describe('client aborts', () => {
  it('answer 499, fail the room and free both sides under fixed', () => {
    const machine = createServingMachine(aborting, variantNamed('fixed'));
    let [s] = initialTransition(machine);
    for (const type of [
      'DISPATCH',
      'PREFILL_INTAKE',
      'DECODE_INTAKE',
      'DECODE_PREALLOC',
      'PREFILL_BOOTSTRAPPED',
      'CLIENT_ABORT',
    ] as const) {
      const [next] = transition(machine, s, { type, rid: 'a1' });
      expect(next, type).not.toBe(s);
      s = next;
    }
    expect(s.value).toMatchObject({
      a1: {
        router: 'replied',
        prefill: { done: 'aborted' },
        transfer: 'failed',
        decode: { done: 'aborted' },
      },
    });
    const ctx = decodeContext(s.context);
    const a1 = ctx.requests.a1;
    expect(a1?.clientReply).toEqual({ status: 499, tokens: 0 });
    expect(a1?.decodePages).toEqual([]);
    expect(ctx.decodePool.free).toHaveLength(10);
  });

  it('keep the fixed engine clean and do not hide the incident', () => {
    expect(check(aborting, variantNamed('fixed')).status).toBe('ok');
    const leak = check(aborting, variantNamed('incident-2026'));
    expect(leak.properties.find((p) => p.name === 'noCrossTenantRead')?.status).toBe('violated');
  });
});
