/**
 * Engine states as fixed-size records in an `Int32Array`, as the parallel search ships them
 * between threads: `[index, done, flags…, words…]`, where `flags` are the configuration's node
 * flags, four bytes to a word, and `words` the vector context's words. A record names no view
 * and no object, so any thread that compiled the same machine can read it.
 */
import type { ConfigView, EngineState, ViewCache } from './configView.ts';
import type { VectorContext } from './vectorContext.ts';

/** Words before the flags: the state's index (-1 when not yet stored) and its done bit. */
const head = 2;

/** The record layout of one run: `nodes` state nodes, contexts of `words` words. */
export class StateRecords {
  /** Words of one record. */
  readonly size: number;
  private readonly flagWords: number;

  constructor(
    private readonly nodes: number,
    words: number,
  ) {
    this.flagWords = Math.ceil(nodes / 4);
    this.size = head + this.flagWords + words;
  }

  /** Writes the state (`view`, `words`) with `index` as record `r` of `out`. */
  write(out: Int32Array, r: number, index: number, view: ConfigView, words: Int32Array): void {
    const at = r * this.size;
    out[at] = index;
    out[at + 1] = view.done ? 1 : 0;
    const bytes = new Uint8Array(out.buffer, out.byteOffset + (at + head) * 4, this.flagWords * 4);
    bytes.fill(0);
    bytes.set(view.flags);
    out.set(words, at + head + this.flagWords);
  }

  /** Copies record `r` of `from` into record `s` of `to`, with index `index`. */
  copy(from: Int32Array, r: number, to: Int32Array, s: number, index: number): void {
    const n = this.size;
    to.set(from.subarray(r * n, (r + 1) * n), s * n);
    to[s * n] = index;
  }

  /** The index stored in record `r` of `records`. */
  indexOf(records: Int32Array, r: number): number {
    return records[r * this.size] as number;
  }

  /**
   * The state of record `r`: its view from `views`, and a context that is `template` with the
   * record's words (a view on `records`, valid while `records` is).
   */
  read(
    records: Int32Array,
    r: number,
    views: ViewCache,
    template: VectorContext,
  ): EngineState & { readonly context: VectorContext } {
    const at = r * this.size;
    const flags = new Uint8Array(records.buffer, records.byteOffset + (at + head) * 4, this.nodes);
    const start = at + head + this.flagWords;
    return {
      view: views.of(flags, records[at + 1] === 1),
      context: { ...template, words: records.subarray(start, at + this.size) },
    };
  }
}
