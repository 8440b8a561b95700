/**
 * Per-configuration data, computed once per distinct (configuration, done) pair and shared by
 * every state in it: the key used in fingerprints, the frozen state value, XState's active
 * node objects, the handled event types (for event offering) and the tags. Many states share a
 * configuration, so this turns per-state value building into one map lookup.
 */
import type { AnyStateNode, EventObject, StateValue } from 'xstate';
import { matchesState } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import { type Hash64, hashString } from './fingerprint.ts';
import type { EngineState } from './interpreter.ts';
import type { Plan } from './selection.ts';
import type { SnapshotLike } from './types.ts';

/** Everything that depends on the configuration alone. */
export interface ConfigView {
  /** Active node orders as char codes, then `!` when done or `|` when active. */
  readonly key: string;
  /** The configuration: one byte per state node, 1 when active. */
  readonly flags: Uint8Array;
  /** Hash of `key`, the configuration half of a fingerprint. */
  readonly hash: Hash64;
  readonly value: StateValue;
  readonly nodes: readonly AnyStateNode[];
  /** Distinct event types with a non-inert transition from an active node, in node order. */
  readonly ownTypes: readonly string[];
  readonly tags: ReadonlySet<string>;
  readonly done: boolean;
  /** Selection plans per event type for this configuration (see `selection.ts`). */
  readonly plans: Map<string, Plan | null>;
  /** The default offered events (one bare event per own type), built on first use. */
  bareEvents: readonly EventObject[] | null;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const inner of Object.values(v)) deepFreeze(inner);
    Object.freeze(v);
  }
  return v;
}

/** The configuration key of `flags` (see `ConfigView.key`). */
export function configKey(flags: Uint8Array, done: boolean): string {
  const active: number[] = [];
  for (let n = 0; n < flags.length; n++) if (flags[n] === 1) active.push(n);
  return String.fromCharCode(...active) + (done ? '!' : '|');
}

function sameFlags(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A cache of configuration views for one compiled machine, bucketed by a hash of the flags. */
export class ViewCache {
  private readonly buckets = new Map<number, ConfigView[]>();
  private count = 0;

  constructor(private readonly m: CompiledMachine) {}

  /** The view of `state`'s configuration. */
  of(state: EngineState): ConfigView {
    const flags = state.flags;
    let h = state.done ? 0x9e3779b9 : 0x811c9dc5;
    for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ (flags[i] as number), 0x01000193);
    const bucket = this.buckets.get(h);
    if (bucket) {
      for (let i = 0; i < bucket.length; i++) {
        const v = bucket[i] as ConfigView;
        if (v.done === state.done && sameFlags(v.flags, flags)) return v;
      }
    }
    const view = this.build(flags.slice(), state.done);
    if (bucket) bucket.push(view);
    else this.buckets.set(h, [view]);
    this.count++;
    return view;
  }

  /** Number of distinct configurations seen. */
  get size(): number {
    return this.count;
  }

  private build(flags: Uint8Array, done: boolean): ConfigView {
    const key = configKey(flags, done);
    const nodes: AnyStateNode[] = [];
    const ownTypes = new Set<string>();
    const tags = new Set<string>();
    const specs = this.m.spec.nodes;
    for (let n = 0; n < flags.length; n++) {
      const spec = specs[n];
      if (flags[n] !== 1 || !spec) continue;
      nodes.push(spec.stateNode);
      for (const t of spec.ownEvents) ownTypes.add(t);
      for (const t of spec.tags) tags.add(t);
    }
    return {
      key,
      flags,
      hash: hashString(key, 0x1b873593, 0xcc9e2d51),
      value: deepFreeze(this.m.valueOf(flags, done)),
      nodes,
      ownTypes: [...ownTypes],
      tags,
      done,
      plans: new Map(),
      bareEvents: null,
    };
  }
}

/** The snapshot-like object that event functions, invariants and callbacks receive. */
export class EngineSnapshot<TContext> implements SnapshotLike<TContext> {
  constructor(
    private readonly view: ConfigView,
    readonly context: TContext,
  ) {}

  get value(): StateValue {
    return this.view.value;
  }

  get status(): 'active' | 'done' {
    return this.view.done ? 'done' : 'active';
  }

  get _nodes(): readonly AnyStateNode[] {
    return this.view.nodes;
  }

  matches(value: StateValue): boolean {
    return matchesState(value, this.view.value);
  }

  hasTag(tag: string): boolean {
    return this.view.tags.has(tag);
  }

  /** Plain `{ value, context }` (what `JSON.stringify` and test matchers see). */
  toJSON(): { value: StateValue; context: TContext } {
    return { value: this.view.value, context: this.context };
  }
}
