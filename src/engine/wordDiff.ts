/**
 * The words in which two state vectors of one length differ, found sixteen bytes at a time by
 * a small WebAssembly SIMD function. A successor differs from its parent in a handful of words,
 * and comparing every word was the largest single cost of fingerprinting it (`hashWordsFrom`):
 * about 590 ns for `incident-large`'s 499 words in JavaScript, against about 150 ns here, the
 * copies of both vectors into the module's memory included (measured on this project's 2-core
 * machine, Node 20).
 *
 * The function, in the WebAssembly text format (`p`, `c`: byte offsets of the two vectors;
 * `bytes`: their length in bytes, a multiple of 16, the padding zero in both; `out`: where the
 * indices of the differing words go; it returns how many there are):
 *
 *     (func (export "d") (param $p i32) (param $c i32) (param $bytes i32) (param $out i32)
 *       (result i32) (local $i i32) (local $k i32) (local $j i32)
 *       (block $exit (loop $next
 *         (br_if $exit (i32.ge_u (local.get $i) (local.get $bytes)))
 *         (if (v128.any_true (v128.xor
 *               (v128.load (i32.add (local.get $p) (local.get $i)))
 *               (v128.load (i32.add (local.get $c) (local.get $i)))))
 *           (then
 *             (local.set $j (local.get $i))
 *             (loop $word
 *               (if (i32.ne (i32.load (i32.add (local.get $p) (local.get $j)))
 *                           (i32.load (i32.add (local.get $c) (local.get $j))))
 *                 (then
 *                   (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
 *                              (i32.shr_u (local.get $j) (i32.const 2)))
 *                   (local.set $k (i32.add (local.get $k) (i32.const 1)))))
 *               (br_if $word (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 4)))
 *                                      (i32.add (local.get $i) (i32.const 16)))))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *         (br $next)))
 *       (local.get $k))
 */

/** Instruction bytes (WebAssembly's binary encoding), for the function above. */
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (label: number) => [0x0c, label],
  brIf: (label: number) => [0x0d, label],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  const: (n: number) => [0x41, n],
  add: [0x6a],
  shl: [0x74],
  shrU: [0x76],
  geU: [0x4f],
  ltU: [0x49],
  ne: [0x47],
  /** `i32.load` / `i32.store`, 4-byte aligned, offset 0. */
  load: [0x28, 0x02, 0x00],
  store: [0x36, 0x02, 0x00],
  /** `v128.load`, declared 4-byte aligned (the vectors are), offset 0. */
  load128: [0xfd, 0x00, 0x02, 0x00],
  xor128: [0xfd, 0x51],
  anyTrue: [0xfd, 0x53],
} as const;

const [p, c, bytes, out, i, k, j] = [0, 1, 2, 3, 4, 5, 6];

/** `local + n`. */
const plus = (local: number, n: number) => [...op.get(local), ...op.const(n), ...op.add];

/** Loads (`load`: one word, `load128`: sixteen bytes) at `base + at` (two locals). */
const loadAt = (load: readonly number[], base: number, at: number) => [
  ...op.get(base),
  ...op.get(at),
  ...op.add,
  ...load,
];

const body: number[] = [
  ...[0x01, 0x03, 0x7f], // three i32 locals: i, k, j
  ...op.block,
  ...op.loop,
  ...op.get(i),
  ...op.get(bytes),
  ...op.geU,
  ...op.brIf(1),
  ...loadAt(op.load128, p, i),
  ...loadAt(op.load128, c, i),
  ...op.xor128,
  ...op.anyTrue,
  ...op.if,
  ...op.get(i),
  ...op.set(j),
  ...op.loop,
  ...loadAt(op.load, p, j),
  ...loadAt(op.load, c, j),
  ...op.ne,
  ...op.if,
  ...op.get(out),
  ...op.get(k),
  ...op.const(2),
  ...op.shl,
  ...op.add,
  ...op.get(j),
  ...op.const(2),
  ...op.shrU,
  ...op.store,
  ...plus(k, 1),
  ...op.set(k),
  ...op.end,
  ...plus(j, 4),
  ...op.tee(j),
  ...plus(i, 16),
  ...op.ltU,
  ...op.brIf(0),
  ...op.end, // loop $word
  ...op.end, // if
  ...plus(i, 16),
  ...op.set(i),
  ...op.br(0),
  ...op.end, // loop $next
  ...op.end, // block $exit
  ...op.get(k),
  ...op.end,
];

