/**
 * The change sentences of a trace step, parsed back into data. `src/checker/stepChanges.ts`
 * writes them with stable prefixes (`… page N allocated to …`, `… written by …`, `… reads …`,
 * `… freed by …`, `… replies …`, `… client gets …`, `room: …`); a sentence of another shape is
 * kept whole as `other`, never an error.
 */

/** One change sentence, parsed; `other` keeps a sentence this module does not know. */
export type Change =
  | { kind: 'region'; rid: string; region: string; text: string }
  | { kind: 'arrived' | 'committed'; rid: string; text: string }
  /** `to`: the room's new KVPoll as `stepChanges` names it (`KVPoll Success`). */
  | { kind: 'room'; rid: string; to: string; text: string }
  | { kind: 'swap'; rid: string; node: string; text: string }
  /** `holding`: the requests whose KV the page still holds, '' if none. */
  | { kind: 'allocated'; node: string; page: string; rid: string; holding: string }
  | { kind: 'freed'; node: string; page: string; rid: string }
  /** `slot`: '' when a page is one slot; `writer` as `b1 (tenant B)`; `was`: a rid or `never written`. */
  | { kind: 'written'; node: string; page: string; slot: string; writer: string; was: string }
  | { kind: 'read'; rid: string; node: string; page: string; writer: string; foreign: boolean }
  | { kind: 'reply'; rid: string; side: string; status: string; tokens: string }
  | { kind: 'client'; rid: string; status: string; tokens: string }
  | { kind: 'other'; text: string };

const foreignMark = ' ← another tenant’s KV';

/** Sentence shapes of `stepChanges`, each with the change it means (groups: '' if absent). */
const shapes: readonly (readonly [RegExp, (g: readonly string[], text: string) => Change])[] = [
  [
    /^(\S+) (router|prefill|decode): .+ → .+$/,
    ([rid = '', region = ''], text) => ({ kind: 'region', rid, region, text }),
  ],
  [/^(\S+) room: .+ → (.+)$/, ([rid = '', to = ''], text) => ({ kind: 'room', rid, to, text })],
  [
    /^(\S+) prompt swapped for a \d+-token placeholder on (prefill|decode)$/,
    ([rid = '', node = ''], text) => ({ kind: 'swap', rid, node, text }),
  ],
  [
    /^(\S+): \d+ position\(s\) of KV arrived on decode$/,
    ([rid = ''], text) => ({ kind: 'arrived', rid, text }),
  ],
  [/^(\S+) committed with seq_len \d+$/, ([rid = ''], text) => ({ kind: 'committed', rid, text })],
  [
    /^(prefill|decode) page (\d+) allocated to (\S+?)(?:, still holding KV of (.+))?$/,
    ([node = '', page = '', rid = '', holding = '']) => ({
      kind: 'allocated',
      node,
      page,
      rid,
      holding,
    }),
  ],
  [
    /^(prefill|decode) page (\d+) freed by (\S+)/,
    ([node = '', page = '', rid = '']) => ({ kind: 'freed', node, page, rid }),
  ],
  [
    /^(prefill|decode) page (\d+)(?: slot (\d+))? written by (.+) \(was ([^()]*)\)$/,
    ([node = '', page = '', slot = '', writer = '', was = '']) => ({
      kind: 'written',
      node,
      page,
      slot,
      writer,
      was,
    }),
  ],
  [
    /^(\S+) reads (prefill|decode) page (\d+), last written by (.+?)( ← another tenant’s KV)?$/,
    ([rid = '', node = '', page = '', writer = '', mark = '']) => ({
      kind: 'read',
      rid,
      node,
      page,
      writer,
      foreign: mark === foreignMark,
    }),
  ],
  [
    /^(\S+) (prefill|decode) replies (\S+) \((\d+) token\(s\)\)$/,
    ([rid = '', side = '', status = '', tokens = '']) => ({
      kind: 'reply',
      rid,
      side,
      status,
      tokens,
    }),
  ],
  [
    /^(\S+) client gets (\S+) \((\d+) token\(s\)\)$/,
    ([rid = '', status = '', tokens = '']) => ({ kind: 'client', rid, status, tokens }),
  ],
];

/** Parses one sentence written by `stepChanges`; unknown sentences come back as `other`. */
export function parseChange(text: string): Change {
  for (const [re, build] of shapes) {
    const m = re.exec(text);
    if (m)
      return build(
        m.slice(1).map((g) => g ?? ''),
        text,
      );
  }
  return { kind: 'other', text };
}
