/**
 * The supported subset's edge: everything outside it is refused with a message naming the
 * feature and the state node; what is inside but inert (custom actions, `log`) behaves as
 * under `xstate/graph`, where the action executor never runs.
 */
import {
  type AnyStateMachine,
  assign,
  createMachine,
  emit,
  enqueueActions,
  fromPromise,
  log,
  raise,
  sendTo,
  setup,
  spawnChild,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { explore, UnsupportedFeatureError } from '../../src/engine/index.ts';

const inState = (config: object): AnyStateMachine =>
  createMachine({ id: 'm', initial: 'a', states: { a: config, b: {} } } as never);

const refused: [string, AnyStateMachine, RegExp][] = [
  [
    'invoke',
    setup({ actors: { p: fromPromise(async () => 1) } }).createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { invoke: { src: 'p' } } },
    }),
    /^unsupported: invoke at #m\.a$/,
  ],
  ['after', inState({ after: { 100: 'b' } }), /^unsupported: after at #m\.a$/],
  ['always', inState({ always: { target: 'b' } }), /^unsupported: always at #m\.a$/],
  [
    'history',
    createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { initial: 'x', states: { x: {}, h: { type: 'history' } } } },
    }),
    /^unsupported: history at #m\.a\.h$/,
  ],
  [
    'sendTo',
    inState({ on: { E: { actions: sendTo('x', { type: 'E' }) } } }),
    /^unsupported: sendTo at #m\.a$/,
  ],
  [
    'enqueueActions',
    inState({ entry: enqueueActions(() => {}) }),
    /^unsupported: enqueueActions at #m\.a \(entry\)$/,
  ],
  ['emit', inState({ exit: emit({ type: 'x' }) }), /^unsupported: emit at #m\.a \(exit\)$/],
  [
    'spawnChild',
    inState({ entry: spawnChild(fromPromise(async () => 1)) }),
    /^unsupported: spawnChild at #m\.a \(entry\)$/,
  ],
  [
    'delayed raise',
    inState({ on: { E: { actions: raise({ type: 'F' }, { delay: 10 }) } } }),
    /^unsupported: delayed raise at #m\.a$/,
  ],
  ['output', inState({ type: 'final', output: 1 }), /^unsupported: output at #m\.a$/],
  [
    'initial actions',
    createMachine({
      id: 'm',
      initial: { target: 'a', actions: () => {} } as never,
      states: { a: {} },
    }),
    /^unsupported: initial transition object at #m$/,
  ],
  [
    'non-JSON context',
    createMachine({ id: 'm', context: { seen: new Set<number>() } }),
    /^unsupported: non-plain object \(Set\) at context\.seen at #m$/,
  ],
];

describe('the subset', () => {
  it.each(refused)('refuses %s, naming the feature and the node', (_name, machine, message) => {
    expect(() => explore(machine)).toThrow(UnsupportedFeatureError);
    expect(() => explore(machine)).toThrow(message);
  });

  it('treats custom actions and log as inert, as xstate/graph does', () => {
    const ran: string[] = [];
    const machine = setup({
      types: { context: {} as { n: number } },
      actions: { record: () => ran.push('record') },
    }).createMachine({
      id: 'm',
      context: { n: 0 },
      initial: 'a',
      states: {
        a: {
          entry: ['record', log('entered')],
          on: { E: { target: 'b', actions: ['record', assign({ n: 1 })] } },
        },
        b: { on: { E: { target: 'a', actions: 'record' } } },
      },
    });
    const r = explore(machine, { events: [{ type: 'E' }] });
    expect(r.stats.states).toBe(
      Object.keys(getAdjacencyMap(machine, { events: [{ type: 'E' }] })).length,
    );
    expect(r.stats.states).toBe(3);
    expect(ran).toEqual([]);
  });

  it('throws what XState throws for a guard that is not implemented, when it is evaluated', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { on: { E: { guard: 'nowhere', target: 'b' } } }, b: {} },
    });
    expect(() => explore(machine, { events: [] })).not.toThrow();
    expect(() => explore(machine, { events: [{ type: 'E' }] })).toThrow(/nowhere/);
  });
});
