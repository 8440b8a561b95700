/**
 * `npm run bench [-- --json] [-- --quick] [-- --large-seconds N]`: the fast engine against
 * `xstate/graph`'s defaults and against kvcheck's reference engine (`engine.ts`), and the
 * parallel search against one thread (`workers.ts`) and the partial-order reduction against
 * the unreduced search (`por.ts`), in one process, so that ratios compare
 * runs on the same machine under the same load. Without `--json` it prints tables; with it, one JSON record per line (`record.ts`) and nothing else.
 *
 * `npm run bench -- --against DIR [--pairs N] [--json]` runs only the paired table of this
 * checkout's fast engine against the checkout in DIR (`against.ts`): a change's before and after
 * in one run. A bad argument gets one line on stderr and exit code 2.
 */
import { fileURLToPath } from 'node:url';
import { UsageError } from '../src/cli/usageError.ts';
import { againstArg, againstBench, pairsArg } from './against.ts';
import { engineBench, largeSecondsArg } from './engine.ts';
import { porBench } from './por.ts';
import { workersBench } from './workers.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
// A closed pipe (`npm run -s bench -- --json | head`) drops the rest of the output.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

/** Every table, or the paired one with `--against`. */
async function bench(argv: readonly string[]) {
  const base = againstArg(argv);
  if (base === null && argv.includes('--pairs')) {
    throw new UsageError('--pairs: only with --against');
  }
  if (base !== null) {
    const here = fileURLToPath(new URL('..', import.meta.url));
    return againstBench(here, base, pairsArg(argv), json);
  }
  return [
    ...engineBench(json, quick, largeSecondsArg(argv)),
    ...porBench(json, quick),
    ...(await workersBench(json, quick)),
  ];
}

try {
  const records = await bench(process.argv);
  if (json) for (const r of records) console.log(JSON.stringify(r));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`error: ${e.message}`);
  process.exitCode = 2;
}
