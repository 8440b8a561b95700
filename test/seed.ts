/**
 * The seed of every seeded test: `KVCHECK_SEED` when set (CI sets it in `.ci/run`), else the
 * test's own `fallback`. A failing fast-check run prints its seed and path; set `KVCHECK_SEED`
 * to replay another seed.
 */
export function pinnedSeed(fallback = 20261026): number {
  const raw = process.env.KVCHECK_SEED;
  if (raw === undefined || raw === '') return fallback;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`KVCHECK_SEED must be an integer, got ${raw}`);
  return seed;
}
