/**
 * Configurations, interned: one `ConfigView` per distinct (active node set, done) pair, shared
 * by every state in it. A view holds the configuration's flags (one byte per state node, never
 * mutated, carved out of shared slabs), its key and hash for fingerprints and the frozen state
 * value; the active nodes as `events` functions see them, the handled event types and tags, and
 * the selection plans are made on first use, since a search reads them for few of its
 * configurations. An engine state is just a view and a context, so a step allocates no
 * per-state configuration.
 *
 * Views are found by a Zobrist hash (the xor of one random word per active node, plus one for
 * done) that the interpreter updates as it enters and exits nodes, then compared byte for byte.
 *
 * A machine whose root is parallel (the serving machine: one region per request) has far more
 * configurations than any of its root's children has sub-configurations, so a new view is put
 * together from parts: one per child of the root, interned by the child's subtree (document
 * order makes it a contiguous range of nodes), each holding that subtree's state value, active
 * nodes, event types, tags and selection plans. Building a view then costs a lookup per child
 * instead of a walk and a serialisation, and such a view selects by its parts' plans
 * (`selectByParts`) instead of plans of its own.
 */
import type { EventObject, StateValue } from 'xstate';
import { matchesState } from 'xstate';
import { type CompiledMachine, type CompiledTransition, PARALLEL } from './compiledMachine.ts';
import { type Hash64, hashString } from './fingerprint.ts';
import type { Plan, SubtreePlans } from './selection.ts';
import { ByteSlab } from './slab.ts';
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
  /**
   * Selection plans per event type for this configuration (see `selection.ts`), made on first
   * use: a configuration put together from parts selects by its parts' plans instead.
   */
  readonly plans: Map<string, Plan | null>;
  /**
   * The parts of the root's children, in child order, when the root is parallel and the
   * configuration is not done (see the module doc); null otherwise.
   */
  readonly parts: readonly ConfigPart[] | null;
  /** The default offered events (one bare event per own type), built on first use. */
  bareEvents: readonly EventObject[] | null;
  /**
   * The configurations reached from this one by macrosteps that took a single transition, by
   * that transition (see `Interpreter`); null until the first.
   */
  after: Map<CompiledTransition, ConfigView> | null;
}

/** What a view takes from one child subtree of a parallel root (see the module doc). */
export interface ConfigPart extends SubtreePlans {
  /** The subtree's flags (its range of `ConfigView.flags`). */
  readonly flags: Uint8Array;
  /** The xor of the Zobrist words of the subtree's active nodes. */
  readonly zobrist: number;
  /** The subtree's state value (interned: see `internValue`). */
  readonly value: StateValue;
  readonly nodes: readonly ActiveNode[];
  readonly ownTypes: readonly string[];
  readonly tags: readonly string[];
}

/** One state of the machine as the engine holds it. */
export interface EngineState {
  readonly view: ConfigView;
  readonly context: unknown;
}

/**
 * `v` frozen, with every object below its root replaced by the equal (same JSON text) object
 * `seen` already holds, if any: the state values of configurations share their equal parts (one
 * request's regions, say) instead of each holding a copy. `root`: `v` itself is not shared.
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

/** Whether `a` equals `b` from `from` on (for `a.length` bytes). */
function sameFlags(a: Uint8Array, b: Uint8Array, from: number): boolean {
  // A whole configuration is compared natively; a subtree's range byte by byte.
  if (from === 0 && a.length === b.length) return Buffer.compare(a, b) === 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}

/** Flags, with a done flag for a whole configuration (none for a subtree's). */
interface Flagged {
  readonly flags: Uint8Array;
  readonly done?: boolean;
}

function matches(item: Flagged, flags: Uint8Array, from: number, done?: boolean): boolean {
  return item.done === done && sameFlags(item.flags, flags, from);
}

/** What a configuration's active nodes give (`ConfigView.nodes`, `ownTypes` and `tags`). */
interface Active {
  readonly nodes: readonly ActiveNode[];
  readonly ownTypes: readonly string[];
  readonly tags: ReadonlySet<string>;
}

/**
 * A view, with what is filled in on use: its active nodes, types and tags (a search reads them
 * for few of its configurations: `events` functions cache what they derive from them, and
 * guards and properties read the value and the context), plans, bare events, successors.
 */
class View implements ConfigView {
  private planMap: Map<string, Plan | null> | null = null;
  bareEvents: readonly EventObject[] | null = null;
  after: Map<CompiledTransition, ConfigView> | null = null;
  private built: Active | null = null;

