/**
 * The structural hash of a context, without serialising it. It follows `JSON.stringify`'s
 * equivalence on plain data, so that two contexts get equal hashes whenever their JSON texts
 * are equal: object keys in insertion order, keys whose value is `undefined`, a function or a
 * symbol are skipped, such array elements and non-finite numbers hash as `null`, and an object
 * with a `toJSON` method hashes as what that method returns.
 *
 * A successor's context is hashed against its parent's hash tree (`HashNode`), so that the
 * objects it shares with its parent (XState's immutable `assign` updates share everything they
 * do not replace) are not hashed again. (A `WeakMap` cache by identity was measured first: its
 * insertions cost a quarter of the search time, mostly in garbage collection.) This relies on
 * contexts never being mutated in place, which XState requires anyway.
 */
import { fmix32, type Hash64, hashString, mixA, mixB } from './fingerprint.ts';

const T_NULL = 1;
const T_TRUE = 2;
const T_FALSE = 3;
const T_INT = 4;
const T_STR = 5;
const T_ARR = 6;
const T_OBJ = 7;
const T_KEY = 8;
const T_NUM = 9;

/** Per-tag salts, distinct per lane, so that no two tags differ by the same xor in both. */
const saltA = Int32Array.of(
  0,
  0x1b873593,
  0x2d8a4f1b,
  0x5f356495,
  0x6c8e9cf5,
  0x7a3c5ba1,
  0x0b2f1c3d,
  0x3c6ef372,
  0x4e5d2a17,
  0x52dce729,
  0x68e31da4,
);
const saltB = Int32Array.of(
  0,
  0x01000193,
  0x4c957f2d,
  0x33c2a8b1,
  0x165667b1,
  0x27d4eb2f,
  0x61c88647,
  0x7feb352d,
  0x2c1b3c6d,
  0x0f1bbcdc,
  0x7ed55d16,
);

/**
 * The hash of one object (or array) of a context, with the nodes of its object-valued entries
 * in entry order (null for primitive entries). A successor's context is hashed against its
 * parent's tree: an entry that is the very same object as the parent's entry at the same
 * position reuses that node, so only the objects an update replaced are hashed again.
 */
export interface HashNode extends Hash64 {
  readonly obj: object;
  /** Number of entries. */
  readonly size: number;
  readonly kids: readonly (HashNode | null)[];
  /** A record's keys (null for arrays, or when some entry was skipped) and their hash. */
  readonly keys: readonly string[] | null;
  readonly keysA: number;
  readonly keysB: number;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function skippedByJson(x: unknown): boolean {
  const t = typeof x;
  return t === 'undefined' || t === 'function' || t === 'symbol';
}

const noKids: readonly (HashNode | null)[] = [];

/**
 * The hint for entry `i` holding `v`: the parent's node at the same position, or, when that is
 * another object, a node of the very same object at another position (entries that moved, as
 * request records do under a symmetry renaming). Only short kid lists are searched.
 */
function kidHint(kids: readonly (HashNode | null)[], i: number, v: object): HashNode | null {
  const same = kids[i] ?? null;
  if (same === null || same.obj === v || kids.length > 16) return same;
  for (const k of kids) if (k !== null && k.obj === v) return k;
  return same;
}

/**
 * Objects of primitives with fewer entries than this are not kept in their parent's tree: they
 * are cheap to hash again, and keeping them tripled the memory of each queued state (and made
 * hashing slower: the node allocations cost more than they saved). An object with an object
 * entry is always kept, even when that entry is not, so that an unchanged record of small
 * arrays (a page pool) is reused whole instead of hashed again with every parent.
 */
const retainedLeafSize = 16;

/** A record's key list and its hash. */
interface KeySet {
  readonly keys: readonly string[];
  readonly keysA: number;
  readonly keysB: number;
}

/** Structural hasher; `hashTree` takes the parent's tree as a hint. */
export class StructuralHasher {
  private readonly keys = new Map<string, Hash64>();
  private readonly keySets = new Map<string, KeySet[]>();
  /** The node handed out for small objects that no tree keeps (see `node`). */
  private readonly scratch: { -readonly [K in keyof HashNode]: HashNode[K] } = {
    a: 0,
    b: 0,
    obj: {},
    size: 0,
    kids: noKids,
    keys: null,
    keysA: 0,
    keysB: 0,
  };
  private a = 0;
  private b = 0;

  /** The hash tree of `context` (any JSON value; a primitive gets a leaf). */
  hashTree(context: unknown, hint: HashNode | null): HashNode {
    if (typeof context === 'object' && context !== null) return this.node(context, hint, false);
    this.a = 0x3c6ef372;
    this.b = 0x9e3779b9;
    this.add(context, null, 0);
    return {
      a: fmix32(this.a),
      b: fmix32(this.b),
      obj: {},
      size: 0,
      kids: noKids,
      keys: null,
      keysA: 0,
      keysB: 0,
    };
  }

  /**
   * The key-set hash of a record whose keys are `ks`, if a record with the same keys in the same
   * order was hashed before: objects built by the same code share their key lists, so one
   * lookup by the first key and a comparison replace hashing every key again.
   */
  private knownKeys(ks: readonly string[]): KeySet | null {
    const list = this.keySets.get(ks[0] ?? '');
    if (list === undefined) return null;
    for (let i = 0; i < list.length; i++) {
      const known = list[i] as KeySet;
      if (sameKeys(known.keys, ks)) return known;
    }
    return null;
  }

  private rememberKeys(set: KeySet): void {
    const first = set.keys[0] ?? '';
    const list = this.keySets.get(first);
    if (list === undefined) {
      if (this.keySets.size < 4096) this.keySets.set(first, [set]);
    } else if (list.length < 8) list.push(set);
  }

