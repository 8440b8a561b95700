/**
 * Fault budgets (`maxTransferFaults`, `maxClientAborts`): a bound on how many rooms fail and
 * how many clients abort in one run. The fault stays possible at every point until it is
 * spent, the bound leaves scenarios without it exactly as they were, and a scenario file
 * refuses a bound without its fault.
 */
import { initialContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident, scenarios } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { ConfigError, parseScenario } from '../../src/config/loadScenario.ts';
import { drive, toInflight } from './drive.ts';

const fixed = variantNamed('fixed');
const faulty: Scenario = { ...incident, name: 'faulty', transferFaults: true, clientAborts: true };
const budget: Scenario = { ...faulty, maxTransferFaults: 1, maxClientAborts: 1 };

describe('fault budgets', () => {
  it('are absent from the context unless a scenario sets them', () => {
    for (const s of [...scenarios, faulty]) {
      const ctx = decodeContext(initialContext(s));
      expect(ctx.transferFaultsLeft).toBeUndefined();
      expect(ctx.clientAbortsLeft).toBeUndefined();
    }
    const ctx = decodeContext(initialContext(budget));
    expect([ctx.transferFaultsLeft, ctx.clientAbortsLeft]).toEqual([1, 1]);
  });

  it('allow one room failure, then no other room may fail', () => {
    const two = (s: Scenario): Scenario => ({
      ...s,
      requests: [
        { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 1 },
        { id: 'c1', tenant: 'C', promptLen: 1, outputLen: 1 },
      ],
    });
    const d = drive(two(budget), fixed).run(...toInflight('a1'), 'TRANSFER_FAIL a1');
    expect(d.at('a1', 'transfer')).toBe('failed');
    expect(d.ctx().transferFaultsLeft).toBe(0);
    d.run(...toInflight('c1'));
    expect(d.enabled('TRANSFER_FAIL c1')).toBe(false);
    const unbounded = drive(two(faulty), fixed).run(...toInflight('a1'), 'TRANSFER_FAIL a1');
    unbounded.run(...toInflight('c1'));
    expect(unbounded.enabled('TRANSFER_FAIL c1')).toBe(true);
  });

  it('allow one client abort, then no other client may abort', () => {
    const d = drive(budget, fixed).run('DISPATCH a1', 'CLIENT_ABORT a1', 'DISPATCH b1');
    expect(d.ctx().clientAbortsLeft).toBe(0);
    expect(d.enabled('CLIENT_ABORT b1')).toBe(false);
    const unbounded = drive(faulty, fixed).run('DISPATCH a1', 'CLIENT_ABORT a1', 'DISPATCH b1');
    expect(unbounded.enabled('CLIENT_ABORT b1')).toBe(true);
  });

  it('shrink the space and keep the verdicts of incident with faults and aborts', () => {
    for (const name of ['fixed', 'incident-2026']) {
      const v = variantNamed(name);
      const all = check(faulty, v);
      const one = check(budget, v);
      const verdict = (r: typeof all) => r.properties.map((p) => [p.name, p.status]);
      expect(one.status).toBe(all.status);
      expect(verdict(one)).toEqual(verdict(all));
      expect(one.stats.states).toBeLessThan(all.stats.states);
    }
  });

  it.each([
    [
      'maxTransferFaults: 1',
      'f.yaml: maxTransferFaults: needs transferFaults: true, which it bounds (got 1)',
    ],
    [
      'clientAborts: true\nmaxClientAborts: 0',
      'f.yaml: maxClientAborts: must be an integer >= 1 (got 0)',
    ],
  ])('refuses %j in a scenario file with one line', (top, message) => {
    const text = [
      'name: x',
      'contextLen: 10',
      'prefillPoolTokens: 10',
      'decodePoolTokens: 10',
      'pageSize: 1',
      top,
      'requests:',
      '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1 }',
    ].join('\n');
    expect(() => parseScenario(text, 'f.yaml')).toThrow(new ConfigError(message));
  });
});
