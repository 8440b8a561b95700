/**
 * What a predicate on a `ServingState` reads, recorded: the state's words go through recorded
 * words (`src/engine/wordRecorder.ts`) and its state value through a proxy that logs each
 * request region read. Variables are named as `Property.reads` declares them: `request.<name>`,
 * `pool.<name>` (either node) and `global.<name>`, and regions as `region.<name>`. The
 * recording copies are slow (a `Proxy` per access) and serve the self-check of the declared
 * reads only (`checkServingReads`), never the search.
 */
import type { Reads } from '../../../invariants/property.ts';
import type { ServingState } from '../../../invariants/vocabulary.ts';
import type { ServingContext } from '../../../machines/context.ts';
import { recordingWords, wordLog } from '../../engine/index.ts';

/**
 * A state value whose region reads (`value[rid][region]`) are logged into `regions`. The proxies
 * stand over unfrozen copies: a proxy of a frozen object must return its very properties.
 */
function recordingValue(value: ServingState['value'], regions: Set<string>): ServingState['value'] {
  return new Proxy(
    { ...value },
    {
      get(target, rid) {
        const request = (target as Record<string | symbol, unknown>)[rid];
        if (typeof request !== 'object' || request === null) return request;
        return new Proxy(
          { ...request },
          {
            get(inner, region) {
              if (typeof region === 'string') regions.add(region);
              return (inner as Record<string | symbol, unknown>)[region];
            },
          },
        );
      },
    },
  );
}

/** Every variable and region `reads` declares, named as a recorder names what it saw. */
export function declaredNames(reads: Reads): Set<string> {
  return new Set([
    ...(reads.request ?? []).map((x) => `request.${x}`),
    ...(reads.pool ?? []).map((x) => `pool.${x}`),
    ...(reads.global ?? []).map((x) => `global.${x}`),
    ...(reads.regions ?? []).map((x) => `region.${x}`),
  ]);
}

/**
 * A recorder of reads of `s`: each call runs `read` on one recording copy of `s`, built once,
 * and returns the names of the variables and regions that call read (its result is dropped).
 * `read` must not write the state: properties and triggers only read.
 */
export function readsRecorder(s: ServingState): (read: (s: ServingState) => unknown) => string[] {
  const log = wordLog();
  const regions = new Set<string>();
  const words = recordingWords(s.context.words.slice(), log);
  const context: ServingContext = { ...s.context, words };
  const copy: ServingState = { value: recordingValue(s.value, regions), context };
  const L = s.context.layout;
  return (read) => {
    log.reads.clear();
    log.writes.clear();
    regions.clear();
    read(copy);
    const names = new Set<string>();
    for (const w of log.reads) {
      const v = L.variableOf(w);
      names.add(`${v.scope === 'request' || v.scope === 'global' ? v.scope : 'pool'}.${v.name}`);
    }
    for (const r of regions) names.add(`region.${r}`);
    return [...names];
  };
}
