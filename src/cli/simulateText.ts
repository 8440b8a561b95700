/**
 * Terminal text for simulation results: a summary line, the seed, runs per second and the
 * distribution of walk depths, what shrinking did, the witnesses, then each shrunk
 * counterexample as `check` prints it, with a `simulate` reproduce line. Pure: results in, text
 * out.
 */

import { count, duration } from '../numbers.ts';
import type { SimulationResult } from '../simulate/simulate.ts';
import { renderViolation, renderWitnesses, type ScenarioArgs, table } from './render.ts';
import { paint } from './style.ts';

/** The flags that name one result's walks, for reproduce lines. */
export interface ReplayFlags {
  /** `--scenario NAME` or `--config FILE`, per scenario name. */
  readonly scenarios: ScenarioArgs;
  /** `--invariant NAME` flags given, if any. */
  readonly invariants: readonly string[];
}

/** The command line that replays `r` exactly: same scenario, variant, bounds and seed. */
export function simulateReproduceLine(r: SimulationResult, flags: ReplayFlags): string {
  const scenario = flags.scenarios.get(r.scenario) ?? `--scenario ${r.scenario}`;
  const invariants = flags.invariants.map((n) => ` --invariant ${n}`).join('');
  const s = r.simulation;
  return `npx kvcheck simulate ${scenario} --variant ${r.variant}${invariants} --runs ${s.runs} --depth ${s.depthLimit} --seed ${s.seed}`;
}

function summaryLine(r: SimulationResult, colour: boolean): string {
  const where = `${r.scenario} × ${r.variant}`;
  const size = `${count(r.simulation.runs)} runs, ${count(r.simulation.steps)} steps, ${duration(r.stats.ms)}`;
  if (r.status === 'violation') {
    const names = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    return `${paint(colour, 'red', '[violation]')} ${where}: ${names.join(', ')} (${size})`;
  }
  return `${paint(colour, 'yellow', '[incomplete]')} ${where}: no violation in any random walk; nothing is proven (${size})`;
}

function depthLines(r: SimulationResult): string[] {
  const d = r.simulation.depths;
  const s = r.simulation;
  const stopped = d.cutOff > 0 ? `, ${count(d.cutOff)} stopped at --depth ${s.depthLimit}` : '';
  const head = `  seed ${s.seed}; ${count(s.runsPerSecond)} runs/s; depth min ${d.min}, median ${d.median}, mean ${d.mean}, max ${d.max}; ${count(d.terminal)} ended with no event enabled${stopped}`;
  const widest = Math.max(1, ...d.histogram.map((b) => b.runs));
  const rows = d.histogram.map((b) => [
    b.from === b.to ? String(b.from) : `${b.from}-${b.to}`,
    count(b.runs),
    '#'.repeat(Math.ceil((b.runs / widest) * 30)),
  ]);
  const histogram = table(['depth', 'runs', ''], rows, [1])
    .split('\n')
    .map((l) => `    ${l}`);
  return [head, ...histogram];
}

function shrinkLines(r: SimulationResult): string[] {
  return r.simulation.shrinks.map(
    (s) =>
      `  shrunk ${s.property}: walk ${s.run} (${s.walkSteps} steps, ${s.walkRequests} requests) to ${s.steps} steps, ${s.requests} request${s.requests === 1 ? '' : 's'} (${s.walks} walk${s.walks === 1 ? '' : 's'} shrunk, ${count(s.replays)} replays)`,
  );
}

/** The human report of simulation results. */
export function renderSimulation(
  results: readonly SimulationResult[],
  flags: ReplayFlags,
  colour: boolean,
): string {
  const parts: string[] = [];
  for (const r of results) {
    parts.push(summaryLine(r, colour), ...depthLines(r), ...shrinkLines(r));
    parts.push(renderWitnesses(r));
    for (const p of r.properties) {
      if (p.status !== 'violated') continue;
      parts.push(
        '',
        renderViolation(r, p, flags.scenarios, colour, simulateReproduceLine(r, flags)),
      );
    }
    if (r.status !== 'violation') {
      parts.push(`  Reproduce: ${simulateReproduceLine(r, flags)}`);
    }
    parts.push('');
  }
  return parts.join('\n');
}
