/**
 * Symmetry reduction for kvcheck's composed serving machine: a canonicaliser for `explore`, and
 * the orbit sizes that count the unreduced space.
 *
 * The group: permutations of the scenario's requests that map each request to one with the same
 * parameters (every `RequestSpec` field but `id` and `tenant`) and keep the tenant partition
 * (two requests share a tenant exactly when their images do). Such a permutation renames
 * requests and, through the partition, tenants; every region of a request is built by the same
 * factory from its id, pools treat requests alike, and properties compare tenants only for
 * equality, so behaviour and verdicts are invariant under it. Built-in scenarios give each
 * request different parameters, so there the group is trivial and the canonicaliser is the
 * identity.
 *
 * The group acts on the state vector (`machines/layout.ts`) directly. A permutation π (request
 * `i` becomes request `π(i)`) moves each request's region states in the state value to π's
 * image of its id, moves request block `i` to block `π(i)`, and renames every word that names a
 * request: codes `c ≠ 0` become `π(c − 1) + 1` in page owners, slot writers and stray writes,
 * and in each request's read bitset the bit of writer `c` moves to the bit of its new code.
 * No other word names a request (slots, pages, counts and budgets do not; tenants and prefix
 * groups are static tables of the layout). `permuteState` is the same action on the decoded
 * context, where the read sets stay sorted by `compareReads`.
 *
 * The representative of a state is its smallest image in an order that compares, request slot
 * by request slot (scenario order), the slot's region states (by their JSON text, so that
 * every canonicaliser, on any thread, picks the same representative) and then its block words before the read bitset, and breaks the
 * remaining ties on the whole vector, word by word. A slot's key mentions no request code (the
 * read bitset, the only part of a block that does, is left to the tie-break), so the key of an
 * image's slot is the key of the request moved there, and most permutations are ruled out by
 * comparing keys in place; only those that tie are imaged and compared whole. Two images that
 * tie everywhere have equal region states and equal words: they are the same state, so the
 * order is total on an orbit and every orbit has exactly one representative.
 *
 * Pages are not permuted: freeing sorts the freed pages by id before prepending them to the
 * free list, and allocation takes from its head, so which page a request gets next depends on
 * page ids, and renaming pages does not commute with the machine's steps. Page symmetry would
 * merge states that behave differently; it is left out.
 */
import type {
  DecodedContext,
  KvRead,
  RequestState,
  ServingContext,
  SharedRoom,
} from '../../../machines/context.ts';
import { compareReads } from '../../../machines/contextCodec.ts';
import type { PagePool } from '../../../machines/kvPagePool.ts';
import { type Layout, layoutOf, type PoolLayout } from '../../../machines/layout.ts';
import type { RequestId, Scenario } from '../../../machines/scenario.ts';
import type { StateProjection } from '../../engine/index.ts';

/** A request permutation: old id → new id. */
export type Renaming = ReadonlyMap<RequestId, RequestId>;

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) =>
    permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

/** The non-identity permutations of the symmetry group of `scenario`. */
export function servingSymmetryGroup(scenario: Scenario): Renaming[] {
  const reqs = scenario.requests;
  const params = reqs.map(({ id: _id, tenant: _tenant, ...rest }) => JSON.stringify(rest));
  const out: Renaming[] = [];
  for (const image of permutations(reqs.map((_, i) => i))) {
    if (image.every((j, i) => j === i)) continue;
    const ok = image.every(
      (j, i) =>
        params[i] === params[j] &&
        reqs.every(
          (r, k) =>
            (r.tenant === reqs[i]?.tenant) ===
            (reqs[image[k] as number]?.tenant === reqs[j]?.tenant),
        ),
    );
    if (ok) out.push(new Map(image.map((j, i) => [reqs[i]?.id ?? '', reqs[j]?.id ?? ''])));
  }
  return out;
}

function moves(pi: Renaming, r: RequestId | null): boolean {
  if (r === null) return false;
  const to = pi.get(r);
  return to !== undefined && to !== r;
}

/** `ids` renamed, or `ids` itself (the same array) when no id in it moves. */
function renameIds(
  ids: readonly (RequestId | null)[],
  pi: Renaming,
): readonly (RequestId | null)[] {
  if (!ids.some((r) => moves(pi, r))) return ids;
  return ids.map((r) => (r === null ? null : (pi.get(r) ?? r)));
}

