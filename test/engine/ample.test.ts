/**
 * Partial-order reduction in the engine (`ExploreOptions.ample`): the engine expands an ample
 * candidate alone only while it has an enabled event (C0) and none of its successors is stored
 * already (the cycle proviso C3), and the reduced search keeps the verdicts the caller's
 * candidates are entitled to keep. Shown on two small machines: three independent chains,
 * whose one deadlock is kept while the interleavings are not, and the textbook ignoring
 * problem, where a self-contained cycle would hide a violation without C3.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { explore } from '../../src/engine/index.ts';

/** A region that takes `steps` steps on `event`, then stops. */
function chain(event: string, steps: number) {
  const states: Record<string, object> = {};
  for (let i = 0; i < steps; i++) states[`s${i}`] = { on: { [event]: `s${i + 1}` } };
  states[`s${steps}`] = {};
  return { initial: 's0', states };
}

const chains: AnyStateMachine = setup({}).createMachine({
  id: 'chains',
  type: 'parallel',
  states: { a: chain('A', 3), b: chain('B', 3), c: chain('C', 3) },
});

/** Each offered event alone, in order: independent regions make each one ample. */
const each = (_: unknown, offered: readonly { type: string }[]) => offered.map((e) => [e]);

/** Holds nowhere: every terminal state is reported. */
const stuck = { stuck: () => false };

describe('ample sets', () => {
  it('keep the one deadlock of three independent chains and drop their interleavings', () => {
    const full = explore(chains, { terminalInvariants: stuck });
    const reduced = explore(chains, { terminalInvariants: stuck, ample: each });
    expect(full.stats.states).toBe(64);
    // One chain at a time: 3 + 3 + 3 moves from the initial state.
    expect(reduced.stats.states).toBe(10);
    expect(reduced.stats.ampleStates).toBe(9);
    expect(full.stats.ampleStates).toBeUndefined();
    for (const r of [full, reduced]) {
      expect(r.status).toBe('violation');
      expect(r.violations.map((v) => [v.name, v.trace.length, v.shortest])).toEqual([
        ['stuck', 9, undefined],
      ]);
    }
  });

  it('fall back to a full expansion where a candidate closes a cycle (the ignoring problem)', () => {
    // Region `spin` loops on its own and is always ample; only C3 lets `walk` move at all.
    const machine: AnyStateMachine = setup({}).createMachine({
      id: 'ignoring',
      type: 'parallel',
      states: {
        spin: { initial: 'x', states: { x: { on: { SPIN: 'y' } }, y: { on: { SPIN: 'x' } } } },
        walk: chain('WALK', 2),
      },
    });
    const spinFirst = (_: unknown, offered: readonly { type: string }[]) => [
      offered.filter((e) => e.type === 'SPIN'),
    ];
    const farEnough = {
      walkedTwice: (s: { value: unknown }) => (s.value as { walk: string }).walk !== 's2',
    };
    const r = explore(machine, { invariants: farEnough, ample: spinFirst });
    expect(r.status).toBe('violation');
    // The shortening pass, unreduced, finds the two WALK steps.
    expect(r.violations[0]?.trace.map((s) => s.event.type)).toEqual(['WALK', 'WALK']);
    expect(r.stats.ampleStates).toBeGreaterThan(0);
    expect(r.stats.ampleStates).toBeLessThan(r.stats.states);
  });

  it('expand fully where no candidate has an enabled event (C0)', () => {
    const none = (_: unknown, offered: readonly { type: string }[]) => [
      offered.filter((e) => e.type === 'NOTHING'),
    ];
    const r = explore(chains, { ample: none });
    expect(r.stats.states).toBe(64);
    expect(r.stats.ampleStates).toBe(0);
  });

  it('refuse worker threads and transition callbacks', () => {
    expect(() => explore(chains, { ample: each, onTransition: () => {} })).toThrow(
      /does not combine/,
    );
  });
});
