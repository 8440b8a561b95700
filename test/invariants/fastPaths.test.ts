/**
 * The pool and isolation properties answer most states through one-pass fast paths (page marks,
 * masks over the read bitset) and scan pair by pair only to word a violation. This test states
 * each property as a plain set definition over the decoded context and checks the property
 * against it on random pools, rows and read sets of `incident` (a1 of tenant A and b1 of tenant
 * B; prefill 8 pages, decode 10), double frees, shared and foreign pages included.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { noCrossTenantRead, rejectedHoldsNothing } from '../../invariants/isolation.ts';
import { exclusivePageOwnership, freedExactlyOnce } from '../../invariants/pool.ts';
import type { KvRead, RequestState } from '../../machines/context.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import type { NodeRole, RequestId } from '../../machines/scenario.ts';
import { pinnedSeed } from '../seed.ts';
import { buildState } from './buildState.ts';

const seed = pinnedSeed(20261206);
const ids = ['a1', 'b1'] as const;
const tenantOf: Record<RequestId, string> = { a1: 'A', b1: 'B' };
const pagesOf: Record<NodeRole, number> = { prefill: 8, decode: 10 };
/** Row capacities of `incident`'s layout: prefill rows 3 pages, decode rows 5. */
const rowCap: Record<NodeRole, number> = { prefill: 3, decode: 5 };

interface PoolDraw {
  readonly free: number[];
  readonly owner: (RequestId | null)[];
}

interface Draw {
  readonly pools: Record<NodeRole, PoolDraw>;
  /** Per request: its rows and reads. */
  readonly rows: Record<RequestId, Record<NodeRole, number[]>>;
  readonly reads: Record<RequestId, KvRead[]>;
  readonly rejectedOnDecode: boolean;
}

const nodeRoles = ['prefill', 'decode'] as const;
const page = (node: NodeRole) => fc.nat({ max: pagesOf[node] - 1 });
const holder = fc.constantFrom<RequestId | null>(null, null, 'a1', 'b1');

/**
 * One node's pages, consistent: each page free or held by one request (rows up to their
 * capacity, pages past it stay free), owners matching the rows.
 */
const nodeArb = (node: NodeRole) =>
  fc.array(holder, { minLength: pagesOf[node], maxLength: pagesOf[node] }).map((want) => {
    const rows: Record<RequestId, number[]> = { a1: [], b1: [] };
    const owner: (RequestId | null)[] = [];
    const free: number[] = [];
    want.forEach((h, p) => {
      const row = h === null ? undefined : rows[h];
      if (h === null || !row || row.length >= rowCap[node]) {
        free.push(p);
        owner.push(null);
      } else {
        row.push(p);
        owner.push(h);
      }
    });
    return { pool: { free, owner }, rows };
  });

/** An edit that may break the pool's bookkeeping (or, by chance, leave it whole). */
type Mutation =
  | { readonly kind: 'freeAgain'; readonly node: NodeRole; readonly page: number }
  | {
      readonly kind: 'holdAlso';
      readonly node: NodeRole;
      readonly id: RequestId;
      readonly page: number;
    }
  | {
      readonly kind: 'setOwner';
      readonly node: NodeRole;
      readonly page: number;
      readonly to: RequestId | null;
    };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  ...nodeRoles.flatMap((node) => [
    fc.record({
      kind: fc.constant('freeAgain' as const),
      node: fc.constant(node),
      page: page(node),
    }),
    fc.record({
      kind: fc.constant('holdAlso' as const),
      node: fc.constant(node),
      id: fc.constantFrom<RequestId>(...ids),
      page: page(node),
    }),
    fc.record({
      kind: fc.constant('setOwner' as const),
      node: fc.constant(node),
      page: page(node),
      to: holder,
    }),
  ]),
);

/** `d` with `m` applied (a row at its capacity takes no more pages). */
function mutate(d: Draw, m: Mutation): Draw {
  const pool = d.pools[m.node];
  if (m.kind === 'freeAgain') {
    return { ...d, pools: { ...d.pools, [m.node]: { ...pool, free: [...pool.free, m.page] } } };
  }
  if (m.kind === 'setOwner') {
    const owner = pool.owner.map((o, p) => (p === m.page ? m.to : o));
    return { ...d, pools: { ...d.pools, [m.node]: { ...pool, owner } } };
  }
  const rows = d.rows[m.id] as Record<NodeRole, number[]>;
  if (rows[m.node].length >= rowCap[m.node]) return d;
  const grown = { ...rows, [m.node]: [...rows[m.node], m.page] };
  return { ...d, rows: { ...d.rows, [m.id]: grown } };
}

const readArb: fc.Arbitrary<KvRead> = fc.oneof(
  ...(['prefill', 'decode'] as const).map((node) =>
    fc.record({ node: fc.constant(node), page: page(node), writer: holder }),
  ),
);

const readsArb = fc.uniqueArray(readArb, {
  maxLength: 4,
  selector: (r) => `${r.node}/${r.page}/${r.writer}`,
});

