/**
 * Prefill's bootstrap timeout: a request prefill admitted waits in its bootstrap queue for
 * decode's destination; once decode has finished without sending it (under `fixed`, decode
 * retires a prompt only its own scheduler rejects, #38935) the wait can never end, and `TIMEOUT`
 * fails the room and answers 500, as `_check_bootstrap_timeout` and `pop_bootstrapped` do. While
 * decode can still send, or once the room has moved on, `TIMEOUT` does nothing on this side.
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/incident.ts';
import { drive } from './drive.ts';

/**
 * The incident's numbers with decode's pool below prefill's: prefill's scheduler limit is
 * min(9, 9) - 5 = 4 and decode's min(9, 7) - 5 = 2, so only decode rejects b1's 3-token prompt.
 */
const decodeSmaller: Scenario = { ...incident, prefillPoolTokens: 10, decodePoolTokens: 8 };

describe('prefill bootstrap timeout', () => {
  it('fails prefill’s side with a 500 once decode has retired the request at admission', () => {
    const d = drive(decodeSmaller, variantNamed('fixed')).run('DISPATCH b1', 'PREFILL_INTAKE b1');
    expect(d.at('b1', 'prefill')).toEqual({ admitted: 'bootstrapping' });
    expect(d.at('b1', 'transfer')).toBe('bootstrapping');
    // Decode has not decided yet: it may still preallocate and send its destination.
    expect(d.enabled('TIMEOUT b1')).toBe(false);

    d.run('DECODE_INTAKE b1');
    expect(d.at('b1', 'decode')).toEqual({ done: 'retired' });
    expect(d.req('b1').decodeReply).toEqual({ status: 400, tokens: 0 });
    // The router joins on both sides: no reply while prefill waits.
    expect(d.enabled('ROUTER_REPLY b1')).toBe(false);
    expect(d.enabled('PREFILL_BOOTSTRAPPED b1')).toBe(false);

    d.run('TIMEOUT b1');
    expect(d.at('b1', 'prefill')).toEqual({ done: 'failed' });
    expect(d.at('b1', 'transfer')).toBe('failed');
    expect(d.req('b1')).toMatchObject({
      prefillAbort: 'bootstrapTimeout',
      prefillPages: [],
      prefillReply: { status: 500, tokens: 0 },
      replyCount: { prefill: 1, decode: 1, client: 0 },
    });
    expect(d.enabled('TIMEOUT b1')).toBe(false);

    d.run('ROUTER_REPLY b1');
    expect(d.req('b1').clientReply).toEqual({ status: 400, tokens: 0 });
  });

  it('is not enabled while decode can still send its destination', () => {
    const d = drive(decodeSmaller, variantNamed('fixed')).run(
      'DISPATCH a1',
      'PREFILL_INTAKE a1',
      'DECODE_INTAKE a1',
    );
    expect(d.at('a1', 'decode')).toEqual({ admitted: 'preallocPending' });
    expect(d.enabled('TIMEOUT a1')).toBe(false);
    d.run('DECODE_PREALLOC a1');
    expect(d.at('a1', 'prefill')).toEqual({ admitted: 'bootstrapping' });
    expect(d.at('a1', 'transfer')).toBe('waitingForInput');
    expect(d.enabled('TIMEOUT a1')).toBe(false);
    d.run('PREFILL_BOOTSTRAPPED a1');
    expect(d.at('a1', 'prefill')).toEqual({ admitted: 'waiting' });
  });

  it('is not enabled on a placeholder whose decode side goes on (no admission retire)', () => {
    const d = drive(decodeSmaller, variantNamed('incident-2026')).run(
      'DISPATCH b1',
      'PREFILL_INTAKE b1',
      'DECODE_INTAKE b1',
    );
    expect(d.at('b1', 'prefill')).toEqual({ admitted: 'bootstrapping' });
    expect(d.at('b1', 'decode')).toEqual({ placeholder: 'preallocPending' });
    expect(d.enabled('TIMEOUT b1')).toBe(false);
  });

  it('leaves a room that already failed to PREFILL_RELEASE', () => {
    const s: Scenario = { ...decodeSmaller, transferFaults: true };
    const d = drive(s, variantNamed('fixed')).run(
      'DISPATCH a1',
      'PREFILL_INTAKE a1',
      'DECODE_INTAKE a1',
      'DECODE_PREALLOC a1',
      'TRANSFER_FAIL a1',
      'DECODE_TRANSFER_FAILED a1',
    );
    expect(d.at('a1', 'decode')).toEqual({ done: 'failed' });
    expect(d.at('a1', 'prefill')).toEqual({ admitted: 'bootstrapping' });
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.enabled('TIMEOUT a1')).toBe(false);
    d.run('PREFILL_RELEASE a1');
    expect(d.at('a1', 'prefill')).toEqual({ done: 'failed' });
    expect(d.req('a1').prefillReply).toEqual({ status: 500, tokens: 0 });
  });
});
