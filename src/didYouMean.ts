/**
 * What a misspelt name could have been. One rule for every name a user types: variants,
 * scenarios, properties, witnesses, machines, states and the keys of scenario and deployment
 * files. It is the rule commander applies to commands and options, so that every suggestion
 * kvcheck makes is made the same way.
 */

/** Suggestions are at most this many edits away, and then only the closest ones. */
const maxEdits = 2;
/** A suggestion shares more than this fraction of the longer name. */
const minSimilarity = 0.4;

/**
 * The optimal string alignment distance between `a` and `b`: insertions, deletions,
 * substitutions and swaps of two neighbouring characters each count one edit.
 */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (beforePrevious[j - 2] ?? 0) + 1);
      }
      row.push(d);
    }
    beforePrevious = previous;
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * The names of `accepted` closest to `word`: at most two edits away and sharing more than 40 %
 * of the longer name, sorted; empty when none is that close. A name of one character is never
 * suggested.
 */
export function closeNames(word: string, accepted: readonly string[]): string[] {
  let best = maxEdits;
  let close: string[] = [];
  for (const name of new Set(accepted)) {
    if (name.length <= 1 || name === word) continue;
    const distance = editDistance(word, name);
    const length = Math.max(word.length, name.length);
    if ((length - distance) / length <= minSimilarity || distance > best) continue;
    if (distance < best) close = [];
    best = distance;
    close.push(name);
  }
  return close.sort();
}

/**
 * The end of a one-line error about the unknown name `word`: `did you mean X?` (or `did you mean
 * one of X, Y?`) when names of `accepted` are close to it, otherwise the whole list after
 * `label`: `accepted: a, b, …`.
 */
export function didYouMean(word: string, accepted: readonly string[], label = 'accepted'): string {
  const close = closeNames(word, accepted);
  if (close.length === 1) return `did you mean ${close[0]}?`;
  if (close.length > 1) return `did you mean one of ${close.join(', ')}?`;
  return `${label}: ${accepted.join(', ')}`;
}
