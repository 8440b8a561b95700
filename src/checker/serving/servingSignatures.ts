/**
 * Request signatures for the serving machine's symmetry canonicaliser: a request's region
 * states (interned in first-seen order, fixed once assigned) and a 32-bit hash of its record
 * without the read set, as one number. Neither part mentions another request's id, so renaming
 * requests moves signatures between ids without changing them, and the signatures of an image
 * are a permutation of the state's own. A signature is a function of the request's content
 * alone, so ordering by signatures is a consistent total preorder for the rest of the search.
 */
import type { RequestState } from '../../../machines/context.ts';
import { fmix32, hashString, mixA } from '../../engine/index.ts';

/** Mixes the plain JSON value `v` into `h`: tagged words in document order, keys left out. */
function mixValue(h0: number, v: unknown): number {
  let h = h0;
  if (v === null || v === undefined) return mixA(h, 1);
  switch (typeof v) {
    case 'boolean':
      return mixA(h, v ? 2 : 3);
    case 'number':
      return mixA(mixA(h, 4), (v | 0) === v ? v : hashString(String(v), 0, 0).a);
    case 'string':
      return mixA(mixA(h, 5), hashString(v, 0, 0).a);
    case 'object':
      if (Array.isArray(v)) {
        h = mixA(mixA(h, 6), v.length);
        for (let i = 0; i < v.length; i++) h = mixValue(h, v[i]);
        return h;
      }
      h = mixA(h, 7);
      for (const k in v) h = mixValue(h, (v as Record<string, unknown>)[k]);
      return mixA(h, 8);
    default:
      return mixA(h, 9);
  }
}

/**
 * A request record's hash without its read set. Equal records (by JSON text) get equal hashes;
 * unequal ones almost always differ, and when they do not, the canonicaliser only breaks a tie
 * it did not need to (by comparing JSON texts), so a collision costs time, never correctness.
 */
function recordHash(r: RequestState): number {
  let h = 0x2545f491;
  for (const k in r) {
    if (k !== 'reads') h = mixValue(h, (r as unknown as Record<string, unknown>)[k]);
  }
  return fmix32(h);
}

/** Signatures: interned region states, and hashes of request records. */
export class SignatureTable {
  private readonly texts = new Map<string, number>();
  private readonly regions = new WeakMap<object, number>();

  private intern(text: string): number {
    let id = this.texts.get(text);
    if (id === undefined) {
      id = this.texts.size;
      this.texts.set(text, id);
    }
    return id;
  }

  private regionId(v: unknown): number {
    if (typeof v !== 'object' || v === null) return this.intern(`v${JSON.stringify(v)}`);
    let id = this.regions.get(v);
    if (id === undefined) {
      id = this.intern(`v${JSON.stringify(v)}`);
      // The engine freezes and shares region values per configuration; others are not kept.
      if (Object.isFrozen(v)) this.regions.set(v, id);
    }
    return id;
  }

  /** The signature of a request whose region states are `region` and record is `record`. */
  id(region: unknown, record: RequestState | undefined): number {
    return this.regionId(region) * 2 ** 32 + (record ? recordHash(record) : 0);
  }
}
