/**
 * A machine compiled once into per-node tables: kinds, parents, children, compiled entry and
 * exit actions, and per node the transitions grouped by descriptor, each with its precomputed
 * domain and entry set and its compiled guard and actions. Candidate lists per (node, event
 * type) follow XState's `getCandidates` (exact descriptor first, then wildcards by descending
 * length) and are built lazily, with a per-type mask of the subtrees that have any candidate so
 * that selection skips the rest.
 */
import type { AnyStateMachine, EventObject, StateValue } from 'xstate';
import {
  type ActionFn,
  compileActions,
  compileGuard,
  type GuardFn,
  type Moment,
  type StateValueOf,
} from './behaviour.ts';
import type { MachineSpec, NodeKind, TransitionSpec } from './machineSpec.ts';
import { matchesEventDescriptor, Structure } from './structure.ts';
import { doneStateEvent, readMachine } from './xstateInternals.ts';

/** Node kinds as small integers for the hot loop. */
export const ATOMIC = 0;
export const COMPOUND = 1;
export const PARALLEL = 2;
export const FINAL = 3;

const kindCode: Record<NodeKind, number> = { atomic: 0, compound: 1, parallel: 2, final: 3 };

/** A transition ready to run. */
export interface CompiledTransition {
  readonly source: number;
  /** Whether it has targets (targetless transitions exit and enter nothing). */
  readonly hasTargets: boolean;
  /** Transition domain; -1 is XState's undefined domain. */
  readonly domain: number;
  /** Whether the domain itself is exited (reentering transition whose source is its domain). */
  readonly exitsDomain: boolean;
  /** States entered, in document order. */
  readonly entry: readonly number[];
  readonly guard: GuardFn | null;
  readonly actions: readonly ActionFn[];
}

function compileTransition(
  structure: Structure,
  source: number,
  t: TransitionSpec,
  stateValueOf: StateValueOf,
): CompiledTransition {
  const targets = t.targets ?? [];
  const domain = structure.domain(source, targets, t.reenter);
  return {
    source,
    hasTargets: targets.length > 0,
    domain,
    exitsDomain: t.reenter && domain === source,
    entry: structure.entrySet(source, targets, t.reenter),
    guard: t.guard ? compileGuard(t.guard, stateValueOf) : null,
    actions: compileActions(t.actions),
  };
}

/** Per event type: candidates per node and which subtrees have any. */
export interface EventTypeTable {
  readonly candidates: readonly (readonly CompiledTransition[] | null)[];
  /** 1 where the node or a descendant has a candidate. */
  readonly handles: Uint8Array;
  /** The table's number: the machine's tables are numbered 0, 1, … as they are built. */
  readonly index: number;
}

/** The compiled machine. */
export class CompiledMachine {
  readonly size: number;
  readonly kind: Uint8Array;
  readonly parent: Int32Array;
  readonly children: readonly (readonly number[])[];
  readonly keys: readonly string[];
  readonly entryActions: readonly (readonly ActionFn[])[];
  readonly exitActions: readonly (readonly ActionFn[])[];
  /** Done event raised when a compound or parallel node completes. */
  readonly doneEvents: readonly EventObject[];
  readonly structure: Structure;
  private readonly byDescriptor: readonly Map<string, CompiledTransition[]>[];
  private readonly tables = new Map<string, EventTypeTable>();

  constructor(
    readonly machine: AnyStateMachine,
    readonly spec: MachineSpec,
  ) {
    const nodes = spec.nodes;
    this.size = nodes.length;
    this.structure = new Structure(nodes);
    this.kind = Uint8Array.from(nodes, (n) => kindCode[n.kind]);
    this.parent = Int32Array.from(nodes, (n) => n.parent);
    this.children = nodes.map((n) => n.children);
    this.keys = nodes.map((n) => n.key);
    this.entryActions = nodes.map((n) => compileActions(n.entry));
    this.exitActions = nodes.map((n) => compileActions(n.exit));
    this.doneEvents = nodes.map((n) => doneStateEvent(n.id));
    const stateValueOf = (at: Moment) => this.stateValueOf(at.flags, at.done);
    this.byDescriptor = nodes.map((n) => {
      const map = new Map<string, CompiledTransition[]>();
      for (const t of n.transitions) {
        const compiled = compileTransition(this.structure, n.order, t, stateValueOf);
        const list = map.get(t.descriptor);
        if (list) list.push(compiled);
        else map.set(t.descriptor, [compiled]);
      }
      return map;
    });
  }

  /** The candidate table for `eventType`, built on first use. */
  table(eventType: string): EventTypeTable {
    let t = this.tables.get(eventType);
    if (!t) {
      t = this.buildTable(eventType);
      this.tables.set(eventType, t);
    }
    return t;
  }