  constructor(
    private readonly cache: ViewCache,
    readonly flags: Uint8Array,
    readonly done: boolean,
    readonly zobrist: number,
    readonly key: string,
    readonly hash: Hash64,
    readonly value: StateValue,
    readonly parts: readonly ConfigPart[] | null,
  ) {}

  get plans(): Map<string, Plan | null> {
    this.planMap ??= new Map();
    return this.planMap;
  }

  get nodes(): readonly ActiveNode[] {
    return this.active().nodes;
  }

  get ownTypes(): readonly string[] {
    return this.active().ownTypes;
  }

  get tags(): ReadonlySet<string> {
    return this.active().tags;
  }

  private active(): Active {
    this.built ??= this.cache.activeOf(this);
    return this.built;
  }
}

/**
 * Configurations (or subtree configurations) by a 32-bit hash of their flags, with the items of
 * one hash in a list on a collision.
 */
export class Buckets<T extends Flagged> {
  private readonly map = new Map<number, T | T[]>();

  /** The item with hash `h` whose flags are those of `flags` from `from` on, and `done`. */
  find(h: number, flags: Uint8Array, from: number, done?: boolean): T | undefined {
    const found = this.map.get(h);
    if (found === undefined) return undefined;
    if (!Array.isArray(found)) return matches(found, flags, from, done) ? found : undefined;
    for (const item of found) if (matches(item, flags, from, done)) return item;
    return undefined;
  }

  /** Adds `item` under hash `h`. */
  add(h: number, item: T): void {
    const found = this.map.get(h);
    if (found === undefined) this.map.set(h, item);
    else if (Array.isArray(found)) found.push(item);
    else this.map.set(h, [found, item]);
  }
}

/** A child subtree of a parallel root: its node range `[from, to)` and its parts. */
interface Subtree {
  readonly from: number;
  readonly to: number;
  /** The child's key in the root's state value. */
  readonly key: string;
  readonly parts: Buckets<ConfigPart>;
  /** The same parts by their (interned) state value. */
  readonly byValue: Map<StateValue, ConfigPart>;
}

/** The interned configurations of one compiled machine. */
export class ViewCache {
  /** One random word per state node; `doneWord` marks a done configuration. */
  readonly words: Int32Array;
  readonly doneWord: number;
  private readonly views = new Buckets<ConfigView>();
  private count = 0;
  /** The state values and their parts built so far, by JSON text (see `internValue`). */
  private readonly values = new Map<string, StateValue>();
  /** With a parallel root, its children's subtrees (see `subtreesOf`); empty otherwise. */
  private readonly subtrees: readonly Subtree[];
  /** Where the flags of new configurations are copied to. */
  private readonly flagSlab = new ByteSlab();
  /** Flags put together by `ofValue` (the root active), reused. */
  private readonly scratch: Uint8Array;