  private keyHash(k: string): Hash64 {
    let h = this.keys.get(k);
    if (!h) {
      h = hashString(k, 0x2545f491, 0x6c078965);
      if (this.keys.size < 65536) this.keys.set(k, h);
    }
    return h;
  }

  /** Mixes one tagged word; the per-lane salts make (tag, x) pairs injective over both lanes. */
  private word(tag: number, x: number): void {
    this.a = mixA(this.a, x ^ (saltA[tag] as number));
    this.b = mixB(this.b, x ^ (saltB[tag] as number));
  }

  private tagged(tag: number, s: string): void {
    const h = s.length <= 16 ? this.keyHash(s) : hashString(s, 0x2545f491, 0x6c078965);
    this.a = mixA(this.a, h.a ^ (saltA[tag] as number));
    this.b = mixB(this.b, h.b ^ (saltB[tag] as number));
  }

  /**
   * Mixes value `v`, the entry at position `i` of an object whose hint is `hint`. Returns the
   * node to keep for it in its parent's tree, or null (a primitive, or a small object of
   * primitives, which is cheaper to hash again than to keep).
   */
  private add(v: unknown, hint: HashNode | null, i: number): HashNode | null {
    switch (typeof v) {
      case 'string':
        this.tagged(T_STR, v);
        return null;
      case 'number':
        if ((v | 0) === v) this.word(T_INT, v);
        else if (Number.isFinite(v)) this.tagged(T_NUM, String(v));
        else this.word(T_NULL, 0);
        return null;
      case 'boolean':
        this.word(v ? T_TRUE : T_FALSE, 0);
        return null;
      case 'object': {
        if (v === null) {
          this.word(T_NULL, 0);
          return null;
        }
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
          // JSON.stringify serialises what toJSON returns, in the object's place.
          return this.add((v as { toJSON: () => unknown }).toJSON(), null, i);
        }
        const h = this.node(v, hint === null ? null : kidHint(hint.kids, i, v), true);
        this.a = mixA(this.a, h.a ^ (saltA[T_OBJ] as number));
        this.b = mixB(this.b, h.b ^ (saltB[T_OBJ] as number));
        return h === this.scratch ? null : h;
      }
      default:
        this.word(T_NULL, 0);
        return null;
    }
  }

  /**
   * The node of object `v`. With `scratchOk`, a small object of primitives only (one that its
   * parent's tree does not keep) gets the shared scratch node, valid until the next call.
   */
  private node(v: object, hint: HashNode | null, scratchOk: boolean): HashNode {
    if (hint !== null && hint.obj === v) return hint;
    const saveA = this.a;
    const saveB = this.b;
    this.a = 0x7f4a7c15;
    this.b = 0x1b873593;
    // Most objects hold primitives only: the row of kids is built on the first object entry.
    let kids: (HashNode | null)[] | null = null;
    // Whether some entry is an object: such a node is kept even when its entries are not, so
    // that an unchanged pool of small arrays is not hashed again.
    let nested = false;
    let keys: readonly string[] | null = null;
    let keysA = 0;
    let keysB = 0;
    if (Array.isArray(v)) {
      this.word(T_ARR, v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'object' && x !== null) nested = true;
        const kid = this.add(x, hint, i);
        if (kid === null) continue;
        kids = kids ?? new Array<HashNode | null>(v.length).fill(null);
        kids[i] = kid;
      }
    } else {
      // Contexts are plain data (checked on the initial state): own enumerable keys, in order.
      const ks = Object.keys(v);
      const vals = Object.values(v);
      let skipped = false;
      let at = 0;
      for (let i = 0; i < vals.length; i++) {
        const x = vals[i];
        if (skippedByJson(x)) {
          skipped = true;
          continue;
        }
        if (typeof x === 'object' && x !== null) nested = true;
        const kid = this.add(x, hint, at);
        if (kid !== null) {
          kids = kids ?? new Array<HashNode | null>(vals.length).fill(null);
          kids[at] = kid;
        }
        at++;
      }
      const known = skipped
        ? null
        : hint !== null && hint.keys !== null && sameKeys(hint.keys, ks)
          ? hint
          : this.knownKeys(ks);
      if (known !== null) {
        ({ keys, keysA, keysB } = known);
      } else {
        const saveValuesA = this.a;
        const saveValuesB = this.b;
        this.a = 0x2545f491;
        this.b = 0x6c078965;
        for (let i = 0; i < ks.length; i++) {
          if (!skippedByJson(vals[i])) this.tagged(T_KEY, ks[i] as string);
        }
        keysA = fmix32(this.a) | 0;
        keysB = fmix32(this.b) | 0;
        keys = skipped ? null : ks;
        this.a = saveValuesA;
        this.b = saveValuesB;
        if (keys !== null) this.rememberKeys({ keys, keysA, keysB });
      }
      this.a = mixA(this.a, keysA ^ (saltA[T_KEY] as number));
      this.b = mixB(this.b, keysB ^ (saltB[T_KEY] as number));
    }
    // Kept as int32, not uint32: a field that holds values past 2^31 is a boxed double.
    const a = fmix32(this.a) | 0;
    const b = fmix32(this.b) | 0;
    this.a = saveA;
    this.b = saveB;
    const size = Array.isArray(v) ? v.length : (keys?.length ?? 0);
    if (!nested && scratchOk && size < retainedLeafSize) {
      const scratch = this.scratch;
      scratch.a = a;
      scratch.b = b;
      return scratch;
    }
    return { a, b, obj: v, size, kids: kids ?? noKids, keys, keysA, keysB };
  }
}
