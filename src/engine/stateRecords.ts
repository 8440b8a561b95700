/**
 * Engine states as packed byte records, as the parallel search queues them and ships them
 * between threads. A record names no view and no object, so any thread that compiled the same
 * machine can read it. Its layout:
 * - bytes 0–3: the state's index, int32 little-endian (-1 when not yet stored);
 * - bytes 4–5: the record's length in bytes, uint16 little-endian;
 * - byte 6: the done bit;
 * - the configuration's node flags, one bit per node;
 * - a mask of the context's words, one bit per word, set where the word is not zero;
 * - each word whose bit is set, in order, zigzag-encoded as a varint (7 bits a byte).
 *
 * Most words of a serving state are zero (a page nobody owns, a request slot not in use), and
 * most of the others are small: on `incident-large` a state of 499 words and 209 nodes (2,216
 * bytes as a fixed record) packs into 155 bytes on average. A frontier of millions of states is what a
 * breadth-first level holds, so that is the difference between fitting in memory and not.
 *
 * A worker writes each new successor of the state it expands as a record (`write` with a
 * `Successor`): the words of the mask bytes the step left alone are copied from the state's own
 * record, which it has just read, and only those of the others are encoded. Encoding every word
 * took about a tenth of a worker's time on `incident-3` × `incident-2026` (a CPU profile of two
 * workers).
 */
import { Buckets, type ConfigView, type EngineState, type ViewCache } from './configView.ts';
import { ByteSlab } from './slab.ts';
import type { ChangedWords } from './stateStore.ts';
import type { VectorContext } from './vectorContext.ts';

/** What a record keeps of a configuration: its node flags (0 or 1 each) and its done bit. */
export type Flagged = Pick<ConfigView, 'flags' | 'done'>;

/**
 * What `write` is told of a successor: the words of the state it comes from, which must be the
 * scratch words of the last record read (`wordsAt`) for the record to be copied from, and the
 * words the step changed.
 */
export interface Successor {
  readonly parent: Int32Array;
  readonly changes: ChangedWords;
}

/** A configuration read before: its flags as a record packs them, and its view. */
interface PackedView {
  /** The packed flag bytes (what `Buckets` compares with a record's). */
  readonly flags: Uint8Array;
  readonly done: boolean;
  readonly view: ConfigView;
}

/** Bytes before the flags: index, length and done. */
const head = 7;

/** The record layout of one run: `nodes` state nodes, contexts of `words` words. */
export class StateRecords {
  /** The most bytes one record takes (every word set, at five bytes each). */
  readonly maxSize: number;
  private readonly flagBytes: number;
  private readonly maskBytes: number;
  /** The flags and the words of the last record read (`read`), reused by every read. */
  private readonly flags: Uint8Array;
  private readonly scratch: Int32Array;
  /**
   * The views `read` has found, by their packed flags and done bit, for the view cache they
   * belong to (`packedOf`): a record's configuration is then found from its flag bytes, a few
   * dozen, instead of unpacking one flag per node and comparing those.
   */
  private packed = new Buckets<PackedView>();
  private packedOf: ViewCache | null = null;
  private readonly packedSlab = new ByteSlab();
  /**
   * The last record read (`wordsAt`): its bytes, the offset of its mask, and the offset in
   * `readBytes` of each mask byte's words (entry `b`: the words of mask byte `b`; the last
   * entry: the record's end). `write` copies the unchanged words of a successor from it.
   */
  private readBytes: Uint8Array | null = null;
  private readMask = 0;
  private readonly groupAt: Int32Array;

  constructor(
    private readonly nodes: number,
    private readonly words: number,
  ) {
    this.flagBytes = Math.ceil(nodes / 8);
    this.maskBytes = Math.ceil(words / 8);
    this.maxSize = head + this.flagBytes + this.maskBytes + 5 * words;
    if (this.maxSize > 0xffff) {
      throw new RangeError(`state records: ${words} words and ${nodes} nodes exceed 64 KiB`);
    }
    this.flags = new Uint8Array(nodes);
    this.scratch = new Int32Array(words);
    this.groupAt = new Int32Array(this.maskBytes + 1);
  }

