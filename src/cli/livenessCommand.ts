/**
 * `kvcheck liveness [--scenario NAME | --config FILE]... [--variant NAME]... [--max-states N]
 * [--json] [--out-itf DIR]`: the leads-to properties (`eventuallyAnswered`,
 * `pagesEventuallyFreed`) under weak fairness per request region, per scenario × variant, on the
 * unreduced state graph. A violation is a lasso: a prefix, then a cycle every continuously
 * enabled region takes part in; `--out-itf` writes each lasso as an ITF trace with `loop`. Exit 1
 * on a lasso, 3 when a bound stopped a search first, 2 on bad input.
 */
import type { ServingContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import {
  lassoTrace,
  livenessStatements,
  type ServingLivenessRun,
  servingLivenessRun,
} from '../checker/serving/servingLiveness.ts';
import type { Lasso } from '../engine/index.ts';
import { itfFileName, toItfLasso } from '../export/itf.ts';
import { count } from '../numbers.ts';
import { exitCode } from './exitCodes.ts';
import { checkOutputPaths, writeFilesInto } from './outputPaths.ts';
import { type Io, resolveScenarios, resolveVariants, type SelectionArgs } from './resolve.ts';
import { wholeNumber } from './usageError.ts';

/** Options of `kvcheck liveness`, as parsed from the command line. */
export interface LivenessArgs extends SelectionArgs {
  readonly maxStates?: string;
  readonly json: boolean;
  /** A folder to write each lasso into, as an ITF trace. */
  readonly outItf?: string;
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

function rowText(row: ServingLivenessRun): string[] {
  const { result, rids } = row;
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

function rowJson(row: ServingLivenessRun): unknown {
  const { result, rids } = row;
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

/**
 * Each lasso of `run` as one ITF file: `[itfFileName, toItfLasso text]`, the property's
 * statement in `#meta`, the lasso's `loop` at the top level, and the model's state variables in
 * every state (the lasso's own states, decoded). None when no property is violated.
 */
export function lassoItfFiles(run: ServingLivenessRun): [string, string][] {
  return run.result.lassos.map((l) => {
    const meta = {
      scenario: run.scenario,
      variant: run.variant,
      property: l.name,
      statement: livenessStatements[l.name] ?? '',
    };
    const states = [l.initial, ...l.trace.map((s) => s.state)].map((s) => decodeContext(s.context));
    return [itfFileName(meta), toItfLasso(lassoTrace(l, run.rids), meta, { states })];
  });
}

/**
 * `kvcheck liveness`: prints the verdicts (text or JSON), writes each lasso into `--out-itf` as
 * ITF (the folder is tried before any search); returns the exit code.
 */
export function runLiveness(args: LivenessArgs, io: Io): number {
  if (args.outItf) checkOutputPaths([{ flag: '--out-itf', kind: 'folder', path: args.outItf }]);
  const { scenarios } = resolveScenarios(args, io.err);
  const variants = resolveVariants(args.variant);
  const maxStates =
    args.maxStates === undefined ? undefined : wholeNumber('--max-states', args.maxStates, 1);
  const runs = scenarios.flatMap((scenario) =>
    variants.map((variant) =>
      servingLivenessRun(scenario, variant, maxStates === undefined ? {} : { maxStates }),
    ),
  );
  if (args.outItf) writeFilesInto('--out-itf', args.outItf, runs.flatMap(lassoItfFiles));
  if (args.json) {
    io.out(`${JSON.stringify({ results: runs.map(rowJson) }, null, 2)}\n`);
  } else {
    const lines = [
      'kvcheck liveness: leads-to under weak fairness per request region (router, prefill, transfer, decode, timer); faults and client aborts need never happen',
      ...runs.flatMap(rowText),
    ];
    io.out(`${lines.join('\n')}\n`);
  }
  const statuses = runs.map((r) => r.result.status);
  if (statuses.includes('violation')) return exitCode.violation;
  if (statuses.includes('incomplete')) return exitCode.incomplete;
  return exitCode.ok;
}
