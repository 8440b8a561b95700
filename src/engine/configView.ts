/**
 * Configurations, interned: one `ConfigView` per distinct (active node set, done) pair, shared
 * by every state in it. A view holds the configuration's flags (one byte per state node, never
 * mutated), its key and hash for fingerprints, the frozen state value, the active nodes as
 * `events` functions see them, the handled event types and tags, and the selection plans. An
 * engine state is just a view and a context, so a step allocates no per-state configuration.
 *
 * Views are found by a Zobrist hash (the xor of one random word per active node, plus one for
 * done) that the interpreter updates as it enters and exits nodes, then compared byte for byte.
 */
import type { EventObject, StateValue } from 'xstate';
import { matchesState } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import { type Hash64, hashString } from './fingerprint.ts';
import type { Plan } from './selection.ts';
import type { ActiveNode, SnapshotLike } from './types.ts';

/** Everything that depends on the configuration alone. */
export interface ConfigView {
  /** The configuration: one byte per state node, 1 when active. Never mutated. */
  readonly flags: Uint8Array;
  readonly done: boolean;
  /** Zobrist hash of (flags, done). */
  readonly zobrist: number;
  /** Active node orders as char codes, then `!` when done or `|` when active. */
  readonly key: string;
  /** Hash of `key`, the configuration half of a fingerprint. */
  readonly hash: Hash64;
  readonly value: StateValue;
  /** The active nodes as `events` functions see them, in document order. */
  readonly nodes: readonly ActiveNode[];
  /** Distinct event types with a non-inert transition from an active node, in node order. */
  readonly ownTypes: readonly string[];
  readonly tags: ReadonlySet<string>;
  /** Selection plans per event type for this configuration (see `selection.ts`). */
  readonly plans: Map<string, Plan | null>;
  /** The default offered events (one bare event per own type), built on first use. */
  bareEvents: readonly EventObject[] | null;
}

/** One state of the machine as the engine stores it. */
export interface EngineState {
  readonly view: ConfigView;
  readonly context: unknown;
}

/**
 * `v` frozen, with every object below its root replaced by the equal (same JSON text) object
 * `seen` already holds, if any: the state values of configurations share their equal parts (one
 * request's regions, say) instead of each holding a copy.
 */
function internValue(v: StateValue, seen: Map<string, StateValue>, root = true): StateValue {
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, StateValue> = {};
  for (const [k, inner] of Object.entries(v)) {
    out[k] = internValue(inner as StateValue, seen, false);
  }
  // The whole value is new with its configuration: only its parts are worth sharing.
  if (root) return Object.freeze(out);
  const key = JSON.stringify(out);
  const known = seen.get(key);
  if (known !== undefined) return known;
  Object.freeze(out);
  seen.set(key, out);
  return out;
}

function configKey(flags: Uint8Array, done: boolean): string {
  const active: number[] = [];
  for (let n = 0; n < flags.length; n++) if (flags[n] === 1) active.push(n);
  return String.fromCharCode(...active) + (done ? '!' : '|');
}

function sameFlags(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The interned configurations of one compiled machine. */
export class ViewCache {
  /** One random word per state node; `doneWord` marks a done configuration. */
  readonly words: Int32Array;
  readonly doneWord: number;
  private readonly buckets = new Map<number, ConfigView | ConfigView[]>();
  private count = 0;
  /** The state values and their parts built so far, by JSON text (see `internValue`). */
  private readonly values = new Map<string, StateValue>();

  constructor(private readonly m: CompiledMachine) {
    let seed = 0x2545f491;
    const next = () => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
      return seed ^ (seed >>> 13);
    };
    this.words = Int32Array.from({ length: m.size }, next);
    this.doneWord = next();
  }

  /** The Zobrist hash of a configuration. */
  zobrist(flags: Uint8Array, done: boolean): number {
    let h = done ? this.doneWord : 0;
    for (let n = 0; n < flags.length; n++) if (flags[n] === 1) h ^= this.words[n] as number;
    return h;
  }

  /** The view of the configuration `flags` (copied if new), whose Zobrist hash is `zobrist`. */
  of(flags: Uint8Array, done: boolean, zobrist = this.zobrist(flags, done)): ConfigView {
    const found = this.buckets.get(zobrist);
    if (found !== undefined) {
      if (!Array.isArray(found)) {
        if (found.done === done && sameFlags(found.flags, flags)) return found;
      } else {
        for (const v of found) if (v.done === done && sameFlags(v.flags, flags)) return v;
      }
    }
    const view = this.build(flags.slice(), done, zobrist);
    if (found === undefined) this.buckets.set(zobrist, view);
    else if (Array.isArray(found)) found.push(view);
    else this.buckets.set(zobrist, [found, view]);
    this.count++;
    return view;
  }

  /** Number of distinct configurations seen. */
  get size(): number {
    return this.count;
  }

  private build(flags: Uint8Array, done: boolean, zobrist: number): ConfigView {
    const key = configKey(flags, done);
    const nodes: ActiveNode[] = [];
    const ownTypes = new Set<string>();
    const tags = new Set<string>();
    const specs = this.m.spec.nodes;
    for (let n = 0; n < flags.length; n++) {
      const spec = specs[n];
      if (flags[n] !== 1 || !spec) continue;
      nodes.push(spec.active);
      for (const t of spec.ownEvents) ownTypes.add(t);
      for (const t of spec.tags) tags.add(t);
    }
    return {
      flags,
      done,
      zobrist,
      key,
      hash: hashString(key, 0x1b873593, 0xcc9e2d51),
      value: internValue(this.m.stateValueOf(flags, done), this.values),
      nodes,
      ownTypes: [...ownTypes],
      tags,
      plans: new Map(),
      bareEvents: null,
    };
  }
}

const caches = new WeakMap<CompiledMachine, ViewCache>();

/**
 * The view cache of `m`, shared by every search of the same compiled machine: a view depends
 * on the machine and the configuration only, so later searches reuse earlier views and plans.
 */
export function viewsOf(m: CompiledMachine): ViewCache {
  let views = caches.get(m);
  if (!views) {
    views = new ViewCache(m);
    caches.set(m, views);
  }
  return views;
}

/**
 * The snapshot-like object that event functions, invariants and callbacks receive; also an
 * engine state (`view` and `context`), which is how `stepper` hands states out.
 */
export class EngineSnapshot<TContext> implements SnapshotLike<TContext>, EngineState {
  constructor(
    readonly view: ConfigView,
    readonly context: TContext,
  ) {}

  get value(): StateValue {
    return this.view.value;
  }

  get status(): 'active' | 'done' {
    return this.view.done ? 'done' : 'active';
  }

  get activeNodes(): readonly ActiveNode[] {
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