  private buildTable(eventType: string): EventTypeTable {
    const handles = new Uint8Array(this.size);
    const candidates = this.byDescriptor.map((map, n) => {
      const exact = map.get(eventType) ?? [];
      const wild = [...map.keys()]
        .filter((d) => d !== eventType && matchesEventDescriptor(eventType, d))
        .sort((a, b) => b.length - a.length)
        .flatMap((d) => map.get(d) ?? []);
      const list = [...exact, ...wild];
      if (list.length > 0) handles[n] = 1;
      return list.length > 0 ? list : null;
    });
    for (let n = this.size - 1; n > 0; n--) {
      if (handles[n] === 1) handles[this.parent[n] as number] = 1;
    }
    return { candidates, handles, index: this.tables.size };
  }

  /** The active child of compound node `n`, or -1. */
  activeChild(flags: Uint8Array, n: number): number {
    for (const c of this.children[n] as readonly number[]) if (flags[c] === 1) return c;
    return -1;
  }

  /**
   * The state value XState computes for a configuration (`getStateValue`): parallel children
   * in document order, or in reverse document order once the machine is done (XState sorts
   * `_nodes` by descending order when it runs the final exit actions).
   */
  stateValueOf(flags: Uint8Array, done: boolean): StateValue {
    return this.valueAt(0, flags, done);
  }

  /**
   * The state value of node `n`'s subtree in the configuration `flags` (what `stateValueOf`
   * puts under `n`'s key): a string for a compound node whose active child is atomic or final.
   */
  valueAt(n: number, flags: Uint8Array, done: boolean): StateValue {
    const kind = this.kind[n];
    if (kind === COMPOUND) {
      const c = this.activeChild(flags, n);
      if (c === -1) return {};
      const ck = this.kind[c];
      if (ck === ATOMIC || ck === FINAL) return this.keys[c] as string;
      return { [this.keys[c] as string]: this.valueAt(c, flags, done) };
    }
    const out: Record<string, StateValue> = {};
    if (kind === PARALLEL) {
      const cs = this.children[n] as readonly number[];
      for (let i = 0; i < cs.length; i++) {
        const c = cs[done ? cs.length - 1 - i : i] as number;
        out[this.keys[c] as string] = this.valueAt(c, flags, done);
      }
    }
    return out;
  }

  /**
   * The configuration of a (complete) state value: the inverse of `stateValueOf`. Throws on a key
   * that names no child.
   */
  flagsFromValue(value: StateValue): Uint8Array {
    const flags = new Uint8Array(this.size);
    flags[0] = 1;
    this.markValue(0, value, flags);
    return flags;
  }

  private childByKey(n: number, key: string): number {
    for (const c of this.children[n] as readonly number[]) if (this.keys[c] === key) return c;
    throw new Error(`state value names no child '${key}' of ${this.spec.nodes[n]?.id ?? n}`);
  }

  private markValue(n: number, value: StateValue, flags: Uint8Array): void {
    const kind = this.kind[n];
    if (kind === COMPOUND) {
      const key = typeof value === 'string' ? value : Object.keys(value)[0];
      if (key === undefined) return;
      const c = this.childByKey(n, key);
      flags[c] = 1;
      if (typeof value !== 'string') this.markValue(c, value[key] as StateValue, flags);
    } else if (kind === PARALLEL && typeof value !== 'string') {
      for (const c of this.children[n] as readonly number[]) {
        flags[c] = 1;
        this.markValue(c, value[this.keys[c] as string] ?? {}, flags);
      }
    }
  }

  /**
   * XState's `isInFinalState` over the configuration `flags`. Loops rather than `some` and
   * `every`, whose callbacks would be closures allocated on every call of a search's step.
   */
  isInFinalState(flags: Uint8Array, n: number): boolean {
    const kind = this.kind[n];
    const cs = this.children[n] as readonly number[];
    if (kind === COMPOUND) {
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i] as number;
        if (this.kind[c] === FINAL && flags[c] === 1) return true;
      }
      return false;
    }
    if (kind === PARALLEL) {
      for (let i = 0; i < cs.length; i++)
        if (!this.isInFinalState(flags, cs[i] as number)) return false;
      return true;
    }
    return kind === FINAL;
  }
}

const compiledCache = new WeakMap<AnyStateMachine, CompiledMachine>();

/**
 * Every state node's path from the root, by node index: its keys joined by `.` (`a1.decode`),
 * and '' for the root. A parent's index is below its children's, so one pass builds them all.
 */
export function nodePaths(m: CompiledMachine): string[] {
  const paths: string[] = [];
  for (let n = 0; n < m.size; n++) {
    const p = m.parent[n] as number;
    const key = m.keys[n] as string;
    paths.push(n === 0 || p < 0 ? '' : p === 0 ? key : `${paths[p]}.${key}`);
  }
  return paths;
}

/**
 * Compiles `machine` (cached per machine object). Throws `UnsupportedFeatureError` for a
 * machine outside the subset.
 */
export function compileMachine(machine: AnyStateMachine): CompiledMachine {
  let c = compiledCache.get(machine);
  if (!c) {
    c = new CompiledMachine(machine, readMachine(machine));
    compiledCache.set(machine, c);
  }
  return c;
}
