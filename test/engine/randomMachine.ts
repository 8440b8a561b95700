/**
 * Small random statecharts for the differential test: compound, parallel and final states up to
 * three levels deep; transitions on every kind of node with zero, one or two targets (two only
 * into different regions of one parallel node), `reenter`, guards (named with params, inline,
 * `and`/`or`/`not`, `stateIn`), `assign` in both forms with static params or reading the event
 * payload, `raise` (static or an expression of params), entry and exit actions. Context is two
 * counters modulo 3, so spaces stay small.
 *
 * Raised events (`I`, `J`) are handled by transitions that raise nothing, entry/exit actions
 * never raise, and `onDone` transitions (on some compound and parallel nodes) only assign, so
 * every macrostep ends. Everything is drawn from a seeded PRNG.
 */
import { type AnyStateMachine, and, assign, not, or, raise, setup, stateIn } from 'xstate';

/** The events of every random machine: `I` and `J` are only raised, never offered. */
export type RandomEvent = { type: 'A' | 'B' | 'C' | 'I' | 'J'; n?: number };

/** The context of every random machine. */
export interface Counters {
  x: number;
  y: number;
}

type Rng = () => number;

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

interface Blueprint {
  id: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final';
  children: Blueprint[];
  parent: Blueprint | null;
}

function grow(rng: Rng, id: string, depth: number, parent: Blueprint | null): Blueprint {
  const root = parent === null;
  const roll = rng();
  const type: Blueprint['type'] = root
    ? roll < 0.5
      ? 'compound'
      : 'parallel'
    : depth >= 3 || roll < 0.45
      ? roll < 0.15
        ? 'final'
        : 'atomic'
      : roll < 0.75
        ? 'compound'
        : 'parallel';
  const node: Blueprint = { id, type, children: [], parent };
  const n = type === 'compound' ? 2 + Math.floor(rng() * 2) : type === 'parallel' ? 2 : 0;
  for (let i = 0; i < n; i++) node.children.push(grow(rng, `${id}.s${i}`, depth + 1, node));
  if (type === 'compound' && node.children.every((c) => c.type === 'final')) {
    (node.children[0] as Blueprint).type = 'atomic';
  }
  return node;
}

function all(b: Blueprint): Blueprint[] {
  return [b, ...b.children.flatMap(all)];
}

function targetsFor(rng: Rng, nodes: Blueprint[]): string[] | undefined {
  const roll = rng();
  if (roll < 0.25) return undefined;
  const parallels = nodes.filter((n) => n.type === 'parallel');
  if (roll < 0.4 && parallels.length > 0) {
    const p = pick(rng, parallels);
    const [r1, r2] = p.children as [Blueprint, Blueprint];
    return [`#${pick(rng, all(r1)).id}`, `#${pick(rng, all(r2)).id}`];
  }
  return [`#${pick(rng, nodes).id}`];
}

function guardFor(rng: Rng, nodes: Blueprint[], depth = 0): unknown {
  const roll = rng();
  if (roll < 0.45 && depth === 0) return undefined;
  if (roll < 0.5) return { type: 'below', params: { k: 1 + Math.floor(rng() * 2) } };
  if (roll < 0.55) return 'same';
  if (roll < 0.65) return ({ context }: { context: Counters }) => context.y !== 1;
  if (roll < 0.72) return ({ event }: { event: RandomEvent }) => event.n !== 2;
  if (roll < 0.82) return stateIn(`#${pick(rng, nodes).id}`);
  const sub = () => guardFor(rng, nodes, depth + 1) ?? 'same';
  if (depth > 1) return 'same';
  if (roll < 0.88) return and([sub() as never, sub() as never]);
  if (roll < 0.94) return or([sub() as never, sub() as never]);
  return not(sub() as never);
}

function actionFor(rng: Rng, raises: boolean): unknown {
  const roll = rng();
  if (roll < 0.3) return 'incX';
  if (roll < 0.45) return { type: 'setY', params: { v: Math.floor(rng() * 3) } };
  if (roll < 0.6)
    return assign({ y: ({ context }: { context: Counters }) => (context.x + context.y) % 3 });
  if (roll < 0.7) return 'addN';
  if (!raises) return 'incX';
  if (roll < 0.85) return raise({ type: pick(rng, ['I', 'J']) });
  return { type: 'notify', params: { t: pick(rng, ['I', 'J']) } };
}

function transitionsFor(rng: Rng, nodes: Blueprint[]) {
  const on: Record<string, unknown[]> = {};
  const count = Math.floor(rng() * 4);
  for (let i = 0; i < count; i++) {
    const type = pick(rng, ['A', 'A', 'B', 'B', 'C', 'C', 'I', 'J']);
    const internal = type === 'I' || type === 'J';
    const t: Record<string, unknown> = {};
    const target = targetsFor(rng, nodes);
    if (target) t.target = target;
    if (target && rng() < 0.2) t.reenter = true;
    const guard = guardFor(rng, nodes);
    if (guard !== undefined) t.guard = guard;
    const nActions = Math.floor(rng() * 3);
    if (nActions > 0) {
      t.actions = Array.from({ length: nActions }, () => actionFor(rng, !internal));
    }
    const list = on[type] ?? [];
    list.push(t);
    on[type] = list;
  }
  return on;
}

function configOf(rng: Rng, b: Blueprint, nodes: Blueprint[]): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (b.type === 'parallel' || b.type === 'final') c.type = b.type;
  if (b.type === 'compound') c.initial = (b.children[0] as Blueprint).id.split('.').at(-1);
  if (b.children.length > 0) {
    c.states = Object.fromEntries(
      b.children.map((ch) => [ch.id.split('.').at(-1), configOf(rng, ch, nodes)]),
    );
  }
  const on = transitionsFor(rng, nodes);
  if (Object.keys(on).length > 0) c.on = on;
  if (b.parent !== null && b.children.length > 0 && rng() < 0.3) {
    c.onDone = { actions: [actionFor(rng, false), actionFor(rng, false)] };
  }
  if (rng() < 0.2) c.entry = [actionFor(rng, false)];
  if (rng() < 0.2) c.exit = [actionFor(rng, false)];
  return c;
}

/** The random machine of `seed`, and the events to offer. */
export function randomMachine(seed: number) {
  const rng = prng(seed);
  const root = grow(rng, 'm', 0, null);
  const nodes = all(root);
  const config = configOf(rng, root, nodes);
  const machine = setup({
    types: { context: {} as Counters, events: {} as RandomEvent },
    guards: {
      below: ({ context }, p: { k: number }) => context.x < p.k,
      same: ({ context }) => context.x === context.y,
    },
    actions: {
      incX: assign(({ context }) => ({ x: (context.x + 1) % 3 })),
      setY: assign((_, p: { v: number }) => ({ y: p.v })),
      addN: assign(({ context, event }) => ({ x: (context.x + (event.n ?? 1)) % 3 })),
      notify: raise((_, p: { t: 'I' | 'J' }) => ({ type: p.t })),
    },
  }).createMachine({ id: 'm', context: { x: 0, y: 0 }, ...(config as object) } as never);
  const events: RandomEvent[] = [{ type: 'A' }];
  if (rng() < 0.5) events.push({ type: 'A', n: 2 });
  if (rng() < 0.7) events.push({ type: 'B', n: 1 });
  events.push({ type: 'C', n: 2 });
  // The config is assembled at run time, so its static type says nothing useful.
  return { machine: machine as unknown as AnyStateMachine, events };
}