/** Unsigned LEB128, as the binary format writes sizes. */
function leb(n: number): number[] {
  const outBytes: number[] = [];
  let rest = n;
  do {
    let b = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) b |= 0x80;
    outBytes.push(b);
  } while (rest !== 0);
  return outBytes;
}

function section(id: number, content: readonly number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

/** The module: imports its memory as `e.m`, exports the function as `d`. */
const moduleBytes = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]),
  ...section(2, [0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x00, 0x01]),
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x01, 0x64, 0x00, 0x00]),
  ...section(10, [0x01, ...leb(body.length), ...body]),
]);

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where this runtime lacks WebAssembly SIMD. */
function wasmModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    compiled =
      typeof WebAssembly === 'object' && WebAssembly.validate(moduleBytes)
        ? new WebAssembly.Module(moduleBytes)
        : null;
  }
  return compiled;
}

type DiffFn = (p: number, c: number, bytes: number, out: number) => number;

/** Finds the words in which two vectors of `length` words differ. */
export interface WordDiffer {
  readonly length: number;
  /** After `diff`: the indices of the differing words, ascending, in `[0, count)`. */
  readonly changed: Int32Array;
  /**
   * The number of words in which `x` and `y` (both of this differ's length) differ; their
   * indices are then `changed[0 .. count)`.
   */
  diff(x: Int32Array, y: Int32Array): number;
}

/** A differ for vectors of `length` words: WebAssembly where SIMD is available, else JavaScript. */
export function wordDiffer(length: number): WordDiffer {
  return WordDiff.of(length) ?? new ScriptWordDiff(length);
}

/**
 * The WebAssembly differ. One instance per length and thread: it holds its own memory, into
 * which `diff` copies both vectors.
 */
export class WordDiff implements WordDiffer {
  readonly changed: Int32Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly fn: DiffFn;
  private readonly bytes: number;

  private constructor(
    readonly length: number,
    instance: WebAssembly.Instance,
    memory: WebAssembly.Memory,
  ) {
    const padded = (length + 3) & ~3;
    this.bytes = padded * 4;
    this.a = new Int32Array(memory.buffer, 0, length);
    this.b = new Int32Array(memory.buffer, this.bytes, length);
    this.changed = new Int32Array(memory.buffer, 2 * this.bytes, padded);
    this.fn = instance.exports.d as DiffFn;
  }

  /** A differ for vectors of `length` words, or null where WebAssembly SIMD is unavailable. */
  static of(length: number): WordDiff | null {
    const mod = wasmModule();
    if (mod === null) return null;
    const pages = Math.max(1, Math.ceil((3 * ((length + 3) & ~3) * 4) / 65536));
    const memory = new WebAssembly.Memory({ initial: pages });
    const instance = new WebAssembly.Instance(mod, { e: { m: memory } });
    return new WordDiff(length, instance, memory);
  }

  diff(x: Int32Array, y: Int32Array): number {
    this.a.set(x);
    this.b.set(y);
    return this.fn(0, this.bytes, this.bytes, 2 * this.bytes);
  }
}

/**
 * The JavaScript differ, for runtimes without WebAssembly SIMD: eight words per test, since a
 * successor differs from its parent in a handful of words (eight measured faster than four:
 * 590 against 680 ns on 499 words).
 */
export class ScriptWordDiff implements WordDiffer {
  readonly changed: Int32Array;

  constructor(readonly length: number) {
    this.changed = new Int32Array(length);
  }

  diff(x: Int32Array, y: Int32Array): number {
    const n = this.length;
    const changed = this.changed;
    let count = 0;
    let i = 0;
    for (; i + 8 <= n; i += 8) {
      const same =
        (((x[i] as number) ^ (y[i] as number)) |
          ((x[i + 1] as number) ^ (y[i + 1] as number)) |
          ((x[i + 2] as number) ^ (y[i + 2] as number)) |
          ((x[i + 3] as number) ^ (y[i + 3] as number)) |
          ((x[i + 4] as number) ^ (y[i + 4] as number)) |
          ((x[i + 5] as number) ^ (y[i + 5] as number)) |
          ((x[i + 6] as number) ^ (y[i + 6] as number)) |
          ((x[i + 7] as number) ^ (y[i + 7] as number))) ===
        0;
      if (same) continue;
      for (let j = i; j < i + 8; j++) if (x[j] !== y[j]) changed[count++] = j;
    }
    for (; i < n; i++) if (x[i] !== y[i]) changed[count++] = i;
    return count;
  }
}
