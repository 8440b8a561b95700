// biome-ignore-all lint/suspicious/noExplicitAny: the one adapter that reads XState's internal objects
/**
 * The one module of kvcheck that reads XState's internal objects: state nodes (`idMap`, `order`,
 * `transitions`, `entry`, `exit`, `config`), transition definitions, a snapshot's `_nodes`, and
 * the built-in guard and action functions (`and`/`or`/`not`/`stateIn` carry `check`, `guards`,
 * `stateValue`; `assign`/`raise` carry `type`, `assignment`, `event`, `delay`). It turns them
 * into plain, typed data: the engine's descriptors (`./machineSpec.ts`, naming the first
 * unsupported feature it meets), the active nodes of an XState snapshot (`ActiveNode`), and a
 * machine's statechart as its config writes it (`./statechart.ts`) for drawing and path checks.
 *
 * `any` is allowed in this file only (XState 5.33.3 internals are untyped at this level).
 */
import { type AnyStateMachine, and, type EventObject, not, or, stateIn } from 'xstate';
import type {
  ActionSpec,
  GuardSpec,
  MachineSpec,
  NodeKind,
  NodeSpec,
  TransitionSpec,
} from './machineSpec.ts';
import type { ActionRef, GuardTerm, StatechartNode, StatechartTransition } from './statechart.ts';
import type { ActiveNode } from './types.ts';

const checkAnd = (and([]) as any).check;
const checkOr = (or([]) as any).check;
const checkNot = (not('x') as any).check;
const checkStateIn = (stateIn('#x') as any).check;

/** Thrown for a machine outside the supported subset; the message names feature and node. */
export class UnsupportedFeatureError extends Error {
  constructor(feature: string, where: string) {
    super(`unsupported: ${feature} at ${where}`);
    this.name = 'UnsupportedFeatureError';
  }
}

function paramsOf(ref: any): { params: unknown; paramsFn: ((a: any) => unknown) | null } {
  if (ref === null || typeof ref !== 'object' || !('params' in ref)) {
    return { params: undefined, paramsFn: null };
  }
  return typeof ref.params === 'function'
    ? { params: undefined, paramsFn: ref.params }
    : { params: ref.params, paramsFn: null };
}

function readGuard(machine: any, guard: any, where: string, depth = 0): GuardSpec {
  if (depth > 50) throw new UnsupportedFeatureError('cyclic guard reference', where);
  const inline = typeof guard === 'function';
  const name = typeof guard === 'string' ? guard : inline ? guard.name : guard?.type;
  const resolved = inline ? guard : machine.implementations.guards[name];
  if (!inline && !resolved) return { kind: 'missing', name: String(name) };
  if (typeof resolved !== 'function') return readGuard(machine, resolved, where, depth + 1);
  if (!('check' in resolved)) {
    const p =
      inline || typeof guard === 'string' ? { params: undefined, paramsFn: null } : paramsOf(guard);
    return { kind: 'predicate', name: String(name), fn: resolved, ...p };
  }
  const sub = (g: any) => readGuard(machine, g, where, depth + 1);
  if (resolved.check === checkAnd) return { kind: 'and', guards: resolved.guards.map(sub) };
  if (resolved.check === checkOr) return { kind: 'or', guards: resolved.guards.map(sub) };
  if (resolved.check === checkNot) return { kind: 'not', guard: sub(resolved.guards[0]) };
  if (resolved.check === checkStateIn) {
    const v = resolved.stateValue;
    if (typeof v === 'string' && v.startsWith('#')) {
      try {
        return { kind: 'stateInNode', order: machine.getStateNodeById(v).order };
      } catch (err) {
        return { kind: 'throws', message: (err as Error).message };
      }
    }
    return { kind: 'stateInValue', value: v };
  }
  throw new UnsupportedFeatureError(`guard with a custom check (${String(name)})`, where);
}

const noop: ActionSpec = { kind: 'noop' };