  /**
   * Writes the state (`view`, `words`) with `index` as a record at byte `at` of `out`, which has
   * room for `maxSize` bytes there; returns the offset just past it.
   *
   * With `from`, a successor of the state of the last record read (see `Successor`): the words
   * of each mask byte with no change are copied from that record's bytes, still in place,
   * instead of being encoded again; the record is the same, byte for byte. A record written
   * into the buffer that record is in is written whole, since it could overwrite what it copies
   * (a depth-first stack pushes over the state it popped).
   */
  write(
    out: Uint8Array,
    at: number,
    index: number,
    view: Flagged,
    words: Int32Array,
    from?: Successor,
  ): number {
    setInt32(out, at, index);
    out[at + 6] = view.done ? 1 : 0;
    const flagsAt = at + head;
    packFlags(view.flags, this.nodes, out, flagsAt);
    const mask = flagsAt + this.flagBytes;
    const base = this.readBytes;
    const count = from?.changes.changedCount ?? -1;
    if (count < 0 || base === null || from?.parent !== this.scratch || base.buffer === out.buffer) {
      let p = mask + this.maskBytes;
      for (let b = 0; b < this.maskBytes; b++) p = this.putGroup(out, mask, p, b, words);
      return endRecord(out, at, p);
    }
    const changed = from.changes.changedWords;
    const groupAt = this.groupAt;
    let p = copyBytes(base, this.readMask, this.readMask + this.maskBytes, out, mask);
    let copied = 0;
    for (let k = 0; k < count; ) {
      const b = (changed[k] as number) >>> 3;
      while (k < count && (changed[k] as number) >>> 3 === b) k++;
      p = copyBytes(base, groupAt[copied] as number, groupAt[b] as number, out, p);
      p = this.putGroup(out, mask, p, b, words);
      copied = b + 1;
    }
    p = copyBytes(base, groupAt[copied] as number, groupAt[this.maskBytes] as number, out, p);
    return endRecord(out, at, p);
  }

  /**
   * Encodes the words of mask byte `b` (words `8b` to `8b + 7`) at byte `p` of `out`, and that
   * byte at `mask + b`; returns the offset past them. Most groups are all zero, and are done on
   * one test instead of eight.
   */
  private putGroup(
    out: Uint8Array,
    mask: number,
    p0: number,
    b: number,
    words: Int32Array,
  ): number {
    const g = b << 3;
    const end = Math.min(g + 8, this.words);
    let p = p0;
    let bits = 0;
    if (end - g < 8 || orOfEight(words, g) !== 0) {
      for (let i = g; i < end; i++) {
        const w = words[i] as number;
        if (w === 0) continue;
        bits |= 1 << (i - g);
        p = putZigzag(out, p, w);
      }
    }
    out[mask + b] = bits;
    return p;
  }

  /** Whether `words` are this layout's scratch words (`wordsAt`), which the next read overwrites. */
  borrows(words: Int32Array): boolean {
    return words === this.scratch;
  }

  /** The length in bytes of the record at byte `at` of `bytes`. */
  lengthAt(bytes: Uint8Array, at: number): number {
    return (bytes[at + 4] as number) | ((bytes[at + 5] as number) << 8);
  }

  /** The index stored in the record at byte `at` of `bytes`. */
  indexAt(bytes: Uint8Array, at: number): number {
    return getInt32(bytes, at);
  }

  /** Sets the index of the record at byte `at` of `bytes`. */
  setIndex(bytes: Uint8Array, at: number, index: number): void {
    setInt32(bytes, at, index);
  }

  /**
   * The state of the record at byte `at` of `bytes`: its view from `views`, and a new context
   * that is `template` with the record's words. The words are this layout's scratch array,
   * valid until the next `read`.
   */
  read(
    bytes: Uint8Array,
    at: number,
    views: ViewCache,
    template: VectorContext,
  ): EngineState & { readonly context: VectorContext } {
    return {
      view: this.viewAt(bytes, at, views),
      context: { ...template, words: this.wordsAt(bytes, at) },
    };
  }

  /** The view of the configuration of the record at byte `at` of `bytes`, from `views`. */
  private viewAt(bytes: Uint8Array, at: number, views: ViewCache): ConfigView {
    if (this.packedOf !== views) {
      this.packed = new Buckets<PackedView>();
      this.packedOf = views;
    }
    const p = at + head;
    const done = bytes[at + 6] === 1;
    const h = packedHash(bytes, p, this.flagBytes, done);
    const known = this.packed.find(h, bytes, p, done);
    if (known !== undefined) return known.view;
    const view = this.unpackedView(bytes, p, done, views);
    const flags = this.packedSlab.copy(bytes.subarray(p, p + this.flagBytes));
    this.packed.add(h, { flags, done, view });
    return view;
  }

  /** The view of the flags packed at byte `p` of `bytes`, unpacked one node at a time. */
  private unpackedView(bytes: Uint8Array, p: number, done: boolean, views: ViewCache): ConfigView {
    const flags = this.flags;
    // The configuration's Zobrist hash is summed while unpacking, as `ViewCache.zobrist` would.
    const zobristWords = views.words;
    let zobrist = done ? views.doneWord : 0;
    for (let n = 0; n < this.nodes; n++) {
      const bit = ((bytes[p + (n >>> 3)] as number) >>> (n & 7)) & 1;
      flags[n] = bit;
      zobrist ^= (zobristWords[n] as number) & -bit;
    }
    return views.of(flags, done, zobrist);
  }

