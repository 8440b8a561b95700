/**
 * The serving model's state as ITF state variables: a decoded context (`machines/contextCodec.ts`)
 * told as one ITF value per variable, each with its ADR-002 type. Every value and its type come
 * from one table of fields, so a trace's `#meta.varTypes` always describes its states.
 *
 * ITF has no null, so absent values use the state vector's own conventions: a request nobody
 * holds or wrote is `""`, a nullable number (a metadata slot, a page read after free, a cache
 * node's lock count) is -1, a reply not sent yet is status 0 with 0 tokens, and no abort cause is
 * `"none"`. Request-keyed variables are `#map`s keyed by request id (ids may hold `-`, which a
 * record field may not), in scenario order; page-keyed ones are `#map`s keyed by page number,
 * slot-keyed ones by the `<<page, offset>>` tuple.
 */
import type { DecodedContext, KvRead, Reply, RequestState } from '../../machines/context.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import type { RequestId } from '../../machines/scenario.ts';
import { type ItfType, type ItfValue, itfInt, itfMap, itfSet, itfTup, T } from './itfValue.ts';

/** One field of a record: its name, its type, and how to read it from `S`. */
interface Field<S> {
  readonly name: string;
  readonly type: ItfType;
  readonly value: (s: S) => ItfValue;
  /** Present only when the field is (a mechanism that is off leaves it out). */
  readonly optional?: true;
}

/** A request id, or `""` for nobody. */
function who(rid: RequestId | null | undefined): string {
  return rid ?? '';
}

/** A nullable number, -1 for null. */
function orMinusOne(n: number | null | undefined): ItfValue {
  return itfInt(n ?? -1);
}

function ints(ns: readonly number[] | undefined): ItfValue {
  return (ns ?? []).map(itfInt);
}

const replyType = T.rec([
  ['status', T.int],
  ['tokens', T.int],
]);

function reply(r: Reply | null): ItfValue {
  return { status: itfInt(r?.status ?? 0), tokens: itfInt(r?.tokens ?? 0) };
}

const readType = T.tup(T.str, T.int, T.str);

function read(r: KvRead): ItfValue {
  return itfTup(r.node, itfInt(r.page), who(r.writer));
}

function field<S>(name: string, type: ItfType, value: (s: S) => ItfValue): Field<S> {
  return { name, type, value };
}

function optional<S>(name: string, type: ItfType, value: (s: S) => ItfValue): Field<S> {
  return { name, type, value, optional: true };
}

type R = RequestState;
/** The request fields that always hold a number. */
type IntKey = { [K in keyof R]-?: R[K] extends number ? K : never }[keyof R];
/** The request fields that hold a flag (absent reads as false). */
type BoolKey = { [K in keyof R]-?: NonNullable<R[K]> extends boolean ? K : never }[keyof R];

/** A request field holding a number, told as an ITF integer under its own name. */
function intField(name: IntKey): Field<R> {
  return field(name, T.int, (r) => itfInt(r[name]));
}

/** A request flag under its own name, false when absent; `optional` when a mechanism adds it. */
function boolField(name: BoolKey, isOptional = false): Field<R> {
  return (isOptional ? optional : field)(name, T.bool, (r) => r[name] === true);
}

/** A request's fields, in `RequestState`'s order; optional ones belong to a mechanism. */
const requestFields: readonly Field<R>[] = [
  intField('prefillLen'),
  field('prefillPages', T.seq(T.int), (r) => ints(r.prefillPages)),
  intField('prefilled'),
  intField('kvSentUpTo'),
  intField('decodeLen'),
  field('decodePages', T.seq(T.int), (r) => ints(r.decodePages)),
  intField('kvArrived'),
  intField('seqLen'),
  intField('generated'),
  field('prefillReply', replyType, (r) => reply(r.prefillReply)),
  field('decodeReply', replyType, (r) => reply(r.decodeReply)),
  field('clientReply', replyType, (r) => reply(r.clientReply)),
  field(
    'replyCount',
    T.rec([
      ['prefill', T.int],
      ['decode', T.int],
      ['client', T.int],
    ]),
    (r) => ({
      prefill: itfInt(r.replyCount.prefill),
      decode: itfInt(r.replyCount.decode),
      client: itfInt(r.replyCount.client),
    }),
  ),
  boolField('rejectedOnPrefill'),
  boolField('rejectedOnDecode'),
  field('prefillAbort', T.str, (r) => r.prefillAbort ?? 'none'),
  field('decodeAbort', T.str, (r) => r.decodeAbort ?? 'none'),
  boolField('clientAborted'),
  boolField('dispatched'),
  boolField('kvSent'),
  boolField('committed'),
  field(
    'readAfterFree',
    T.rec([
      ['prefill', T.int],
      ['decode', T.int],
    ]),
    (r) => ({
      prefill: orMinusOne(r.readAfterFree.prefill),
      decode: orMinusOne(r.readAfterFree.decode),
    }),
  ),
  field('reads', T.set(readType), (r) => itfSet(r.reads.map(read))),
  intField('pollPeak'),
  boolField('pollFailed'),
  optional('dstPages', T.seq(T.int), (r) => ints(r.dstPages)),
  boolField('releaseDeferred', true),
  boolField('draining', true),
  optional('auxSlot', T.int, (r) => orMinusOne(r.auxSlot)),
  optional('dstAux', T.int, (r) => orMinusOne(r.dstAux)),
  optional('auxIn', T.int, (r) => orMinusOne(r.auxIn)),
  boolField('firstTokenForeign', true),
  optional(
    'cachedPrefix',
    T.rec([
      ['pages', T.seq(T.int)],
      ['lockRef', T.int],
    ]),
    (r) => ({ pages: ints(r.cachedPrefix?.pages), lockRef: orMinusOne(r.cachedPrefix?.lockRef) }),
  ),
  optional('prefixPages', T.seq(T.int), (r) => ints(r.prefixPages)),
  optional('hostKv', T.seq(T.str), (r) => (r.hostKv ?? []).map(who)),
  optional('roomCrossed', T.int, (r) => itfInt(r.roomCrossed ?? 0)),
  optional('srcPages', T.seq(T.int), (r) => ints(r.srcPages)),
];