function readAction(machine: any, action: any, where: string): ActionSpec {
  const inline = typeof action === 'function';
  const type = typeof action === 'string' ? action : inline ? undefined : action?.type;
  const resolved = inline ? action : machine.implementations.actions[type];
  // A missing implementation or a custom (non-built-in) action only reaches the action executor,
  // which `xstate/graph` and `transition()` never run: it cannot change the snapshot.
  if (!resolved || !('resolve' in resolved)) return noop;
  const p =
    inline || typeof action === 'string' ? { params: undefined, paramsFn: null } : paramsOf(action);
  switch (resolved.type) {
    case 'xstate.assign':
      return { kind: 'assign', assignment: resolved.assignment, ...p };
    case 'xstate.raise':
      if (resolved.delay !== undefined) throw new UnsupportedFeatureError('delayed raise', where);
      if (typeof resolved.event === 'string') {
        throw new UnsupportedFeatureError('raise of a string event', where);
      }
      return { kind: 'raise', event: resolved.event, ...p };
    case 'xstate.log':
      return noop;
    default:
      throw new UnsupportedFeatureError(
        String(resolved.type).replace(/^xstate\./, '') || 'built-in action',
        where,
      );
  }
}

function kindOf(node: any, where: string): NodeKind {
  const t = node.type as string;
  if (t === 'atomic' || t === 'compound' || t === 'parallel' || t === 'final') return t;
  throw new UnsupportedFeatureError(t === 'history' ? 'history' : `state type ${t}`, where);
}

function refuseConfig(node: any, where: string): void {
  const c = node.config;
  if (node.invoke.length > 0) throw new UnsupportedFeatureError('invoke', where);
  if (c.after) throw new UnsupportedFeatureError('after', where);
  if (c.always) throw new UnsupportedFeatureError('always', where);
  if (c.route) throw new UnsupportedFeatureError('route', where);
  if (c.output !== undefined) throw new UnsupportedFeatureError('output', where);
  if (c.initial && typeof c.initial === 'object') {
    throw new UnsupportedFeatureError('initial transition object', where);
  }
}

function readTransition(machine: any, t: any, where: string): TransitionSpec {
  return {
    descriptor: t.eventType as string,
    targets: t.target ? (t.target as any[]).map((n) => n.order as number) : null,
    reenter: t.reenter === true,
    guard: t.guard === undefined ? null : readGuard(machine, t.guard, where),
    actions: (t.actions as any[]).map((a) => readAction(machine, a, where)),
  };
}

function readNode(machine: any, node: any): NodeSpec {
  const where = `#${node.id}`;
  refuseConfig(node, where);
  const kind = kindOf(node, where);
  const transitions: TransitionSpec[] = [];
  for (const list of (node.transitions as Map<string, any[]>).values()) {
    for (const t of list) transitions.push(readTransition(machine, t, where));
  }
  const children = Object.values(node.states as Record<string, any>).map((c) => c.order as number);
  return {
    order: node.order,
    id: node.id,
    key: node.key,
    kind,
    parent: node.parent ? node.parent.order : -1,
    children,
    initial: kind === 'compound' ? node.initial.target[0].order : -1,
    entry: (node.entry as any[]).map((a) => readAction(machine, a, `${where} (entry)`)),
    exit: (node.exit as any[]).map((a) => readAction(machine, a, `${where} (exit)`)),
    transitions,
    ownEvents: node.ownEvents as string[],
    tags: node.tags as string[],
    active: Object.freeze({
      path: Object.freeze([...(node.path as string[])]),
      ownEvents: Object.freeze([...(node.ownEvents as string[])]),
    }),
  };
}

/**
 * Reads `machine` into a `MachineSpec`, nodes indexed by XState's document order. Throws an
 * `UnsupportedFeatureError` naming the feature and the state node for anything outside the
 * subset (invoke, after, always, history, route, output, initial actions, delayed raise, and
 * every built-in action but assign, raise and log).
 */
export function readMachine(machine: AnyStateMachine): MachineSpec {
  const m = machine as any;
  if (m.root.config.output !== undefined) {
    throw new UnsupportedFeatureError('output', `#${m.root.id}`);
  }
  const nodes: NodeSpec[] = [];
  for (const node of (m.idMap as Map<string, any>).values()) nodes[node.order] = readNode(m, node);
  return { id: m.id, nodes };
}

/** The active state nodes and status of an XState snapshot, for the engine's initial state. */
export function snapshotParts(snapshot: unknown): {
  orders: number[];
  context: unknown;
  status: string;
  error: unknown;
} {
  const s = snapshot as any;
  return {
    orders: (s._nodes as any[]).map((n) => n.order as number),
    context: s.context,
    status: s.status,
    error: s.error,
  };
}

/**
 * The active state nodes of an XState snapshot (its `_nodes`, in document order), as the plain
 * `ActiveNode` shape: XState's state nodes have it, so they are handed out as they are.
 */
