/**
 * Leads-to under weak fairness: a seeded livelock (a retraction that always re-admits the same
 * request) is reported as a lasso that replays; a cycle that starves a continuously enabled
 * group is not a fair run and is not reported; a bounded search is incomplete.
 */
import { assign, createMachine } from 'xstate';
import { checkLiveness, type LivenessOptions } from '../../src/engine/index.ts';

type Ev = { type: 'ADMIT' | 'RETRACT' | 'READMIT' | 'FINISH' | 'SPIN' };
type Ctx = { retracts: number };

/** One request that memory pressure may retract from the running batch and re-admit. */
function retracting(maxRetracts: number) {
  return createMachine({
    types: {} as { context: Ctx; events: Ev },
    context: { retracts: 0 },
    initial: 'waiting',
    states: {
      waiting: { on: { ADMIT: 'running' } },
      running: {
        on: {
          RETRACT: {
            guard: ({ context }) => context.retracts < maxRetracts,
            target: 'retracted',
            actions: assign({ retracts: ({ context }) => Math.min(context.retracts + 1, 1) }),
          },
          FINISH: 'done',
        },
      },
      retracted: { on: { READMIT: 'running' } },
      done: { type: 'final' },
    },
  });
}

const groups: Record<string, string> = {
  ADMIT: 'scheduler',
  READMIT: 'scheduler',
  RETRACT: 'memory',
  FINISH: 'request',
  SPIN: 'spinner',
};

const options: LivenessOptions<Ctx, Ev> = {
  leadsTo: { eventuallyFinished: { obligations: [(s) => !s.matches('done')] } },
  fairness: (e) => groups[e.type] ?? null,
};

describe('checkLiveness', () => {
  it('reports a retract-and-readmit livelock as a lasso whose cycle replays', () => {
    // Unbounded retraction: `retracts` saturates at 1, so running ↔ retracted is a cycle.
    const r = checkLiveness(retracting(Number.POSITIVE_INFINITY), options);
    expect(r.status).toBe('violation');
    const [lasso] = r.lassos;
    expect(lasso?.name).toBe('eventuallyFinished');
    expect(lasso?.trace.map((s) => s.event.type)).toEqual([
      'ADMIT',
      'RETRACT',
      'READMIT',
      'RETRACT',
    ]);
    // The state after the last step is the state after step `loop`.
    expect(lasso?.loop).toBe(2);
    const loopState = lasso?.trace[(lasso?.loop ?? 0) - 1]?.state;
    expect(lasso?.trace.at(-1)?.state).toEqual(loopState);
  });

  it('passes the same request once retraction is bounded', () => {
    const r = checkLiveness(retracting(1), options);
    expect(r).toMatchObject({ status: 'ok', lassos: [] });
    expect(r.properties).toEqual([{ name: 'eventuallyFinished', violated: false, cycles: 0 }]);
    // waiting, running and done before the retraction, and running, retracted and done after.
    expect(r.stats.states).toBe(6);
  });

  it('does not report a cycle that starves a group enabled in every state of it', () => {
    // FINISH is enabled in both spinning states and never taken: not a weakly fair run.
    const spinning = createMachine({
      types: {} as { context: Ctx; events: Ev },
      context: { retracts: 0 },
      initial: 'a',
      states: {
        a: { on: { SPIN: 'b', FINISH: 'done' } },
        b: { on: { SPIN: 'a', FINISH: 'done' } },
        done: { type: 'final' },
      },
    });
    const fair = checkLiveness(spinning, options);
    expect(fair.status).toBe('ok');
    // One cycle (a ↔ b) among the pending states, and it is not fair.
    expect(fair.properties).toEqual([{ name: 'eventuallyFinished', violated: false, cycles: 1 }]);
    // Without fairness for FINISH, the spin is a fair run and a violation.
    const unfair = checkLiveness(spinning, {
      ...options,
      fairness: (e) => (e.type === 'FINISH' ? null : (groups[e.type] ?? null)),
    });
    expect(unfair.status).toBe('violation');
    expect(unfair.lassos[0]?.trace.map((s) => s.event.type)).toEqual(['SPIN', 'SPIN']);
    expect(unfair.lassos[0]?.loop).toBe(0);
  });

  it('is incomplete, never ok, when a bound stops the search', () => {
    const r = checkLiveness(retracting(1), { ...options, maxStates: 2 });
    expect(r.status).toBe('incomplete');
    expect(r.bound?.reason).toBe('maxStates');
  });
});