/** The fields of `fields` that `sample` has: all but the optional ones it leaves out. */
function fieldsOf<S extends object>(fields: readonly Field<S>[], sample: S): Field<S>[] {
  return fields.filter((f) => f.optional !== true || f.name in sample);
}

function recordOf<S>(fields: readonly Field<S>[], s: S): ItfValue {
  return Object.fromEntries(fields.map((f) => [f.name, f.value(s)]));
}

function recordType<S>(fields: readonly Field<S>[]): ItfType {
  return T.rec(fields.map((f) => [f.name, f.type] as const));
}

const poolType = T.rec([
  ['pageSize', T.int],
  ['free', T.seq(T.int)],
  ['owner', T.map(T.int, T.str)],
  ['writer', T.map(T.tup(T.int, T.int), T.str)],
  ['strayWrites', T.seq(T.tup(T.int, T.str))],
]);

/** A pool: its free list, each page's owner, each slot's last writer, its stray writes. */
function pool(p: PagePool): ItfValue {
  const slot = (s: number) => itfTup(itfInt(Math.floor(s / p.pageSize)), itfInt(s % p.pageSize));
  return {
    pageSize: itfInt(p.pageSize),
    free: ints(p.free),
    owner: itfMap(p.owner.map((o, page) => [itfInt(page), who(o)] as const)),
    writer: itfMap(p.writer.map((w, s) => [slot(s), who(w)] as const)),
    strayWrites: p.strayWrites.map((w) => itfTup(itfInt(w.page), w.by)),
  };
}

/** `f` of each request, keyed by request id in the context's (scenario) order. */
function byRequest<V>(record: Readonly<Record<RequestId, V>>, f: (v: V) => ItfValue): ItfValue {
  return itfMap(Object.entries(record).map(([rid, v]) => [rid, f(v)] as const));
}

type D = DecodedContext;

/** The first request of `d`, whose fields every request shares (one layout per run). */
function sampleRequest(d: D): RequestState {
  const first = Object.values(d.requests)[0];
  if (first === undefined) throw new Error('the context has no request');
  return first;
}

/** The state variables of the model, in `DecodedContext`'s order; optional ones need a mechanism. */
function contextVariables(d: D): Field<D>[] {
  const req = fieldsOf(requestFields, sampleRequest(d));
  const vars: readonly Field<D>[] = [
    field('tenants', T.map(T.str, T.str), (x) => byRequest(x.tenants, (t) => t)),
    optional('prefixGroups', T.map(T.str, T.str), (x) =>
      byRequest(x.prefixGroups ?? {}, (g) => g ?? ''),
    ),
    field('prefillPool', poolType, (x) => pool(x.prefillPool)),
    field('decodePool', poolType, (x) => pool(x.decodePool)),
    field('requests', T.map(T.str, recordType(req)), (x) =>
      byRequest(x.requests, (r) => recordOf(req, r)),
    ),
    optional('auxFree', T.seq(T.int), (x) => ints(x.auxFree)),
    optional('transferFaultsLeft', T.int, (x) => orMinusOne(x.transferFaultsLeft)),
    optional('clientAbortsLeft', T.int, (x) => orMinusOne(x.clientAbortsLeft)),
    optional('retractPending', T.bool, (x) => x.retractPending === true),
    optional(
      'rooms',
      T.seq(
        T.rec([
          ['destination', T.str],
          ['decodeEntry', T.str],
        ]),
      ),
      (x) =>
        (x.rooms ?? []).map((r) => ({
          destination: who(r.destination),
          decodeEntry: r.decodeEntry,
        })),
    ),
  ];
  return fieldsOf(vars, d);
}

/** The model's state variables of a trace whose states are like `sample`: names and types. */
export interface ItfModelVariables {
  /** Variable names, in a fixed order. */
  readonly names: readonly string[];
  /** Each variable's type. */
  readonly types: Readonly<Record<string, ItfType>>;
  /** The variables' values in state `d` (a context of the same scenario as `sample`). */
  readonly values: (d: DecodedContext) => Readonly<Record<string, ItfValue>>;
}

/**
 * The model's state variables for states shaped like `sample` (one scenario's contexts: the same
 * requests, the same mechanisms): `tenants`, `prefixGroups` (with the prefix cache),
 * `prefillPool`, `decodePool`, `requests`, then `auxFree`, `transferFaultsLeft`,
 * `clientAbortsLeft`, `retractPending` and `rooms` where the scenario has them. Throws on a
 * context without requests.
 */
export function itfModelVariables(sample: DecodedContext): ItfModelVariables {
  const vars = contextVariables(sample);
  return {
    names: vars.map((v) => v.name),
    types: Object.fromEntries(vars.map((v) => [v.name, v.type])),
    values: (d) => Object.fromEntries(vars.map((v) => [v.name, v.value(d)])),
  };
}
