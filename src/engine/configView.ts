/**
 * Per-configuration data, computed once per distinct (configuration, done) pair and shared by
 * every state in it: the key used in fingerprints, the frozen state value, XState's active
 * node objects, the handled event types (for event offering) and the tags. Many states share a
 * configuration, so this turns per-state value building into one map lookup.
 */
import type { AnyStateNode, EventObject, StateValue } from 'xstate';
import { matchesState } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import type { EngineState } from './interpreter.ts';
import type { SnapshotLike } from './types.ts';

/** Everything that depends on the configuration alone. */
export interface ConfigView {
  /** Active node orders as char codes, then `!` when done or `|` when active. */
  readonly key: string;
  readonly value: StateValue;
  readonly nodes: readonly AnyStateNode[];
  /** Distinct event types with a non-inert transition from an active node, in node order. */
  readonly ownTypes: readonly string[];
  readonly tags: ReadonlySet<string>;
  readonly done: boolean;
  /** Offered-event cache: the last user event list seen in this configuration and its result. */
  lastEvents: readonly EventObject[] | null;
  lastOffered: readonly EventObject[];
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

/** A cache of configuration views for one compiled machine. */
export class ViewCache {
  private readonly views = new Map<string, ConfigView>();

  constructor(private readonly m: CompiledMachine) {}

  /** The view of `state`'s configuration. */
  of(state: EngineState): ConfigView {
    const key = configKey(state.flags, state.done);
    return this.views.get(key) ?? this.build(key, state.flags, state.done);
  }

  /** Number of distinct configurations seen. */
  get size(): number {
    return this.views.size;
  }

  private build(key: string, flags: Uint8Array, done: boolean): ConfigView {
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
    const view: ConfigView = {
      key,
      value: deepFreeze(this.m.valueOf(flags, done)),
      nodes,
      ownTypes: [...ownTypes],
      tags,
      done,
      lastEvents: null,
      lastOffered: [],
    };
    this.views.set(key, view);
    return view;
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
