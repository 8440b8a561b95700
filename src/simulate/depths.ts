/**
 * The distribution of the depths random walks reached: summary figures and a histogram.
 */

/** One histogram bar: walks whose depth lies in `[from, to]`. */
export interface DepthBucket {
  readonly from: number;
  readonly to: number;
  readonly runs: number;
}

/** How deep the walks went. */
export interface DepthDistribution {
  readonly min: number;
  readonly median: number;
  readonly mean: number;
  readonly max: number;
  /** Walks that ended in a terminal state (no event enabled). */
  readonly terminal: number;
  /** Walks stopped by the depth bound before reaching a terminal state. */
  readonly cutOff: number;
  /** At most `buckets` bars of equal integer width from `min` to `max`, in order. */
  readonly histogram: readonly DepthBucket[];
}

/**
 * The distribution of `depths` (one per walk; `terminal` of them ended in a terminal state), in
 * at most `buckets` bars. All figures are 0 and the histogram empty when there are no walks.
 */
export function depthDistribution(
  depths: readonly number[],
  terminal: number,
  buckets = 8,
): DepthDistribution {
  if (depths.length === 0) {
    return { min: 0, median: 0, mean: 0, max: 0, terminal: 0, cutOff: 0, histogram: [] };
  }
  const sorted = [...depths].sort((a, b) => a - b);
  const min = sorted[0] ?? 0;
  const max = sorted.at(-1) ?? 0;
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  const mean = Math.round((sorted.reduce((n, d) => n + d, 0) / sorted.length) * 10) / 10;
  const width = Math.max(1, Math.ceil((max - min + 1) / buckets));
  const histogram: DepthBucket[] = [];
  for (let from = min; from <= max; from += width) {
    const to = Math.min(max, from + width - 1);
    histogram.push({ from, to, runs: sorted.filter((d) => d >= from && d <= to).length });
  }
  return { min, median, mean, max, terminal, cutOff: depths.length - terminal, histogram };
}
