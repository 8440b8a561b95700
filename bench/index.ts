/**
 * `npm run bench [-- --json] [-- --quick] [-- --large-seconds N]`: the fast engine against
 * `xstate/graph`'s defaults and against kvcheck's reference engine (`engine.ts`), and the
 * parallel search against one thread (`workers.ts`) and the partial-order reduction against
 * the unreduced search (`por.ts`), in one process, so that ratios compare
 * runs on the same machine under the same load. Without `--json` it prints tables; with it, one JSON record per line (`record.ts`) and nothing else.
 */
import { engineBench, largeSecondsArg } from './engine.ts';
import { porBench } from './por.ts';
import { workersBench } from './workers.ts';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const records = [
  ...engineBench(json, quick, largeSecondsArg(process.argv)),
  ...porBench(json, quick),
  ...(await workersBench(json, quick)),
];
if (json) for (const r of records) console.log(JSON.stringify(r));
