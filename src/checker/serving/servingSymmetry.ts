/**
 * Symmetry reduction for kvcheck's composed serving machine: a canonicaliser for `explore`.
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
 * Applying a permutation to a state moves each request's region states and its record to the
 * new id, renames request ids where the context records them (pool owners, slot writers, stray
 * writes, attention reads) and restores the one order that depends on ids: each request's read
 * set is kept sorted by `recordReads`' key. The static tenant table is left as it is. The
 * representative is the smallest image in an order that compares per-request signatures first
 * (see `servingSignatures.ts`), then JSON texts.
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
} from '../../../machines/context.ts';
import { compareReads, decodeContext, encodeContext } from '../../../machines/contextCodec.ts';
import type { PagePool } from '../../../machines/kvPagePool.ts';
import type { RequestId, Scenario } from '../../../machines/scenario.ts';
import type { StateProjection } from '../../engine/index.ts';
import { SignatureTable } from './servingSignatures.ts';

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

/** `r` with the writers of its reads renamed and re-sorted; `r` itself if none moves. */
function renameRequest(r: RequestState, pi: Renaming): RequestState {
  if (!r.reads.some((x) => moves(pi, x.writer))) return r;
  const reads = r.reads.map(
    (x): KvRead => (x.writer === null ? x : { ...x, writer: pi.get(x.writer) ?? x.writer }),
  );
  return { ...r, reads: reads.sort(compareReads) };
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

/** The image of a state under `pi`. */
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
    else context[k] = v;
  }
  return { value: moved as Decoded['value'], context: context as never };
}

