/**
 * What a predicate on a `ServingState` reads, recorded: the state's words go through recorded
 * words (`wordRecorder.ts`) and its state value through a proxy that logs each request region
 * read. Variables are named as `Property.reads` declares them: `request.<name>`, `pool.<name>`
 * (either node) and `global.<name>`, and regions by their name.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import { recordingWords, wordLog } from '../../src/engine/wordRecorder.ts';

/** The variables and regions one call read. */
export interface Recorded {
  readonly variables: Set<string>;
  readonly regions: Set<string>;
}

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

/** Calls `read(s)` on a recording copy of `s`; returns what it read (its result is dropped). */
export function recordReads(read: (s: ServingState) => unknown, s: ServingState): Recorded {
  const log = wordLog();
  const context: ServingContext = {
    ...s.context,
    words: recordingWords(s.context.words.slice(), log),
  };
  const regions = new Set<string>();
  read({ value: recordingValue(s.value, regions), context });
  const L = s.context.layout;
  const variables = new Set<string>();
  for (const w of log.reads) {
    const v = L.variableOf(w);
    variables.add(`${v.scope === 'request' || v.scope === 'global' ? v.scope : 'pool'}.${v.name}`);
  }
  return { variables, regions };
}
