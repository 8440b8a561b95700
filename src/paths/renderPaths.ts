/**
 * Plain-text rendering of a `PathsReport`: a verdict headline, then the shortest paths as
 * numbered steps, each step the event and the region moves it caused.
 */
import type { LifecyclePath, PathMove, PathStep, PathsReport } from './findPaths.ts';

/** The shortest path of each distinct from → to pair, in the statechart's document order. */
function shortestPerPair(report: PathsReport): LifecyclePath[] {
  const seen = new Map<string, LifecyclePath>();
  const rank = (p: LifecyclePath) => [report.from.indexOf(p.from), report.to.indexOf(p.to)];
  const ordered = [...report.paths].sort((a, b) => {
    const [fa = 0, ta = 0] = rank(a);
    const [fb = 0, tb = 0] = rank(b);
    return fa - fb || ta - tb;
  });
  for (const p of ordered) {
    const key = `${p.from} → ${p.to}`;
    const best = seen.get(key);
    if (!best || p.steps.length < best.steps.length) seen.set(key, p);
  }
  return [...seen.values()];
}

function renderMove(m: PathMove): string {
  return `${m.region}: ${m.from} → ${m.to}`;
}

function renderStep(s: PathStep, index: number): string {
  return `  ${index + 1}. ${s.event}  ${s.moves.map(renderMove).join('; ')}`;
}

/** `starts in router awaiting, prefill received, …`: the configuration before the first step. */
function renderStart(p: LifecyclePath): string {
  const regions = Object.entries(p.start).map(([region, state]) => `${region} ${state}`);
  return `  starts in ${regions.join(', ')}`;
}

function renderPath(p: LifecyclePath): string {
  const head = `${p.from} → ${p.to}, shortest path (${p.steps.length} steps):`;
  return [head, renderStart(p), ...p.steps.map(renderStep)].join('\n');
}

function headline(r: PathsReport): string {
  const between = `from ${r.fromLabel} to ${r.toLabel}`;
  const checked = `(checked ${r.configurations} configurations)`;
  if (r.paths.length === 0 && !r.truncated)
    return `[ok] ${r.variant}: no path ${between} ${checked}`;
  const count = `${r.truncated ? 'at least ' : ''}${r.paths.length} path(s)`;
  return `[violation] ${r.variant}: ${count} ${between} ${checked}`;
}

/**
 * The report as text: the headline (`[violation] incident-2026: 16 path(s) from a rejected state
 * to a decoding state (checked 97 configurations)` or `[ok] fixed: no path …`), then, for each
 * distinct from → to pair, its shortest path in full, and a count of the others.
 */
export function renderPaths(report: PathsReport): string {
  const pairs = shortestPerPair(report);
  const shown = pairs.map(renderPath);
  const rest = report.paths.length - pairs.length;
  const more = rest > 0 ? [`… and ${rest} longer or reordered path(s) (use --json)`] : [];
  const cut = report.truncated ? [`(stopped at ${report.paths.length} paths; more may exist)`] : [];
  return [headline(report), ...shown, ...more, ...cut].join('\n');
}
