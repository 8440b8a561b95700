/**
 * ITF values and their types: the expressions of the Informal Trace Format
 * (https://apalache-mc.org/docs/adr/015adr-trace.html) that kvcheck writes, the constructors that
 * build them deterministically, and the types Apalache reads from `#meta.varTypes` (ADR-002's
 * syntax: `Int`, `Str`, `Bool`, `Seq(T)`, `Set(T)`, `<<T1, T2>>`, `T1 -> T2`, `{ f: T }`).
 *
 * Every integer is written `{ "#bigint": "…" }`, as the ADR's current revision requires (earlier
 * revisions also allowed plain JSON numbers in the safe range; readers accept both).
 */

/** An ITF integer. */
export interface ItfBigint {
  readonly '#bigint': string;
}

/** An ITF tuple. */
export interface ItfTup {
  readonly '#tup': readonly ItfValue[];
}

/** An ITF set: its elements in a fixed order (`itfSet` sorts them). */
export interface ItfSet {
  readonly '#set': readonly ItfValue[];
}

/** An ITF map: `[key, value]` pairs, keys of any ITF value. */
export interface ItfMap {
  readonly '#map': readonly (readonly [ItfValue, ItfValue])[];
}

/** An ITF record: field names are identifiers, never starting with `#`. */
export interface ItfRecord {
  readonly [field: string]: ItfValue;
}

/** An ITF expression as kvcheck writes it (no `#unserializable`). */
export type ItfValue =
  | boolean
  | string
  | ItfBigint
  | readonly ItfValue[]
  | ItfTup
  | ItfSet
  | ItfMap
  | ItfRecord;

/** The type of an ITF value, as ADR-002 spells types. */
export type ItfType =
  | { readonly kind: 'Int' }
  | { readonly kind: 'Str' }
  | { readonly kind: 'Bool' }
  | { readonly kind: 'Seq'; readonly of: ItfType }
  | { readonly kind: 'Set'; readonly of: ItfType }
  | { readonly kind: 'Tup'; readonly of: readonly ItfType[] }
  | { readonly kind: 'Map'; readonly key: ItfType; readonly value: ItfType }
  | { readonly kind: 'Rec'; readonly fields: readonly (readonly [string, ItfType])[] };

/** The type constructors, for building `ItfType`s tersely. */
export const T = {
  int: { kind: 'Int' } as const,
  str: { kind: 'Str' } as const,
  bool: { kind: 'Bool' } as const,
  seq: (of: ItfType): ItfType => ({ kind: 'Seq', of }),
  set: (of: ItfType): ItfType => ({ kind: 'Set', of }),
  tup: (...of: ItfType[]): ItfType => ({ kind: 'Tup', of }),
  map: (key: ItfType, value: ItfType): ItfType => ({ kind: 'Map', key, value }),
  rec: (fields: readonly (readonly [string, ItfType])[]): ItfType => ({ kind: 'Rec', fields }),
};