const drawArb: fc.Arbitrary<Draw> = fc
  .record({
    prefill: nodeArb('prefill'),
    decode: nodeArb('decode'),
    a1: readsArb,
    b1: readsArb,
    rejectedOnDecode: fc.boolean(),
    mutations: fc.array(mutationArb, { maxLength: 2 }),
  })
  .map(({ prefill, decode, a1, b1, rejectedOnDecode, mutations }) =>
    mutations.reduce(mutate, {
      pools: { prefill: prefill.pool, decode: decode.pool },
      rows: {
        a1: { prefill: prefill.rows.a1 ?? [], decode: decode.rows.a1 ?? [] },
        b1: { prefill: prefill.rows.b1 ?? [], decode: decode.rows.b1 ?? [] },
      },
      reads: { a1, b1 },
      rejectedOnDecode,
    }),
  );

function stateOf(d: Draw) {
  const pool = (node: NodeRole) => (p: PagePool) => ({
    ...p,
    free: d.pools[node].free,
    owner: d.pools[node].owner,
  });
  const requests: Record<RequestId, Partial<RequestState>> = {};
  for (const id of ids) {
    const rows = d.rows[id] as Record<NodeRole, number[]>;
    requests[id] = {
      prefillPages: rows.prefill,
      decodePages: rows.decode,
      reads: d.reads[id] as KvRead[],
      rejectedOnDecode: id === 'a1' && d.rejectedOnDecode,
    };
  }
  return buildState({ requests, prefillPool: pool('prefill'), decodePool: pool('decode') });
}

const held = (d: Draw, node: NodeRole) => ids.flatMap((id) => d.rows[id]?.[node] ?? []);
const distinct = (xs: readonly number[]) => new Set(xs).size === xs.length;

/** Each page is free at most once, and no held page is free. */
function freedOnceSpec(d: Draw): boolean {
  return nodeRoles.every((node) => {
    const free = d.pools[node].free;
    return distinct(free) && held(d, node).every((p) => !free.includes(p));
  });
}

/** Held pages are distinct and owned by their holder; every owned page is held by its owner. */
function ownershipSpec(d: Draw): boolean {
  return nodeRoles.every((node) => {
    const { owner } = d.pools[node];
    const rowsHoldOwn = ids.every((id) => d.rows[id]?.[node]?.every((p) => owner[p] === id));
    const ownedAreHeld = owner.every((o, p) => o === null || d.rows[o]?.[node]?.includes(p));
    return distinct(held(d, node)) && rowsHoldOwn && ownedAreHeld;
  });
}

/** No request read a slot last written by a request of another tenant. */
function noForeignReadSpec(d: Draw): boolean {
  return ids.every((id) =>
    d.reads[id]?.every((r) => r.writer === null || tenantOf[r.writer] === tenantOf[id]),
  );
}

/** The property's verdict agrees with `spec`, and its explanation is there exactly when it fails. */
function agrees(
  p: { (s: ReturnType<typeof stateOf>): boolean; explain(s: ReturnType<typeof stateOf>): unknown },
  spec: (d: Draw) => boolean,
  d: Draw,
): boolean {
  const s = stateOf(d);
  const holds = spec(d);
  return p(s) === holds && (p.explain(s) === null) === holds;
}

describe('fast paths of the pool and isolation properties', () => {
  test.prop([drawArb], { seed, numRuns: 400 })(
    `freedExactlyOnce is its set definition (fast-check seed ${seed})`,
    (d) => agrees(freedExactlyOnce, freedOnceSpec, d),
  );

  test.prop([drawArb], { seed, numRuns: 400 })(
    `exclusivePageOwnership is its set definition (fast-check seed ${seed})`,
    (d) => agrees(exclusivePageOwnership, ownershipSpec, d),
  );

  test.prop([drawArb], { seed, numRuns: 400 })(
    `noCrossTenantRead and its trigger are their set definitions (fast-check seed ${seed})`,
    (d) => {
      const s = stateOf(d);
      const written = ids.some((id) => d.reads[id]?.some((r) => r.writer !== null));
      return (
        agrees(noCrossTenantRead, noForeignReadSpec, d) &&
        noCrossTenantRead.trigger.fires(s) === written
      );
    },
  );

  test.prop([drawArb], { seed, numRuns: 400 })(
    `a decode-rejected request that read on decode breaks rejectedHoldsNothing (fast-check seed ${seed})`,
    (d) => {
      fc.pre(d.rejectedOnDecode && (d.rows.a1?.decode.length ?? 0) === 0);
      const readOnDecode = d.reads.a1?.some((r) => r.node === 'decode') ?? false;
      return rejectedHoldsNothing(stateOf(d)) === !readOnDecode;
    },
  );

  it('finds each kind of case among its draws', () => {
    const draws = fc.sample(drawArb, { seed, numRuns: 400 });
    for (const spec of [freedOnceSpec, ownershipSpec, noForeignReadSpec]) {
      const held = draws.filter(spec).length;
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThan(draws.length);
    }
  });
});
