/**
 * `kvcheck liveness [--scenario NAME | --config FILE]... [--variant NAME]... [--max-states N]
 * [--json]`: the leads-to properties (`eventuallyAnswered`, `pagesEventuallyFreed`) under weak
 * fairness per request region, per scenario × variant, on the unreduced state graph. A violation
 * is a lasso: a prefix, then a cycle every continuously enabled region takes part in. Exit 1 on
 * a lasso, 3 when a bound stopped a search first, 2 on bad input.
 */
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { checkServingLiveness, livenessStatements } from '../checker/serving/servingLiveness.ts';
import type { Lasso, LivenessResult } from '../engine/index.ts';
import { count } from '../numbers.ts';
import { exitCode } from './exitCodes.ts';
import { type Io, resolveScenarios, resolveVariants, type SelectionArgs } from './resolve.ts';
import { wholeNumber } from './usageError.ts';

/** Options of `kvcheck liveness`, as parsed from the command line. */
export interface LivenessArgs extends SelectionArgs {
  readonly maxStates?: string;
  readonly json: boolean;
}

type Result = LivenessResult<ServingContext, ExternalEvent>;

interface Row {
  readonly scenario: string;
  readonly variant: string;
  readonly result: Result;
}

function stepText(e: ExternalEvent): string {
  return `${e.type} ${e.rid}`;
}

/** A lasso as numbered steps, then the step the cycle returns to. */
export function lassoText(lasso: Lasso<ServingContext, ExternalEvent>, rid: string): string[] {
  const back = lasso.loop === 0 ? 'the initial state' : `the state after step ${lasso.loop}`;
  return [
    `  ${lasso.name} violated for ${rid}: a lasso of ${lasso.trace.length} steps, cycling from step ${lasso.loop + 1}`,
    `    ${livenessStatements[lasso.name] ?? ''}`,
    ...lasso.trace.map(
      (s, i) => `    ${i + 1}. ${stepText(s.event)}${i === lasso.loop ? '  ← cycle starts' : ''}`,
    ),
    `    ↺ back to ${back}`,
  ];
}

function rowText(row: Row, rids: readonly string[]): string[] {
  const { result } = row;
  const head = `${row.scenario} × ${row.variant} (${count(result.stats.states)} states)`;
  if (result.status === 'incomplete') {
    const by = result.bound ? ` by ${result.bound.reason} ${result.bound.limit}` : '';
    return [`[incomplete] ${head}: stopped${by}; liveness needs the whole graph`];
  }
  const verdicts = result.properties.map((p) => {
    if (p.violated) return `${p.name} violated`;
    const why = p.cycles === 0 ? 'no cycle' : `${p.cycles} cycle(s), none fair`;
    return `${p.name} holds (${why})`;
  });
  return [
    `[${result.status}] ${head}: ${verdicts.join(', ')}`,
    ...result.lassos.flatMap((l) => lassoText(l, rids[l.obligation] ?? '?')),
  ];
}

function rowJson(row: Row, rids: readonly string[]): unknown {
  const { result } = row;
  return {
    scenario: row.scenario,
    variant: row.variant,
    status: result.status,
    stats: { states: result.stats.states, transitions: result.stats.transitions },
    ...(result.bound ? { bound: result.bound } : {}),
    properties: result.properties,
    lassos: result.lassos.map((l) => ({
      name: l.name,
      rid: rids[l.obligation] ?? null,
      loop: l.loop,
      steps: l.trace.map((s) => s.event),
    })),
  };
}

/** `kvcheck liveness`: prints the verdicts (text or JSON); returns the exit code. */
export function runLiveness(args: LivenessArgs, io: Io): number {
  const { scenarios } = resolveScenarios(args, io.err);
  const variants = resolveVariants(args.variant);
  const maxStates =
    args.maxStates === undefined ? undefined : wholeNumber('--max-states', args.maxStates, 1);
  const out: { row: Row; rids: string[] }[] = [];
  for (const scenario of scenarios) {
    const rids = scenario.requests.map((r) => r.id);
    for (const variant of variants) {
      const result = checkServingLiveness(scenario, variant, {
        ...(maxStates !== undefined ? { maxStates } : {}),
      });
      out.push({ row: { scenario: scenario.name, variant: variant.name, result }, rids });
    }
  }
  if (args.json) {
    io.out(`${JSON.stringify({ results: out.map((o) => rowJson(o.row, o.rids)) }, null, 2)}\n`);
  } else {
    const lines = [
      'kvcheck liveness: leads-to under weak fairness per request region (router, prefill, transfer, decode, timer); faults and client aborts need never happen',
      ...out.flatMap((o) => rowText(o.row, o.rids)),
    ];
    io.out(`${lines.join('\n')}\n`);
  }
  const statuses = out.map((o) => o.row.result.status);
  if (statuses.includes('violation')) return exitCode.violation;
  if (statuses.includes('incomplete')) return exitCode.incomplete;
  return exitCode.ok;
}