/** `pool` with request ids renamed; the same object when no id in it moves. */
function renamePool(pool: PagePool, pi: Renaming): PagePool {
  const owner = renameIds(pool.owner, pi);
  const writer = renameIds(pool.writer, pi);
  const stray = pool.strayWrites.some((w) => moves(pi, w.by))
    ? pool.strayWrites.map((w) => ({ ...w, by: pi.get(w.by) ?? w.by }))
    : pool.strayWrites;
  if (owner === pool.owner && writer === pool.writer && stray === pool.strayWrites) return pool;
  return { ...pool, owner, writer, strayWrites: stray };
}

/**
 * `r` with the writers of its reads renamed and re-sorted, and those of its host copy renamed;
 * `r` itself if none moves.
 */
function renameRequest(r: RequestState, pi: Renaming): RequestState {
  const host = r.hostKv === undefined ? undefined : renameIds(r.hostKv, pi);
  const readsMove = r.reads.some((x) => moves(pi, x.writer));
  if (!readsMove && host === r.hostKv) return r;
  const reads = readsMove
    ? r.reads
        .map(
          (x): KvRead => (x.writer === null ? x : { ...x, writer: pi.get(x.writer) ?? x.writer }),
        )
        .sort(compareReads)
    : r.reads;
  return { ...r, reads, ...(host === undefined ? {} : { hostKv: host }) };
}

/** Shared rooms with their destinations renamed. */
function renameRooms(rooms: readonly SharedRoom[], pi: Renaming): readonly SharedRoom[] {
  return rooms.map((room) =>
    moves(pi, room.destination)
      ? { ...room, destination: pi.get(room.destination ?? '') ?? null }
      : room,
  );
}

type ServingValue = Readonly<Record<RequestId, unknown>>;

/** A state with its context decoded: the group acts on the decoded form. */
type Decoded = StateProjection<DecodedContext>;
/** A state of the serving machine as the engine holds it. */
type Vector = StateProjection<ServingContext>;

/** The inverse renaming. */
function inverseOf(pi: Renaming): Renaming {
  return new Map([...pi].map(([from, to]) => [to, from]));
}

/**
 * The image of a decoded state under `pi`: the same action as `VectorPermutation` on the
 * vector, on the JSON a trace renders (the tests check one against the other).
 */
export function permuteState(s: Decoded, pi: Renaming, inverse: Renaming = inverseOf(pi)): Decoded {
  const value = s.value as ServingValue;
  const moved: Record<RequestId, unknown> = {};
  for (const k of Object.keys(value)) moved[k] = value[inverse.get(k) ?? k];
  const requests: Record<RequestId, RequestState> = {};
  for (const k of Object.keys(s.context.requests)) {
    const from = s.context.requests[inverse.get(k) ?? k];
    if (from) requests[k] = renameRequest(from, pi);
  }
  const context = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(s.context)) {
    if (k === 'requests') context[k] = requests;
    else if (k === 'prefillPool' || k === 'decodePool') context[k] = renamePool(v as PagePool, pi);
    else if (k === 'rooms') context[k] = renameRooms(v as readonly SharedRoom[], pi);
    else context[k] = v;
  }
  return { value: moved as Decoded['value'], context: context as never };
}

/**
 * A permutation of `layout`'s requests compiled for state vectors: where each request block
 * goes, what each request code becomes and where each read bit goes.
 */
export class VectorPermutation {
  /** `to[i]`: the new index of request `i`. */
  readonly to: Int32Array;
  /** `from[j]`: the request whose block the image holds at index `j` (the inverse of `to`). */
  readonly from: Int32Array;
  /** `code[c]`: the code of the request named `c` in the image (`code[0]` is 0: nobody). */
  private readonly code: Int32Array;
  /** `bit[k]`: where read bit `k` of a request's bitset goes (its writer code renamed). */
  private readonly bit: Int32Array;

  /** `pi` must map `layout`'s request ids onto themselves, bijectively. */
  constructor(
    readonly layout: Layout,
    pi: Renaming,
  ) {
    const n = layout.requests.length;
    this.to = new Int32Array(n);
    this.from = new Int32Array(n);
    this.code = new Int32Array(n + 1);
    layout.requests.forEach((rid, i) => {
      const j = layout.indexOf(pi.get(rid) ?? rid);
      this.to[i] = j;
      this.from[j] = i;
      this.code[i + 1] = j + 1;
    });
    const codes = layout.writerCodes;
    this.bit = new Int32Array((layout.prefill.pages + layout.decode.pages) * codes);
    for (let k = 0; k < this.bit.length; k++) {
      const writer = k % codes;
      this.bit[k] = k - writer + (this.code[writer] as number);
    }
  }