function compareVectors(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The request signatures of states, in scenario order, for a group: only requests that some
 * permutation moves get one (the others get 0, since a permutation compares each of them with
 * itself). The last vector is kept with its context, so the orbit size of a representative just
 * built by the canonicaliser reuses it.
 */
class Signatures {
  private readonly table = new SignatureTable();
  private readonly moving: number[];
  private lastContext: unknown = null;
  private lastValue: unknown = null;
  private lastVector: number[] = [];

  constructor(
    private readonly rids: readonly RequestId[],
    group: readonly Renaming[],
  ) {
    this.moving = rids.flatMap((r, i) => (group.some((pi) => moves(pi, r)) ? [i] : []));
  }

  of(s: Decoded): number[] {
    if (s.context === this.lastContext && s.value === this.lastValue) return this.lastVector;
    const value = s.value as ServingValue;
    const sigs = this.rids.map(() => 0);
    for (const i of this.moving) {
      const r = this.rids[i] as RequestId;
      sigs[i] = this.table.id(value[r], s.context.requests[r]);
    }
    return sigs;
  }

  /** Records that `s` has the signature vector `sigs`. */
  remember(s: Decoded, sigs: number[]): void {
    this.lastContext = s.context;
    this.lastValue = s.value;
    this.lastVector = sigs;
  }
}

/** Signature tables shared by a scenario's canonicaliser and orbit-size function. */
const sharedSignatures = new WeakMap<Scenario, Signatures>();

function signaturesFor(scenario: Scenario, group: readonly Renaming[]): Signatures {
  let sigs = sharedSignatures.get(scenario);
  if (!sigs) {
    sigs = new Signatures(
      scenario.requests.map((r) => r.id),
      group,
    );
    sharedSignatures.set(scenario, sigs);
  }
  return sigs;
}

function orderKey(s: Decoded, rids: readonly RequestId[]): string {
  const value = s.value as ServingValue;
  return JSON.stringify([rids.map((r) => value[r]), s.context]);
}

/**
 * The canonicaliser for `scenario`'s composed machine. States are ordered by the vector of
 * request signatures (in scenario order), then by their JSON text; the representative is the
 * smallest image of a state under the scenario's symmetry group. Images are only built for
 * the permutations whose signature vectors tie for the minimum. Returns the state itself (the
 * same object) when the group is trivial or the state is already the representative.
 */
export function servingSymmetry(scenario: Scenario): (s: Vector) => Vector {
  const canonical = decodedSymmetry(scenario);
  return (s) => {
    const decoded = decodedOf(s);
    const rep = canonical(decoded);
    return rep === decoded
      ? s
      : { value: rep.value, context: encodeContext(s.context.layout, rep.context) };
  };
}

/** `s` with its context decoded. */
function decodedOf(s: Vector): Decoded {
  return { value: s.value, context: decodeContext(s.context) };
}

function decodedSymmetry(scenario: Scenario): (s: Decoded) => Decoded {
  const group = servingSymmetryGroup(scenario);
  const rids = scenario.requests.map((r) => r.id);
  if (group.length === 0) return (s) => s;
  const position = new Map(rids.map((r, i) => [r, i]));
  // For each permutation, where each slot of an image takes its signature from.
  const inverses = new Map(group.map((pi) => [pi, inverseOf(pi)]));
  const sources = group.map((pi) => {
    const inverse = inverses.get(pi) ?? inverseOf(pi);
    return rids.map((r) => position.get(inverse.get(r) ?? r) ?? 0);
  });
  const image = (s: Decoded, pi: Renaming) => permuteState(s, pi, inverses.get(pi));
  const signatures = signaturesFor(scenario, group);
  const pick = (s: Decoded, sigs: number[]) => {
    signatures.remember(s, sigs);
    return s;
  };
  return (s) => {
    const sigs = signatures.of(s);
    let best = sigs;
    let tied: (Renaming | null)[] = [null];
    group.forEach((pi, g) => {
      const vector = (sources[g] as number[]).map((i) => sigs[i] as number);
      const order = compareVectors(vector, best);
      if (order < 0) {
        best = vector;
        tied = [pi];
      } else if (order === 0) tied.push(pi);
    });
    if (tied.length === 1) return pick(tied[0] ? image(s, tied[0]) : s, best);
    let rep: Decoded | null = null;
    let repKey = '';
    for (const pi of tied) {
      const candidate = pi ? image(s, pi) : s;
      const key = orderKey(candidate, rids);
      if (rep === null || key < repKey) {
        rep = candidate;
        repKey = key;
      }
    }
    return pick(rep ?? s, best);
  };
}

/** Equality of plain JSON data as `JSON.stringify` sees it (key order included). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameJson(ra[k], rb[k])) return false;
  }
  return true;
}

/**
 * The orbit size of a state under `scenario`'s symmetry group: how many distinct states its
 * images are (1 for a trivial group). Computed exactly by the orbit-stabiliser theorem as the
 * group's order (the identity included) divided by the number of permutations that map the
 * state to itself; only permutations that keep the vector of request signatures are imaged and
 * compared. Summed over the representatives of a search, it is the number of states the search
 * without symmetry finds.
 */
export function servingOrbitSize(scenario: Scenario): (s: Vector) => number {
  const size = decodedOrbitSize(scenario);
  return (s) => size(decodedOf(s));
}

function decodedOrbitSize(scenario: Scenario): (s: Decoded) => number {
  const group = servingSymmetryGroup(scenario);
  if (group.length === 0) return () => 1;
  const rids = scenario.requests.map((r) => r.id);
  const position = new Map(rids.map((r, i) => [r, i]));
  const perms = group.map((pi) => {
    const inverse = inverseOf(pi);
    return {
      pi,
      inverse,
      source: rids.map((r) => position.get(inverse.get(r) ?? r) ?? 0),
    };
  });
  const signatures = signaturesFor(scenario, group);
  const order = group.length + 1;
  return (s) => {
    const sigs = signatures.of(s);
    let fixed = 1;
    for (const { pi, inverse, source } of perms) {
      if (!source.every((from, i) => sigs[from] === sigs[i])) continue;
      const image = permuteState(s, pi, inverse);
      if (sameJson(image.value, s.value) && sameJson(image.context, s.context)) fixed++;
    }
    return order / fixed;
  };
}
