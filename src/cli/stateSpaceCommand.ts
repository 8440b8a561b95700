/**
 * `kvcheck state-space`: draws the reachable state graph of one scenario under one variant as
 * DOT or SVG, with the states that violate the selected properties filled red and the
 * breadth-first shortest path to the first of them in bold blue. Whole graphs are for small
 * scenarios; `--project <rid>` draws one request's lifecycle, which stays readable.
 */

import { join } from 'node:path';
import { properties, propertyNames } from '../../invariants/index.ts';
import type { Verdict } from '../checker/outcome.ts';
import { shortestPathToAny, stateGraphOf, violatingVertices } from '../checker/stateGraph.ts';
import { GraphTooLargeError, toStateSpaceDot } from '../export/stateSpaceDot.ts';
import { count, plural } from '../numbers.ts';
import { type SearchArgs, searchOptionsFrom } from './checkArgs.ts';
import { type ExitCode, exitCodeOf } from './exitCodes.ts';
import { checkOutputPaths, writeFilesInto } from './outputPaths.ts';
import { type Io, resolveScenarios, resolveVariants, type SelectionArgs } from './resolve.ts';
import { oneOf, UsageError, wholeNumber } from './usageError.ts';

/** Options of `kvcheck state-space`, as parsed from the command line. */
export interface StateSpaceArgs
  extends SelectionArgs,
    Pick<SearchArgs, 'maxStates' | 'maxSeconds' | 'engine'> {
  readonly invariant: readonly string[];
  readonly project?: string;
  /** `dot` or `svg`. */
  readonly format: string;
  readonly out?: string;
  readonly maxNodes?: string;
}

function exactlyOne<T>(items: readonly T[], given: number, what: string, flags: string): T {
  const [only] = items;
  if (given === 0 || items.length !== 1 || only === undefined) {
    const got = given === 0 ? 'none given' : `got ${items.length}`;
    throw new UsageError(`state-space draws exactly one ${what} (${flags}); ${got}`);
  }
  return only;
}

/** The drawing's file name: `<scenario>.<variant>[.<rid>].state-space.<dot|svg>`. */
export function stateSpaceFileName(
  scenario: string,
  variant: string,
  project: string | undefined,
  format: string,
): string {
  const who = project === undefined ? '' : `.${project}`;
  return `${scenario}.${variant}${who}.state-space.${format}`;
}

/**
 * `kvcheck state-space`: resolves exactly one scenario (`--scenario` or `--config`) and one
 * variant, explores it (within `--max-states` and `--max-seconds`, if given), and writes the DOT
 * or SVG to stdout, or with `--out DIR` into the folder DIR (created when missing) as
 * `stateSpaceFileName`, printing the written path, as `diagram --out DIR` does. Bad input, an unknown `--project` request id and a graph over
 * `--max-nodes` (default 300) throw `UsageError` (exit 2). The drawing is written in every other
 * case; the exit code is then 1 when a drawn state violates a selected property, 3 when a bound
 * stopped the exploration before that, and 0 otherwise.
 */
export async function runStateSpace(args: StateSpaceArgs, io: Io): Promise<ExitCode> {
  if (args.out !== undefined) {
    checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  }
  const given = new Set(args.scenario).size + args.config.length;
  const scenario = exactlyOne(
    resolveScenarios(args, io.err).scenarios,
    given,
    'scenario',
    '--scenario NAME or --config FILE',
  );
  const variant = exactlyOne(
    resolveVariants(args.variant),
    new Set(args.variant).size,
    'variant',
    '--variant NAME',
  );
  const format = oneOf('format', args.format, ['dot', 'svg']);
  const names = [...new Set(args.invariant)].map((n) => oneOf('invariant', n, propertyNames));
  const rids = scenario.requests.map((r) => r.id);
  const project =
    args.project === undefined ? undefined : oneOf('--project request id', args.project, rids);
  const maxNodes =
    args.maxNodes === undefined ? undefined : wholeNumber('--max-nodes', args.maxNodes, 1);
  const { maxStates, maxSeconds, engine } = searchOptionsFrom(args);
  const graph = stateGraphOf(scenario, variant, {
    ...(engine !== undefined ? { engine } : {}),
    ...(maxStates !== undefined ? { maxStates } : {}),
    ...(maxSeconds !== undefined ? { maxSeconds } : {}),
  });
  const bounded = graph.bound ? ` (search stopped by ${graph.bound.reason})` : '';
  const chosen = names.length > 0 ? names : propertyNames;
  // Each property's violating vertices once; the drawing marks their union.
  const perProperty = chosen.map(
    (n) => [n, violatingVertices(graph, properties[n] ? [properties[n]] : [])] as const,
  );
  const violating = new Set(perProperty.flatMap(([, vs]) => [...vs]));
  const violated = perProperty.filter(([, vs]) => vs.size > 0).map(([n]) => n);
  const verdictText =
    violated.length > 0
      ? `; violated: ${violated.join(', ')}`
      : `; ${plural(chosen.length, 'property')} checked`;
  const title = `${scenario.name} × ${variant.name}: ${count(graph.states.length)} reachable states${bounded}${verdictText}`;
  let dot: string;
  try {
    dot = toStateSpaceDot(graph, {
      violating,
      path: shortestPathToAny(graph, violating),
      title,
      ...(project !== undefined ? { project } : {}),
      ...(maxNodes !== undefined ? { maxNodes } : {}),
    });
  } catch (e) {
    if (e instanceof GraphTooLargeError) throw new UsageError(e.message);
    throw e;
  }
  // Loaded on demand: Graphviz (WebAssembly) is only needed for SVG.
  const text = format === 'svg' ? await (await import('../export/svg.ts')).renderSvg(dot) : dot;
  if (args.out !== undefined) {
    const name = stateSpaceFileName(scenario.name, variant.name, project, format);
    writeFilesInto('--out', args.out, [[name, text]]);
    io.out(`${join(args.out, name)}\n`);
  } else io.out(text.endsWith('\n') ? text : `${text}\n`);
  const verdict: Verdict = violating.size > 0 ? 'violation' : graph.bound ? 'incomplete' : 'ok';
  return exitCodeOf(verdict);
}
