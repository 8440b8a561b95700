/**
 * Bounded lists and bitsets inside a state vector (`layout.ts`). Every operation keeps the
 * vector canonical: words past a list's length are zero, so equal states have equal words.
 * A list is its length word at `slot.at`, then `slot.cap` items; `base` shifts a request
 * block's relative slot to its absolute place (0 for pool and global lists).
 */
import type { ListSlot } from './layout.ts';

/** The length of the list at `base + slot.at`. */
export function listLen(w: Int32Array, base: number, slot: ListSlot): number {
  return w[base + slot.at] as number;
}

/** Item `k` of the list (no bounds check: `k` must be below its length). */
export function listAt(w: Int32Array, base: number, slot: ListSlot, k: number): number {
  return w[base + slot.at + 1 + k] as number;
}

/** Appends `x`; throws if the list is at its capacity (the layout is too small: a bug). */
export function listPush(w: Int32Array, base: number, slot: ListSlot, x: number): void {
  const at = base + slot.at;
  const n = w[at] as number;
  if (n >= slot.cap) throw new Error(`state vector: list at ${slot.at} is full (${slot.cap})`);
  w[at + 1 + n] = x;
  w[at] = n + 1;
}

/** Empties the list, zeroing its items. */
export function listClear(w: Int32Array, base: number, slot: ListSlot): void {
  const at = base + slot.at;
  w.fill(0, at + 1, at + 1 + (w[at] as number));
  w[at] = 0;
}

/** Removes the first `k` items (the rest move to the front). */
export function listDropHead(w: Int32Array, base: number, slot: ListSlot, k: number): void {
  const at = base + slot.at;
  const n = w[at] as number;
  w.copyWithin(at + 1, at + 1 + k, at + 1 + n);
  w.fill(0, at + 1 + n - k, at + 1 + n);
  w[at] = n - k;
}

/** Puts `items` in front of the list's items, in the order given. */
export function listPrepend(
  w: Int32Array,
  base: number,
  slot: ListSlot,
  items: readonly number[],
): void {
  const at = base + slot.at;
  const n = w[at] as number;
  const k = items.length;
  if (n + k > slot.cap) throw new Error(`state vector: list at ${slot.at} is full (${slot.cap})`);
  w.copyWithin(at + 1 + k, at + 1, at + 1 + n);
  for (let j = 0; j < k; j++) w[at + 1 + j] = items[j] as number;
  w[at] = n + k;
}

/** Whether the list holds `x`. */
export function listHas(w: Int32Array, base: number, slot: ListSlot, x: number): boolean {
  const at = base + slot.at;
  const end = at + 1 + (w[at] as number);
  for (let j = at + 1; j < end; j++) if (w[j] === x) return true;
  return false;
}

/**
 * The list's items as a new array. Updates take rows this way, so it is a plain loop: a
 * `subarray` and `Array.from` cost several times more on rows of a few pages.
 */
export function listItems(w: Int32Array, base: number, slot: ListSlot): number[] {
  const at = base + slot.at;
  const n = w[at] as number;
  const out: number[] = [];
  for (let k = 1; k <= n; k++) out.push(w[at + k] as number);
  return out;
}

/** Replaces the list's items with `items`. */
export function listSet(
  w: Int32Array,
  base: number,
  slot: ListSlot,
  items: readonly number[],
): void {
  listClear(w, base, slot);
  for (const x of items) listPush(w, base, slot, x);
}

/** Copies list `from` (at `fromBase`) over list `to` (at `toBase`). */
export function listCopy(
  w: Int32Array,
  fromBase: number,
  from: ListSlot,
  toBase: number,
  to: ListSlot,
): void {
  listClear(w, toBase, to);
  const n = listLen(w, fromBase, from);
  for (let k = 0; k < n; k++) listPush(w, toBase, to, listAt(w, fromBase, from, k));
}

/** Sets bit `bit` of the bitset starting at word `at`. */
export function setBit(w: Int32Array, at: number, bit: number): void {
  const i = at + (bit >>> 5);
  w[i] = (w[i] as number) | (1 << (bit & 31));
}

/** Whether bit `bit` of the bitset starting at word `at` is set. */
export function hasBit(w: Int32Array, at: number, bit: number): boolean {
  return ((w[at + (bit >>> 5)] as number) & (1 << (bit & 31))) !== 0;
}