  /**
   * Writes the image of the words `src` into `dst` (another array of the layout's length);
   * `src` is only read.
   */
  imageInto(src: Int32Array, dst: Int32Array): void {
    const L = this.layout;
    const bw = L.blockWords;
    const reads = L.lists.reads;
    const bit = this.bit;
    dst.set(src);
    for (let i = 0; i < this.to.length; i++) {
      const from = i * bw;
      const to = (this.to[i] as number) * bw;
      if (from !== to) for (let k = 0; k < reads; k++) dst[to + k] = src[from + k] as number;
      this.renameHostKv(dst, to);
      dst.fill(0, to + reads, to + bw);
      for (let k = reads; k < bw; k++) {
        let x = src[from + k] as number;
        const first = (k - reads) << 5;
        while (x !== 0) {
          const low = x & -x;
          x ^= low;
          const moved = bit[first + 31 - Math.clz32(low)] as number;
          const at = to + reads + (moved >>> 5);
          dst[at] = (dst[at] as number) | (1 << (moved & 31));
        }
      }
    }
    this.renamePool(dst, L.prefill);
    this.renamePool(dst, L.decode);
    // A shared room's destination names a request (rooms themselves are not permuted: only
    // requests of the same room are interchangeable).
    for (let k = L.roomDst; k < L.roomConcluded; k++)
      dst[k] = this.code[dst[k] as number] as number;
  }

  /** Renames the writer codes of the host copy in the request block at `b` of `w`, in place. */
  private renameHostKv(w: Int32Array, b: number): void {
    const host = b + this.layout.lists.hostKv.at;
    const end = host + (w[host] as number);
    for (let k = host + 1; k <= end; k++) w[k] = this.code[w[k] as number] as number;
  }

  /** Renames the request codes of `pool` in `w`, in place. */
  private renamePool(w: Int32Array, pool: PoolLayout): void {
    const code = this.code;
    const owners = pool.owner + pool.pages;
    for (let k = pool.owner; k < owners; k++) w[k] = code[w[k] as number] as number;
    const writers = pool.writer + pool.pages * this.layout.pageSize;
    for (let k = pool.writer; k < writers; k++) w[k] = code[w[k] as number] as number;
    const strays = pool.stray.at + 2 * (w[pool.stray.at] as number);
    for (let k = pool.stray.at + 2; k <= strays; k += 2) w[k] = code[w[k] as number] as number;
  }

  /** The image of the state value `value` (a record of request regions): a new object. */
  imageValue(value: Vector['value']): Vector['value'] {
    if (typeof value !== 'object' || value === null) return value;
    const rids = this.layout.requests;
    const regions = value as ServingValue;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(regions)) {
      const j = rids.indexOf(k);
      out[k] = j === -1 ? regions[k] : regions[rids[this.from[j] as number] as RequestId];
    }
    return out as Vector['value'];
  }

  /** The image of a state: a new value and new words; `s` is left as it is. */
  apply(s: Vector): Vector {
    const words = new Int32Array(s.context.words.length);
    this.imageInto(s.context.words, words);
    return { value: this.imageValue(s.value), context: { ...s.context, words } };
  }
}

/**
 * The region states of each request in a state value, as ids interned by JSON text in
 * first-seen order (fixed once assigned: equal ids exactly when the regions' texts are equal),
 * ordered by their texts (`compare`), not by the ids, which depend on what was seen first.
 * The engine's values are made of frozen, shared region values (one per region state), so a
 * region's id is kept by its value (an object, or the string of an atomic state), in a map that
 * holds them as long as the canonicaliser lives (the engine's view cache holds them at least
 * as long; weak maps cost the collector more on every collection). A value's ids are looked up
 * region by region: regions are few, and their map stays in the processor's caches, where a
 * map by whole values, one per configuration, would not.
 */
