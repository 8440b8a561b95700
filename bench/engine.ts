/**
 * `npx tsx bench/engine.ts [--json] [--quick]`: the fast engine (`src/engine`) against the
 * reference engine (`exploreScenario`: `getAdjacencyMap` with kvcheck's compact options), on the
 * same machines in the same run. Each timing is the best of several runs (the first runs pay for
 * JIT compilation); numbers compare within one run only.
 *
 * Tables: (1) built-in scenarios and a 3-request scenario, states/s of both engines and their
 * ratio, with and without the 13 properties, and bytes per stored state; (2) a larger 3-request
 * space the reference engine is not run on, fast engine only; (3) states with and without
 * symmetry reduction, with the verdicts. `--json` prints one record per scenario × engine.
 */
import { properties } from '../invariants/index.ts';
import type { ServingState } from '../invariants/vocabulary.ts';
import type { ServingContext } from '../machines/context.ts';
import type { ExternalEvent } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import { type Variant, variants } from '../machines/variants.ts';
import { band, incident, scenarios } from '../scenarios/index.ts';
import { exploreScenario } from '../src/checker/stateGraph.ts';
import { explore } from '../src/engine/index.ts';
import { servingEvents } from '../src/engine/servingEvents.ts';
import { servingSymmetry } from '../src/engine/servingSymmetry.ts';
import type { ExploreOptions, ExploreResult, StateProjection } from '../src/engine/types.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');

type Options = ExploreOptions<ServingContext, ExternalEvent>;
type Result = ExploreResult<ServingContext, ExternalEvent>;
type Case = [Scenario, Variant];

type Check = (s: StateProjection<ServingContext>) => boolean;
const stateProps: Record<string, Check> = {};
const terminalProps: Record<string, Check> = {};
for (const [name, p] of Object.entries(properties)) {
  const check = (s: StateProjection<ServingContext>) => p(s as ServingState);
  (p.kind === 'terminal' ? terminalProps : stateProps)[name] = check;
}
const withProps: Options = { invariants: stateProps, terminalInvariants: terminalProps };

const variant = (name: string): Variant => {
  const v = variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return v;
};
const request = (id: string, tenant: string, promptLen: number, outputLen: number) => ({
  id,
  tenant,
  promptLen,
  outputLen,
});
/** Incident plus a second request of tenant A with A's parameters (a1 and a2 are symmetric). */
const incident3: Scenario = {
  ...incident,
  name: 'incident-3',
  requests: [...incident.requests, request('a2', 'A', 1, 2)],
};
/** Two tenants with one identical request each (the tenants are symmetric). */
const twins: Scenario = {
  ...incident,
  name: 'twins',
  requests: [request('a1', 'A', 3, 2), request('b1', 'B', 3, 2)],
};
/** Two tenants' identical band-length prompts and a third tenant's too-long one. */
const band3: Scenario = {
  ...band,
  name: 'band-3',
  requests: [request('a1', 'A', 5, 1), request('b1', 'B', 5, 1), request('c1', 'C', 10, 1)],
};

interface BenchRecord {
  scenario: string;
  variant: string;
  engine: string;
  states: number;
  transitions: number;
  ms: number;
  statesPerSecond: number;
  bytesPerState?: number;
}
const records: BenchRecord[] = [];

function best<T>(runs: number, run: () => T): { value: T; ms: number } {
  let out: { value: T; ms: number } | undefined;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const value = run();
    const ms = performance.now() - start;
    if (!out || ms < out.ms) out = { value, ms };
  }
  if (!out) throw new Error('no run');
  return out;
}

/** A run of the fast engine on a machine built once. */
function fast([scenario, v]: Case, extra: Options = {}): () => Result {
  const machine = createServingMachine(scenario, v);
  const events = servingEvents(scenario.requests.map((r) => r.id));
  return () => explore<ServingContext, ExternalEvent>(machine, { events, ...extra });
}

/** Records a run; returns its states per second. */
function record(
  [s, v]: Case,
  engine: string,
  stats: Omit<BenchRecord, 'scenario' | 'variant' | 'engine' | 'statesPerSecond' | 'ms'>,
  ms: number,
): number {
  const statesPerSecond = Math.round((stats.states / ms) * 1000);
  records.push({
    scenario: s.name,
    variant: v.name,
    engine,
    ...stats,
    ms: Math.round(ms),
    statesPerSecond,
  });
  return statesPerSecond;
}

