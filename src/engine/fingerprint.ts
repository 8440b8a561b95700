/**
 * 64-bit state fingerprints without serialising: a structural hash of the context, two
 * independent 32-bit lanes mixed with Murmur3's block step (different seeds and constants per
 * lane) and finished with Murmur3's `fmix32`. It follows `JSON.stringify`'s equivalence on
 * plain data, so that two contexts get equal fingerprints whenever their JSON texts are equal:
 * object keys in insertion order, keys whose value is `undefined`, a function or a symbol are
 * skipped, such array elements and non-finite numbers hash as `null`, and an object with a
 * `toJSON` method hashes as its JSON text.
 *
 * A successor's context is hashed against its parent's hash tree (`HashNode`), so that the
 * objects it shares with its parent (XState's immutable `assign` updates share everything they
 * do not replace) are not hashed again. (A `WeakMap` cache by identity was measured first: its
 * insertions cost a quarter of the search time, mostly in garbage collection.) This relies on
 * contexts never being mutated in place, which XState requires anyway.
 */

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function mixA(h: number, k0: number): number {
  let k = Math.imul(k0, 0xcc9e2d51);
  k = Math.imul(rotl(k, 15), 0x1b873593);
  return (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
}

function mixB(h: number, k0: number): number {
  let k = Math.imul(k0, 0x85ebca77);
  k = Math.imul(rotl(k, 17), 0xc2b2ae3d);
  return (Math.imul(rotl(h ^ k, 11), 9) + 0x27d4eb2f) | 0;
}

/** Murmur3's finaliser. */
export function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 64-bit hash as two 32-bit halves. */
export interface Hash64 {
  readonly a: number;
  readonly b: number;
}

const T_NULL = 1;
const T_TRUE = 2;
const T_FALSE = 3;
const T_INT = 4;
const T_STR = 5;
const T_ARR = 6;
const T_OBJ = 7;
const T_KEY = 8;
const T_NUM = 9;
const T_JSON = 10;

/** Hashes a string into both lanes. */
export function hashString(s: string, seedA: number, seedB: number): Hash64 {
  let a = seedA;
  let b = seedB;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = mixA(a, c);
    b = mixB(b, c);
  }
  return { a: fmix32(a ^ s.length), b: fmix32(b ^ s.length) };
}

/**
 * The hash of one object (or array) of a context, with the nodes of its object-valued entries
 * in entry order (null for primitive entries). A successor's context is hashed against its
 * parent's tree: an entry that is the very same object as the parent's entry at the same
 * position reuses that node, so only the objects an update replaced are hashed again.
 */
export interface HashNode extends Hash64 {
  readonly obj: object;
  readonly kids: readonly (HashNode | null)[];
}

/** Structural hasher; `hashTree` takes the parent's tree as a hint. */
export class StructuralHasher {
  private readonly keys = new Map<string, Hash64>();
  private a = 0;
  private b = 0;

  /** The hash tree of `context` (any JSON value; a primitive gets a leaf). */
  hashTree(context: unknown, hint: HashNode | null): HashNode {
    if (typeof context === 'object' && context !== null) return this.node(context, hint);
    this.a = 0x3c6ef372;
    this.b = 0x9e3779b9;
    this.add(context, null, null, 0);
    return { a: fmix32(this.a), b: fmix32(this.b), obj: {}, kids: [] };
  }

  private keyHash(k: string): Hash64 {
    let h = this.keys.get(k);
    if (!h) {
      h = hashString(k, 0x2545f491, 0x6c078965);
      if (this.keys.size < 65536) this.keys.set(k, h);
    }
    return h;
  }

  private word(tag: number, x: number): void {
    this.a = mixA(mixA(this.a, tag), x);
    this.b = mixB(mixB(this.b, tag), x);
  }

  private tagged(tag: number, s: string): void {
    const h = s.length <= 16 ? this.keyHash(s) : hashString(s, 0x2545f491, 0x6c078965);
    this.word(tag, h.a);
    this.b = mixB(this.b, h.b);
  }

  /** Mixes value `v`, the entry at position `i`; object entries are recorded in `kids`. */
  private add(
    v: unknown,
    kids: (HashNode | null)[] | null,
    hint: HashNode | null,
    i: number,
  ): void {
    switch (typeof v) {
      case 'string':
        this.tagged(T_STR, v);
        break;
      case 'number':
        if ((v | 0) === v) this.word(T_INT, v);
        else if (Number.isFinite(v)) this.tagged(T_NUM, String(v));
        else this.word(T_NULL, 0);
        break;
      case 'boolean':
        this.word(v ? T_TRUE : T_FALSE, 0);
        break;
      case 'object':
        if (v === null) this.word(T_NULL, 0);
        else {
          const h = this.node(v, hint === null ? null : (hint.kids[i] ?? null));
          this.word(T_OBJ, h.a);
          this.b = mixB(this.b, h.b);
          kids?.push(h);
          return;
        }
        break;
      default:
        this.word(T_NULL, 0);
    }
    kids?.push(null);
  }

  private node(v: object, hint: HashNode | null): HashNode {
    if (hint !== null && hint.obj === v) return hint;
    const saveA = this.a;
    const saveB = this.b;
    this.a = 0x7f4a7c15;
    this.b = 0x1b873593;
    const kids: (HashNode | null)[] = [];
    if (Array.isArray(v)) {
      this.word(T_ARR, v.length);
      for (let i = 0; i < v.length; i++) this.add(v[i], kids, hint, i);
    } else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      this.tagged(T_JSON, JSON.stringify(v));
    } else {
      const rec = v as Record<string, unknown>;
      for (const k in rec) {
        if (!Object.hasOwn(rec, k)) continue;
        const x = rec[k];
        const t = typeof x;
        if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
        this.tagged(T_KEY, k);
        this.add(x, kids, hint, kids.length);
      }
    }
    const h: HashNode = { a: fmix32(this.a), b: fmix32(this.b), obj: v, kids };
    this.a = saveA;
    this.b = saveB;
    return h;
  }
}

/** Combines a configuration hash and a context hash into the final 64-bit fingerprint. */
export function combine(config: Hash64, context: Hash64, out: Uint32Array): void {
  out[0] = fmix32(mixA(mixA(0x811c9dc5, config.a), context.a));
  out[1] = fmix32(mixB(mixB(0x9747b28c, config.b), context.b));
}

/**
 * The birthday bound on a fingerprint collision among `n` distinct states, assuming uniform
 * 64-bit fingerprints: `n(n-1)/2 / 2^64`.
 */
export function collisionProbability(n: number): number {
  return (n * (n - 1)) / 2 / 2 ** 64;
}