class RegionIds {
  private readonly texts = new Map<string, number>();
  private readonly textOf: string[] = [];
  /** `rank[id]`: the position of text `id` among the texts seen so far, in text order. */
  private rank = new Int32Array(0);
  private readonly byRegion = new Map<unknown, number>();
  /** The ids `of` answered last (for `lastValue`), rewritten by every `of`. */
  private readonly ids: Int32Array;

  constructor(private readonly rids: readonly RequestId[]) {
    this.ids = new Int32Array(rids.length);
  }

  private id(region: unknown): number {
    const known = this.byRegion.get(region);
    if (known !== undefined) return known;
    const text = JSON.stringify(region) ?? '';
    let id = this.texts.get(text);
    if (id === undefined) {
      id = this.texts.size;
      this.texts.set(text, id);
      this.textOf.push(text);
      this.rerank();
    }
    // Only a frozen object is known not to change under its id.
    if (typeof region !== 'object' || region === null || Object.isFrozen(region)) {
      this.byRegion.set(region, id);
    }
    return id;
  }

  /** Ranks the texts anew (a new text is rare: a request's region takes few states). */
  private rerank(): void {
    const order = this.textOf.map((_, id) => id);
    const texts = this.textOf;
    order.sort((a, b) => ((texts[a] as string) < (texts[b] as string) ? -1 : 1));
    this.rank = new Int32Array(order.length);
    order.forEach((id, at) => {
      this.rank[id] = at;
    });
  }

  /** The order of two different ids: the order of their texts. */
  compare(a: number, b: number): number {
    return (this.rank[a] as number) < (this.rank[b] as number) ? -1 : 1;
  }

  /**
   * The region ids of `value`'s requests, in scenario order: an array that the next call
   * rewrites (do not modify or keep it).
   */
  of(value: Vector['value']): Int32Array {
    const ids = this.ids;
    // A state and its successors by steps that leave the configuration share their value.
    if (this.lastValue !== null && value === this.lastValue) return ids;
    const regions = (typeof value === 'object' && value !== null ? value : {}) as ServingValue;
    for (let i = 0; i < ids.length; i++) ids[i] = this.id(regions[this.rids[i] as RequestId]);
    // Only a frozen value is known not to change under its ids.
    this.lastValue =
      typeof value === 'object' && value !== null && Object.isFrozen(value) ? value : null;
    return ids;
  }

  /** The value `of` answered last, when frozen (see `of`); null otherwise. */
  private lastValue: Vector['value'] | null = null;
}

/** A scenario's group compiled for vectors, with the slot order of its representatives. */
class VectorGroup {
  readonly layout: Layout;
  readonly perms: readonly VectorPermutation[];
  /** The identity's `from`. */
  readonly identity: Int32Array;
  /** The request slots some permutation moves (the others compare equal in every image). */
  private readonly moving: Int32Array;
  readonly regions: RegionIds;
  private readonly scratch: Int32Array;

  constructor(scenario: Scenario) {
    this.layout = layoutOf(scenario);
    this.perms = servingSymmetryGroup(scenario).map((pi) => new VectorPermutation(this.layout, pi));
    const n = this.layout.requests.length;
    this.identity = Int32Array.from({ length: n }, (_, i) => i);
    this.moving = this.identity.filter((j) => this.perms.some((g) => g.from[j] !== j));
    this.regions = new RegionIds(this.layout.requests);
    this.scratch = new Int32Array(this.layout.words);
  }

  /**
   * Compares the slot keys of two images of a state (words `w`, region ids `ids`), given by
   * their `from`s: slot by slot, the moved request's region states, then its block words before
   * the read bitset. Neither image is built.
   */
  compareKeys(w: Int32Array, ids: Int32Array, fromA: Int32Array, fromB: Int32Array): number {
    const bw = this.layout.blockWords;
    const reads = this.layout.lists.reads;
    const moving = this.moving;
    for (let m = 0; m < moving.length; m++) {
      const j = moving[m] as number;
      const a = fromA[j] as number;
      const b = fromB[j] as number;
      if (a === b) continue;
      const ra = ids[a] as number;
      const rb = ids[b] as number;
      if (ra !== rb) return this.regions.compare(ra, rb);
      const ba = a * bw;
      const bb = b * bw;
      for (let k = 0; k < reads; k++) {
        const x = w[ba + k] as number;
        const y = w[bb + k] as number;
        if (x !== y) return x < y ? -1 : 1;
      }
    }
    return 0;
  }

