/**
 * Request signatures for the serving machine's symmetry canonicaliser: a request's region
 * states and its record without the read set, interned as one number. Neither part mentions
 * another request's id, so renaming requests moves signatures between ids without changing
 * them, and the signatures of an image are a permutation of the state's own. Numbers are
 * assigned in first-seen order, which is fixed once assigned, so ordering by them is a
 * consistent total order for the rest of the search.
 */
import type { RequestState } from '../../machines/context.ts';

/** Interned signatures, cached per (immutable) region value and record object. */
export class SignatureTable {
  private readonly texts = new Map<string, number>();
  private readonly regions = new WeakMap<object, number>();
  private readonly records = new WeakMap<object, number>();

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

  private recordId(r: RequestState | undefined): number {
    if (!r) return 0;
    let id = this.records.get(r);
    if (id === undefined) {
      let text = 'r';
      for (const [k, v] of Object.entries(r)) {
        if (k === 'reads') continue;
        text += typeof v === 'object' && v !== null ? `|${JSON.stringify(v)}` : `|${String(v)}`;
      }
      id = this.intern(text);
      this.records.set(r, id);
    }
    return id;
  }

  /** The signature of a request whose region states are `region` and record is `record`. */
  id(region: unknown, record: RequestState | undefined): number {
    return this.regionId(region) * 2 ** 26 + this.recordId(record);
  }
}