  /**
   * The words of the record at byte `at` of `bytes`, in this layout's scratch array, valid until
   * the next read.
   */
  wordsAt(bytes: Uint8Array, at: number): Int32Array {
    const words = this.scratch;
    const mask = at + head + this.flagBytes;
    let p = mask + this.maskBytes;
    const groupAt = this.groupAt;
    this.readBytes = bytes;
    this.readMask = mask;
    words.fill(0);
    for (let b = 0; b < this.maskBytes; b++) {
      groupAt[b] = p;
      let bits = bytes[mask + b] as number;
      for (let i = b << 3; bits !== 0; i++, bits >>>= 1) {
        if ((bits & 1) === 0) continue;
        let byte = bytes[p++] as number;
        let z = byte & 0x7f;
        // Most words take one byte; a longer one (up to five) is summed in floating point.
        for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
          byte = bytes[p++] as number;
          z += (byte & 0x7f) * scale;
        }
        words[i] = (z >>> 1) ^ -(z & 1);
      }
    }
    groupAt[this.maskBytes] = p;
    return words;
  }
}

/** Copies bytes `[from, to)` of `bytes` to `out` at `p`; returns the offset past them. */
function copyBytes(
  bytes: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array,
  p: number,
): number {
  let q = p;
  for (let i = from; i < to; i++) out[q++] = bytes[i] as number;
  return q;
}

/** Writes the length of the record from `at` to `end` into its head; returns `end`. */
function endRecord(out: Uint8Array, at: number, end: number): number {
  const length = end - at;
  out[at + 4] = length & 0xff;
  out[at + 5] = length >>> 8;
  return end;
}

/** A 32-bit FNV-1a hash of the `n` bytes from `p` of `bytes` and of `done`. */
export function packedHash(bytes: Uint8Array, p: number, n: number, done: boolean): number {
  let h = done ? 0x050c5d1f : 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (bytes[p + i] as number), 0x01000193);
  return h;
}

/** Packs `nodes` flags (0 or 1 each) into bits at byte `at` of `out`, eight a byte, no branch. */
function packFlags(flags: Uint8Array, nodes: number, out: Uint8Array, at: number): void {
  const whole = nodes >>> 3;
  for (let b = 0, n = 0; b < whole; b++, n += 8) {
    out[at + b] =
      (flags[n] as number) |
      ((flags[n + 1] as number) << 1) |
      ((flags[n + 2] as number) << 2) |
      ((flags[n + 3] as number) << 3) |
      ((flags[n + 4] as number) << 4) |
      ((flags[n + 5] as number) << 5) |
      ((flags[n + 6] as number) << 6) |
      ((flags[n + 7] as number) << 7);
  }
  if ((nodes & 7) === 0) return;
  let last = 0;
  for (let n = whole << 3; n < nodes; n++) last |= (flags[n] as number) << (n & 7);
  out[at + whole] = last;
}

/** The bitwise or of the eight words of `words` from `g` on. */
function orOfEight(words: Int32Array, g: number): number {
  return (
    (words[g] as number) |
    (words[g + 1] as number) |
    (words[g + 2] as number) |
    (words[g + 3] as number) |
    (words[g + 4] as number) |
    (words[g + 5] as number) |
    (words[g + 6] as number) |
    (words[g + 7] as number)
  );
}

/**
 * Writes `w` zigzag-encoded as a varint at byte `p` of `out` and returns the offset past it:
 * small negative and positive words both take few bytes, and most take one.
 */
function putZigzag(out: Uint8Array, p: number, w: number): number {
  let z = (w << 1) ^ (w >> 31);
  if (z >>> 7 === 0) {
    out[p] = z;
    return p + 1;
  }
  z >>>= 0;
  let q = p;
  while (z >= 0x80) {
    out[q++] = (z & 0x7f) | 0x80;
    z >>>= 7;
  }
  out[q] = z;
  return q + 1;
}

function setInt32(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
  out[at + 3] = v >>> 24;
}

function getInt32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) |
    ((bytes[at + 1] as number) << 8) |
    ((bytes[at + 2] as number) << 16) |
    ((bytes[at + 3] as number) << 24)
  );
}

/**
 * A growable byte array of records, appended at its end (`append`, or `reserve` and `commit`
 * around bytes copied in), and cut back with `commit`.
 */
export class RecordBytes {
  data: Uint8Array;
  length = 0;

  constructor(
    capacity: number,
    private readonly alloc: (bytes: number) => Uint8Array = (n) => new Uint8Array(n),
    private readonly release: (old: Uint8Array) => void = () => {},
  ) {
    this.data = alloc(capacity);
  }

  /** Makes room for `n` more bytes at the end and returns the offset where they go. */
  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.data.length) {
      const grown = this.alloc(Math.max(2 * this.data.length, at + n));
      grown.set(this.data.subarray(0, at));
      this.release(this.data);
      this.data = grown;
    }
    return at;
  }

  /**
   * Appends the state (`view`, `words`) with `index` as a record of layout `records`; returns
   * the offset where it starts.
   */
  append(
    records: StateRecords,
    index: number,
    view: Flagged,
    words: Int32Array,
    from?: Successor,
  ): number {
    const at = this.reserve(records.maxSize);
    this.length = records.write(this.data, at, index, view, words, from);
    return at;
  }

  /** Ends the array at `end`, the offset past the last record written. */
  commit(end: number): void {
    this.length = end;
  }
}