export function xstateActiveNodes(snapshot: unknown): readonly ActiveNode[] {
  return (snapshot as any)._nodes as ActiveNode[];
}

/** The `self` and `system` of an inert actor, as `xstate/graph` passes them to actions. */
export function inertActorParts(actor: unknown): { self: unknown; system: unknown } {
  const a = actor as any;
  return { self: a, system: a.system };
}

/** XState's guard combinators, told apart by their `check` function. */
const combinators = new Map<unknown, 'and' | 'or' | 'not'>([
  [checkAnd, 'and'],
  [checkOr, 'or'],
  [checkNot, 'not'],
]);

/** `guard` as the config writes it (see `GuardTerm`); undefined for a missing guard. */
function guardTerm(guard: any): GuardTerm | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return { kind: 'named', type: guard, params: undefined };
  if (guard?.check === checkStateIn && typeof guard.stateValue === 'string') {
    return { kind: 'in', stateId: guard.stateValue.replace(/^#/, '') };
  }
  const kind = combinators.get(guard?.check);
  if (kind !== undefined) {
    const args = ((guard.guards ?? []) as any[]).map(guardTerm);
    // XState's combinators always wrap real guards; an empty slot has no structure to keep.
    if (args.some((a) => a === undefined)) return { kind: 'opaque', name: String(guard) };
    return { kind, args: args as GuardTerm[] };
  }
  if (typeof guard?.type === 'string') {
    return { kind: 'named', type: guard.type, params: guard.params };
  }
  return { kind: 'opaque', name: String(guard) };
}

/** `action` as the config writes it (see `ActionRef`). */
function actionRef(action: any): ActionRef {
  if (typeof action === 'string') return { type: action, params: undefined };
  const params = action?.params;
  if (typeof action?.type === 'string') return { type: action.type, params };
  const name = typeof action === 'function' && action.name ? action.name : 'anonymous';
  return { type: name, params };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Plain copies of `node` and its descendants, registered in `out` by XState node. */
function copyNodes(node: any, parent: StatechartNode | undefined, out: Map<any, StatechartNode>) {
  const copy: Mutable<StatechartNode> = {
    id: node.id,
    key: node.key,
    type: node.type,
    path: Object.freeze([...(node.path as string[])]),
    tags: Object.freeze([...(node.tags as string[])]),
    states: {},
    parent,
    initial: { target: [] },
    transitions: new Map(),
    eventless: node.always !== undefined,
    entry: Object.freeze((node.entry as any[]).map(actionRef)),
  };
  out.set(node, copy);
  const states: Record<string, StatechartNode> = {};
  for (const [key, child] of Object.entries(node.states as Record<string, any>)) {
    states[key] = copyNodes(child, copy, out);
  }
  copy.states = Object.freeze(states);
  return copy;
}

/** XState's target nodes as their plain copies. */
function targetsOf(targets: any[] | undefined, nodes: Map<any, StatechartNode>) {
  return targets?.map((t) => nodes.get(t) as StatechartNode);
}

const statecharts = new WeakMap<AnyStateMachine, StatechartNode>();

/**
 * The statechart of `machine` as plain data (see `statechart.ts`): its root node, every node
 * below it in document order, each transition's guard and actions as the config writes them.
 * Reads structure only, never runs an implementation; the result is shared per machine and
 * must not be mutated.
 */
export function readStatechart(machine: AnyStateMachine): StatechartNode {
  const known = statecharts.get(machine);
  if (known) return known;
  const nodes = new Map<any, StatechartNode>();
  const root = copyNodes((machine as any).root, undefined, nodes);
  for (const [node, copy] of nodes) {
    const transitions = new Map<string, readonly StatechartTransition[]>();
    for (const [event, list] of node.transitions as Map<string, any[]>) {
      const read = list.map(
        (t): StatechartTransition => ({
          guard: guardTerm(t.guard),
          target: targetsOf(t.target, nodes),
          actions: Object.freeze((t.actions as any[]).map(actionRef)),
        }),
      );
      transitions.set(event, Object.freeze(read));
    }
    const writable = copy as Mutable<StatechartNode>;
    writable.transitions = transitions;
    writable.initial = { target: targetsOf(node.initial?.target, nodes) ?? [] };
  }
  statecharts.set(machine, root);
  return root;
}

/** Done event of a compound or parallel node, shaped as XState's `createDoneStateEvent`. */
export function doneStateEvent(id: string): EventObject {
  return { type: `xstate.done.state.${id}`, output: undefined } as EventObject;
}