  /** The number of permutations (identity included) that map the state to itself. */
  stabiliser(s: Vector): number {
    const w = s.context.words;
    const ids = this.regions.of(s.value);
    let fixed = 1;
    for (const g of this.perms) {
      if (this.compareKeys(w, ids, g.from, this.identity) !== 0) continue;
      // Equal keys: the image's state value is the state's; only the words can differ.
      g.imageInto(w, this.scratch);
      if (compareWords(this.scratch, w) === 0) fixed++;
    }
    return fixed;
  }
}

/** Lexicographic order of two word arrays of one length. */
function compareWords(a: Int32Array, b: Int32Array): number {
  for (let k = 0; k < a.length; k++) {
    const x = a[k] as number;
    const y = b[k] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The canonicaliser for `scenario`'s composed machine: the smallest image of a state under the
 * scenario's symmetry group, in the order described at the top of this file (slot keys, then
 * the words). Returns the state itself (the same object) when the group is trivial or the state
 * is already the representative, and otherwise a new state whose context is
 * `{ ...context, words }` (and whose value is the state's own object when the regions did not
 * change). Its words are the canonicaliser's own, valid until its next call, as
 * `ExploreOptions.symmetry` allows: the engine copies those it keeps. The given state's words are
 * only read (they may be those of the canonicaliser's last result). The representative is a
 * function of the state alone: every canonicaliser of the scenario, on any thread, picks the
 * same one.
 */
export function servingSymmetry(scenario: Scenario): (s: Vector) => Vector {
  const group = new VectorGroup(scenario);
  const perms = group.perms;
  if (perms.length === 0) return (s) => s;
  const tied = new Int32Array(perms.length + 1);
  // Images are made in two of these three, never in the given words (a last result passed back).
  const spare = [0, 1, 2].map(() => new Int32Array(group.layout.words));
  const buffers = [spare[0] as Int32Array, spare[1] as Int32Array];
  return (s) => {
    const w = s.context.words;
    if (w === buffers[0] || w === buffers[1]) {
      buffers[w === buffers[0] ? 0 : 1] = spare.find(
        (b) => b !== buffers[0] && b !== buffers[1],
      ) as Int32Array;
    }
    const ids = group.regions.of(s.value);
    // The permutations whose images tie for the smallest slot keys (-1: the identity).
    let bestFrom = group.identity;
    let count = 0;
    tied[count++] = -1;
    for (let g = 0; g < perms.length; g++) {
      const from = (perms[g] as VectorPermutation).from;
      const order = group.compareKeys(w, ids, from, bestFrom);
      if (order < 0) {
        bestFrom = from;
        count = 0;
      }
      if (order <= 0) tied[count++] = g;
    }
    let best = tied[0] as number;
    if (count === 1 && best === -1) return s;
    let bestWords = w;
    let buffer = 0;
    if (best !== -1) {
      bestWords = buffers[buffer] as Int32Array;
      (perms[best] as VectorPermutation).imageInto(w, bestWords);
      buffer = 1;
    }
    for (let t = 1; t < count; t++) {
      const g = tied[t] as number;
      const image = buffers[buffer] as Int32Array;
      (perms[g] as VectorPermutation).imageInto(w, image);
      if (compareWords(image, bestWords) < 0) {
        best = g;
        bestWords = image;
        buffer = 1 - buffer;
      }
    }
    if (best === -1) return s;
    const perm = perms[best] as VectorPermutation;
    let sameRegions = true;
    for (let j = 0; j < ids.length; j++) {
      if (ids[j] !== ids[perm.from[j] as number]) sameRegions = false;
    }
    return {
      value: sameRegions ? s.value : perm.imageValue(s.value),
      context: { ...s.context, words: bestWords },
    };
  };
}

/**
 * The orbit size of a state under `scenario`'s symmetry group: how many distinct states its
 * images are (1 for a trivial group). Computed exactly by the orbit-stabiliser theorem as the
 * group's order (the identity included) divided by the number of permutations that map the
 * state to itself; a permutation is imaged only when the slot keys of its image are the
 * state's, and its image then compared word by word. Summed over the representatives of a
 * search, it is the number of states the search without symmetry finds.
 */
export function servingOrbitSize(scenario: Scenario): (s: Vector) => number {
  const group = new VectorGroup(scenario);
  const order = group.perms.length + 1;
  if (order === 1) return () => 1;
  return (s) => order / group.stabiliser(s);
}