function table(head: string, rows: string[][]): string {
  const cols = head.split('|');
  const widths = cols.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (c: string, i: number) =>
    i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0);
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  return [
    line(cols),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
const n = (x: number) => x.toLocaleString('en-US');
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;

// (1) Same machines, both engines.
const compared: Case[] = [
  ...scenarios.flatMap((s) => ['incident-2026', 'fixed'].map((v): Case => [s, variant(v)])),
  [{ ...incident, name: 'incident-faults', transferFaults: true }, variant('incident-2026')],
  [incident3, variant('fixed')],
];
const rows1: string[][] = [];
for (const c of compared) {
  const [s, v] = c;
  const ref = best(s.requests.length > 2 || quick ? 1 : 3, () => exploreScenario(s, v));
  const refStats = {
    states: ref.value.states.length,
    transitions: ref.value.edges.reduce((k, e) => k + e.length, 0),
  };
  const bare = best(quick ? 2 : 7, fast(c));
  const full = best(quick ? 2 : 7, fast(c, withProps));
  if (bare.value.stats.states !== refStats.states) {
    throw new Error(`${s.name} × ${v.name}: ${bare.value.stats.states} ≠ ${refStats.states}`);
  }
  const g = record(c, 'graph', refStats, ref.ms);
  const f = record(c, 'fast', bare.value.stats, bare.ms);
  const fp = record(c, 'fast+properties', full.value.stats, full.ms);
  const bytes = String(bare.value.stats.bytesPerState);
  rows1.push([
    s.name,
    v.name,
    n(refStats.states),
    n(g),
    n(f),
    ratio(f, g),
    n(fp),
    ratio(fp, g),
    bytes,
  ]);
}

// (2) A space the reference engine is not run on.
const rows2: string[][] = [];
for (const c of quick ? [] : [[incident3, variant('retire-only')] as Case]) {
  const runs: [string, Options][] = [
    ['fast', {}],
    ['fast+properties', withProps],
    ['fast, exact keys', { exact: true }],
  ];
  for (const [label, extra] of runs) {
    const { value: r, ms } = best(1, fast(c, extra));
    const sps = record(c, label, r.stats, ms);
    const p = r.collisionProbability?.toExponential(1) ?? '-';
    const cells = [r.stats.states, r.stats.transitions, Math.round(ms), sps].map(n);
    rows2.push([c[0].name, c[1].name, label, ...cells, String(r.stats.bytesPerState), p]);
  }
}

// (3) Symmetry reduction: states and verdicts with and without.
const symCases: Case[] = [
  ...scenarios.map((s): Case => [s, variant('incident-2026')]),
  ...variants.map((v): Case => [twins, v]),
  ...variants.map((v): Case => [band3, v]),
  [incident3, variant('fixed')],
  ...(quick ? [] : [[incident3, variant('retire-only')] as Case]),
];
const verdict = (r: Result) => r.violations.map((x) => `${x.name}:${x.trace.length}`).join(', ');
const rows3: string[][] = [];
for (const c of symCases) {
  const off = best(1, fast(c, withProps));
  const on = best(1, fast(c, { ...withProps, symmetry: servingSymmetry(c[0]) }));
  record(c, 'fast+properties, symmetry', on.value.stats, on.ms);
  const [a, b] = [off.value, on.value];
  const same = verdict(a) === verdict(b) && a.status === b.status;
  rows3.push([
    c[0].name,
    c[1].name,
    ...[a.stats.states, b.stats.states].map(n),
    ratio(a.stats.states, b.stats.states),
    ...[off.ms, on.ms].map((ms) => n(Math.round(ms))),
    same ? `same (${a.status})` : `DIFFER: ${verdict(a)} / ${verdict(b)}`,
  ]);
}

if (json) {
  console.log(JSON.stringify(records, null, 2));
} else {
  console.log('Same machines, same run; st/s = best of several runs; ratio = fast ÷ graph.\n');
  console.log(
    table(
      'scenario|variant|states|graph st/s|fast st/s|ratio|fast+props st/s|ratio|bytes/state',
      rows1,
    ),
  );
  if (rows2.length > 0) {
    console.log('\nA larger space (the reference engine is not run on it):\n');
    const head = 'scenario|variant|engine|states|transitions|ms|st/s|bytes/state|P(collision)';
    console.log(table(head, rows2));
  }
  console.log('\nSymmetry reduction (with the 13 properties):\n');
  console.log(table('scenario|variant|states|with symmetry|reduction|ms|ms (sym)|verdicts', rows3));
}