  constructor(private readonly m: CompiledMachine) {
    let seed = 0x2545f491;
    const next = () => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
      return seed ^ (seed >>> 13);
    };
    this.words = Int32Array.from({ length: m.size }, next);
    this.doneWord = next();
    this.subtrees = m.kind[0] === PARALLEL ? subtreesOf(m) : [];
    this.scratch = new Uint8Array(m.size);
    this.scratch[0] = 1;
  }

  /** The Zobrist hash of a configuration. */
  zobrist(flags: Uint8Array, done: boolean): number {
    return this.xorOf(flags, 0, flags.length) ^ (done ? this.doneWord : 0);
  }

  /** The xor of the words of the active nodes of `flags` in `[from, to)`. */
  private xorOf(flags: Uint8Array, from: number, to: number): number {
    let h = 0;
    for (let n = from; n < to; n++) if (flags[n] === 1) h ^= this.words[n] as number;
    return h;
  }

  /**
   * The view of the configuration whose state value is `value` (as `stateValueOf` gives it).
   * A value made of the parts' own values (a symmetry's image moves them between requests) is
   * put together from them; any other is walked (`flagsFromValue`).
   */
  ofValue(value: StateValue, done: boolean): ConfigView {
    if (!done && this.subtrees.length > 0 && typeof value === 'object') {
      const flags = this.scratch;
      let zobrist = this.words[0] as number;
      let known = true;
      for (const { from, key, byValue } of this.subtrees) {
        const part = byValue.get(value[key] as StateValue);
        if (part === undefined) {
          known = false;
          break;
        }
        flags.set(part.flags, from);
        zobrist ^= part.zobrist;
      }
      if (known) return this.of(flags, false, zobrist);
    }
    return this.of(this.m.flagsFromValue(value), done);
  }

  /** The view of the configuration `flags` (copied if new), whose Zobrist hash is `zobrist`. */
  of(flags: Uint8Array, done: boolean, zobrist = this.zobrist(flags, done)): ConfigView {
    const found = this.views.find(zobrist, flags, 0, done);
    if (found !== undefined) return found;
    const view = this.build(this.flagSlab.copy(flags), done, zobrist);
    this.views.add(zobrist, view);
    this.count++;
    return view;
  }

  /** Number of distinct configurations seen. */
  get size(): number {
    return this.count;
  }

  private build(flags: Uint8Array, done: boolean, zobrist: number): ConfigView {
    const key = configKey(flags, done);
    const hash = hashString(key, 0x1b873593, 0xcc9e2d51);
    const parts = done || this.subtrees.length === 0 ? null : this.partsOf(flags);
    if (parts === null) {
      const value = internValue(this.m.stateValueOf(flags, done), this.values);
      return new View(this, flags, done, zobrist, key, hash, value, null);
    }
    const value: Record<string, StateValue> = {};
    const cs = this.m.children[0] as readonly number[];
    for (let i = 0; i < parts.length; i++) {
      value[this.m.keys[cs[i] as number] as string] = (parts[i] as ConfigPart).value;
    }
    return new View(this, flags, done, zobrist, key, hash, Object.freeze(value), parts);
  }

  /**
   * The active nodes, event types and tags of `view` (one of this cache's): walked from its
   * flags, or put together from the root's and its parts'.
   */
  activeOf(view: ConfigView): Active {
    const { flags, parts } = view;
    if (parts === null) {
      const { nodes, ownTypes, tags } = this.active(flags, 0, flags.length);
      return { nodes, ownTypes, tags: new Set(tags) };
    }
    // The root is active in every configuration; its children's subtrees follow it in
    // document order.
    const root = this.active(flags, 0, 1);
    const nodes = [...root.nodes];
    const types = new Set(root.ownTypes);
    const tags = new Set(root.tags);
    for (const part of parts) {
      for (const node of part.nodes) nodes.push(node);
      for (const t of part.ownTypes) types.add(t);
      for (const t of part.tags) tags.add(t);
    }
    return { nodes, ownTypes: [...types], tags };
  }

  /** The parts of `flags`, one per child of the (parallel) root, built where new. */
  private partsOf(flags: Uint8Array): ConfigPart[] {
    const out: ConfigPart[] = [];
    for (const { from, to, parts, byValue } of this.subtrees) {
      const h = this.xorOf(flags, from, to);
      let part = parts.find(h, flags, from);
      if (part === undefined) {
        part = {
          flags: flags.slice(from, to),
          zobrist: h,
          value: internValue(this.m.valueAt(from, flags, false), this.values, false),
          ...this.active(flags, from, to),
          plans: [],
        };
        parts.add(h, part);
        byValue.set(part.value, part);
      }
      out.push(part);
    }
    return out;
  }

  /** The active nodes of `flags` in `[from, to)`, their distinct event types and their tags. */
  private active(
    flags: Uint8Array,
    from: number,
    to: number,
  ): { nodes: ActiveNode[]; ownTypes: string[]; tags: string[] } {
    const nodes: ActiveNode[] = [];
    const ownTypes = new Set<string>();
    const tags = new Set<string>();
    const specs = this.m.spec.nodes;
    for (let n = from; n < to; n++) {
      const spec = specs[n];
      if (flags[n] !== 1 || !spec) continue;
      nodes.push(spec.active);
      for (const t of spec.ownEvents) ownTypes.add(t);
      for (const t of spec.tags) tags.add(t);
    }
    return { nodes, ownTypes: [...ownTypes], tags: [...tags] };
  }
}

/**
 * The subtree of each child of `m`'s (parallel) root: XState numbers nodes in document order,
 * so a child's subtree is the range from the child to the next child (or the end). Checked, not
 * assumed: a node whose parent lies outside its range is an error.
 */
function subtreesOf(m: CompiledMachine): Subtree[] {
  const cs = m.children[0] as readonly number[];
  if (cs.length > 0 && cs[0] !== 1) throw new Error("state node 1 is not the root's first child");
  return cs.map((from, i) => {
    const to = cs[i + 1] ?? m.size;
    for (let n = from + 1; n < to; n++) {
      const p = m.parent[n] as number;
      if (p < from || p >= n) throw new Error(`state node ${n} is not in document order`);
    }
    const key = m.keys[from] as string;
    return { from, to, key, parts: new Buckets<ConfigPart>(), byValue: new Map() };
  });
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