/** `n` as an ITF integer; throws a RangeError on a number that is not a safe integer. */
export function itfInt(n: number): ItfBigint {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not an integer`);
  return { '#bigint': String(n) };
}

/** The tuple of `items`. */
export function itfTup(...items: ItfValue[]): ItfTup {
  return { '#tup': items };
}

/** The set of `items`: duplicates dropped, sorted by their JSON text, so equal sets are equal bytes. */
export function itfSet(items: readonly ItfValue[]): ItfSet {
  const byText = new Map(items.map((x) => [JSON.stringify(x), x] as const));
  const keys = [...byText.keys()].sort();
  return { '#set': keys.map((k) => byText.get(k) as ItfValue) };
}

/** The map of `entries`, in the order given (callers pass a fixed order: pages, scenario order). */
export function itfMap(entries: readonly (readonly [ItfValue, ItfValue])[]): ItfMap {
  return { '#map': entries };
}

function isObject(v: ItfValue): v is Readonly<Record<string, ItfValue>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A type as a part of another: a function type in parentheses, so it parses unambiguously. */
function nested(t: ItfType): string {
  return t.kind === 'Map' ? `(${itfTypeText(t)})` : itfTypeText(t);
}

/**
 * `t` in ADR-002's syntax (`Str -> { owner: (Int -> Str) }`), as `#meta.varTypes` holds it: a
 * function type inside another type is parenthesized.
 */
export function itfTypeText(t: ItfType): string {
  switch (t.kind) {
    case 'Int':
    case 'Str':
    case 'Bool':
      return t.kind;
    case 'Seq':
    case 'Set':
      return `${t.kind}(${nested(t.of)})`;
    case 'Tup':
      return `<<${t.of.map(nested).join(', ')}>>`;
    case 'Map':
      return `${nested(t.key)} -> ${nested(t.value)}`;
    case 'Rec':
      return `{ ${t.fields.map(([f, ft]) => `${f}: ${nested(ft)}`).join(', ')} }`;
  }
}

/** Where `v` first fails to be of its container's element type, or null. */
function allConform(vs: readonly ItfValue[], t: ItfType, path: string): string | null {
  for (const [i, x] of vs.entries()) {
    const bad = itfMismatch(x, t, `${path}[${i}]`);
    if (bad !== null) return bad;
  }
  return null;
}

function isBigint(v: ItfValue): boolean {
  if (!isObject(v) || Object.keys(v).join() !== '#bigint') return false;
  const digits = v['#bigint'];
  return typeof digits === 'string' && /^-?[0-9]+$/.test(digits);
}

function tagged(v: ItfValue, tag: string): readonly ItfValue[] | null {
  if (!isObject(v) || Object.keys(v).join() !== tag) return null;
  const inner = v[tag];
  return Array.isArray(inner) ? inner : null;
}

function mapMismatch(v: ItfValue, key: ItfType, value: ItfType, path: string): string | null {
  const entries = tagged(v, '#map');
  if (entries === null) return `${path}: not a #map`;
  for (const [i, e] of entries.entries()) {
    if (!Array.isArray(e) || e.length !== 2) return `${path}[${i}]: not a [key, value] pair`;
    const bad =
      itfMismatch(e[0] as ItfValue, key, `${path}[${i}].key`) ??
      itfMismatch(e[1] as ItfValue, value, `${path}[${i}].value`);
    if (bad !== null) return bad;
  }
  return null;
}

function recMismatch(
  v: ItfValue,
  fields: readonly (readonly [string, ItfType])[],
  path: string,
): string | null {
  if (!isObject(v)) return `${path}: not a record`;
  const names = fields.map(([f]) => f);
  if (Object.keys(v).join() !== names.join()) return `${path}: fields are not ${names.join(', ')}`;
  for (const [f, ft] of fields) {
    const bad = itfMismatch(v[f] as ItfValue, ft, `${path}.${f}`);
    if (bad !== null) return bad;
  }
  return null;
}

function tupMismatch(v: ItfValue, of: readonly ItfType[], path: string): string | null {
  const items = tagged(v, '#tup');
  if (items === null || items.length !== of.length) return `${path}: not a ${of.length}-#tup`;
  for (const [i, t] of of.entries()) {
    const bad = itfMismatch(items[i] as ItfValue, t, `${path}[${i}]`);
    if (bad !== null) return bad;
  }
  return null;
}

/**
 * Null when `v` is a value of type `t`; otherwise where and why it is not (`requests[0].value.
 * reads: not a #set`). Records must have exactly the type's fields, in its order; an integer
 * must be a `#bigint` of decimal digits.
 */
export function itfMismatch(v: ItfValue, t: ItfType, path = '$'): string | null {
  switch (t.kind) {
    case 'Int':
      return isBigint(v) ? null : `${path}: not a #bigint`;
    case 'Str':
      return typeof v === 'string' ? null : `${path}: not a string`;
    case 'Bool':
      return typeof v === 'boolean' ? null : `${path}: not a Boolean`;
    case 'Seq':
      return Array.isArray(v) ? allConform(v, t.of, path) : `${path}: not a list`;
    case 'Set': {
      const items = tagged(v, '#set');
      return items === null ? `${path}: not a #set` : allConform(items, t.of, path);
    }
    case 'Tup':
      return tupMismatch(v, t.of, path);
    case 'Map':
      return mapMismatch(v, t.key, t.value, path);
    case 'Rec':
      return recMismatch(v, t.fields, path);
  }
}
