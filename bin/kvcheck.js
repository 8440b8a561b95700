#!/usr/bin/env node
// kvcheck ships as TypeScript; tsx compiles it on load, so there is no build step to remember.
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`kvcheck check | head`) drops the rest of the output; the exit code is still
// the verdict's.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
