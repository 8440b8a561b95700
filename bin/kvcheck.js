#!/usr/bin/env node
// kvcheck ships as TypeScript; tsx compiles it on load, so there is no build step to remember.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
