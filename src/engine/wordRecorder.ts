/**
 * Recorded words: an `Int32Array` stand-in that logs every word a computation reads or writes,
 * for the self-checks of the partial-order reduction (`--por-check`, see `src/checker/serving/
 * servingPor.ts`) and of the properties' declared reads (`--reads-check`, see
 * `src/checker/serving/recordReads.ts`). It is a `Proxy` over a real array and is never used in
 * the search's hot path.
 *
 * What it logs, so that a computation's footprint is complete:
 * - an index read (`w[i]`) is a read of word i; an index write (`w[i] = x`) a write;
 * - `fill` writes its range; `copyWithin` reads its source range and writes its target range;
 * - `subarray` reads its whole range (the view it returns is a plain array: it must only be
 *   read, as `listItems` does); `slice()` of the whole array returns recorded words over a copy
 *   with the same log (as `vectorAssign` copies under XState); a part `slice` reads its range;
 * - `length` is not a word. Any other property or method throws, so that an access the log
 *   cannot account for fails loudly instead of leaving a word out.
 */

/** The words a computation read and wrote. */
export interface WordLog {
  readonly reads: Set<number>;
  readonly writes: Set<number>;
}

/** An empty log. */
export function wordLog(): WordLog {
  return { reads: new Set(), writes: new Set() };
}

const targets = new WeakMap<object, Int32Array>();

/** The real array behind recorded words, or undefined for any other value. */
export function recordedTarget(words: unknown): Int32Array | undefined {
  return typeof words === 'object' && words !== null ? targets.get(words) : undefined;
}

/** `x` as `TypedArray` methods read a relative index: negative counts from `len`, clamped. */
function relative(x: number | undefined, len: number, fallback: number): number {
  if (x === undefined) return fallback;
  const i = Math.trunc(x);
  return i < 0 ? Math.max(len + i, 0) : Math.min(i, len);
}

function addRange(set: Set<number>, from: number, to: number): void {
  for (let i = from; i < to; i++) set.add(i);
}

function indexOf(key: string | symbol): number {
  if (typeof key !== 'string') return -1;
  const i = Number(key);
  return Number.isInteger(i) && i >= 0 && String(i) === key ? i : -1;
}

/**
 * Words that read and write `target` and log every word touched into `log` (see the module
 * doc). `instanceof Int32Array` holds for them.
 */
export function recordingWords(target: Int32Array, log: WordLog): Int32Array {
  const len = target.length;
  const methods: Record<string, (...args: number[]) => unknown> = {
    fill: (value = 0, start?: number, end?: number) => {
      const [from, to] = [relative(start, len, 0), relative(end, len, len)];
      addRange(log.writes, from, to);
      target.fill(value, from, to);
      return proxy;
    },
    copyWithin: (to0 = 0, start?: number, end?: number) => {
      const to = relative(to0, len, 0);
      const [from, stop] = [relative(start, len, 0), relative(end, len, len)];
      const count = Math.min(stop - from, len - to);
      if (count <= 0) return proxy;
      addRange(log.reads, from, from + count);
      addRange(log.writes, to, to + count);
      target.copyWithin(to, from, from + count);
      return proxy;
    },
    subarray: (start?: number, end?: number) => {
      const [from, to] = [relative(start, len, 0), relative(end, len, len)];
      addRange(log.reads, from, to);
      return target.subarray(from, to);
    },
    slice: (start?: number, end?: number) => {
      const [from, to] = [relative(start, len, 0), relative(end, len, len)];
      if (from === 0 && to === len) return recordingWords(target.slice(), log);
      addRange(log.reads, from, to);
      return target.slice(from, to);
    },
  };
  const proxy: Int32Array = new Proxy(target, {
    get(t, key) {
      const i = indexOf(key);
      if (i >= 0) {
        log.reads.add(i);
        return t[i];
      }
      if (key === 'length') return len;
      if (typeof key === 'string' && Object.hasOwn(methods, key)) return methods[key];
      throw new Error(`recorded words: unrecorded access to ${String(key)}`);
    },
    set(t, key, value) {
      const i = indexOf(key);
      if (i < 0) throw new Error(`recorded words: unrecorded write to ${String(key)}`);
      log.writes.add(i);
      t[i] = value as number;
      return true;
    },
  });
  targets.set(proxy, target);
  return proxy;
}
