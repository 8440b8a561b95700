/**
 * `kvcheck catalogue [--json] [--engine fast|graph]`: runs the bug catalogue and returns the exit
 * code: 0 when every entry is caught by an expected property (its manifest row's
 * `caughtByOneOf`, `scenarios/manifest.ts`) and `fixed` passes every scenario, 1 when an entry is
 * missed or `fixed` fails, 3 when a bound stopped a search.
 */

import { catalogue } from '../catalogue/index.ts';
import { runCatalogue } from '../catalogue/run.ts';
import { type EngineName, engineNames } from '../checker/checkOptions.ts';
import { renderCatalogue } from './catalogueText.ts';
import { exitCodeOf } from './exitCodes.ts';
import type { Io } from './resolve.ts';
import { oneOf } from './usageError.ts';

/** Options of `kvcheck catalogue`, as parsed from the command line. */
export interface CatalogueArgs {
  readonly json: boolean;
  /** `fast` (default) or `graph`. */
  readonly engine?: string;
}

/** `kvcheck catalogue`: prints the table (or the JSON report) and returns the exit code. */
export function runCatalogueCommand(args: CatalogueArgs, io: Io): number {
  const engine = oneOf('engine', args.engine ?? 'fast', engineNames) as EngineName;
  const progress = io.progress && !args.json ? io.progress : undefined;
  const report = runCatalogue(catalogue, {
    engine,
    ...(progress ? { onRun: (what: string) => progress(`catalogue: ${what}`) } : {}),
  });
  progress?.('');
  if (args.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else io.out(renderCatalogue(report, io.colour));
  return exitCodeOf(report.verdict);
}
