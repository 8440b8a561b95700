/**
 * `kvcheck simulate [--scenario NAME | --config FILE]... [--variant NAME]... [--invariant NAME]...
 * [--runs N] [--depth D] [--seed S] [--json]`: random walks with shrinking, per scenario ×
 * variant. Exit 1 when a walk violated a property, 3 when none did (a random search proves
 * nothing), 2 on bad input.
 */
import { propertyNames } from '../../invariants/index.ts';
import { resultJson } from '../export/outcomeJson.ts';
import { count } from '../numbers.ts';
import {
  defaultDepth,
  defaultRuns,
  maxSeed,
  randomSeed,
  type SimulationResult,
  simulate,
} from '../simulate/simulate.ts';
import { exitCodeOfResults } from './exitCodes.ts';
import {
  distinct,
  type Io,
  resolveScenarios,
  resolveVariants,
  type SelectionArgs,
} from './resolve.ts';
import { renderSimulation } from './simulateText.ts';
import { oneOf, wholeNumber } from './usageError.ts';

/** Options of `kvcheck simulate`, as parsed from the command line. */
export interface SimulateArgs extends SelectionArgs {
  readonly invariant: readonly string[];
  readonly runs?: string;
  readonly depth?: string;
  readonly seed?: string;
  readonly json: boolean;
}

function seedOf(text: string | undefined): number {
  if (text === undefined) return randomSeed();
  return wholeNumber('--seed', text, 0, { max: maxSeed });
}

/** `kvcheck simulate`: prints the results (text or the Outcome as JSON); returns the exit code. */
export function runSimulate(args: SimulateArgs, io: Io): number {
  const { scenarios, reproduce } = resolveScenarios(args, io.err);
  const variants = resolveVariants(args.variant);
  const invariants = distinct(args.invariant).map((n) => oneOf('invariant', n, propertyNames));
  const runs = args.runs === undefined ? defaultRuns : wholeNumber('--runs', args.runs, 1);
  const depth = args.depth === undefined ? defaultDepth : wholeNumber('--depth', args.depth, 1);
  const seed = seedOf(args.seed);
  const progress = io.progress && !args.json ? io.progress : undefined;
  const results: SimulationResult[] = [];
  for (const scenario of scenarios) {
    for (const variant of variants) {
      results.push(
        simulate(scenario, variant, {
          runs,
          depth,
          seed,
          requiredWitnesses: scenario.witnesses,
          ...(invariants.length > 0 ? { properties: invariants } : {}),
          ...(progress
            ? {
                onProgress: (p: { runs: number; runsPerSecond: number }) =>
                  progress(
                    `${scenario.name} × ${variant.name}: ${count(p.runs)} of ${count(runs)} walks, ${count(p.runsPerSecond)}/s`,
                  ),
              }
            : {}),
        }),
      );
      progress?.('');
    }
  }
  if (args.json) io.out(`${JSON.stringify({ results: results.map(resultJson) }, null, 2)}\n`);
  else io.out(renderSimulation(results, { scenarios: reproduce, invariants }, io.colour));
  return exitCodeOfResults(results);
}
