// A worker thread of the parallel search: kvcheck ships as TypeScript, so the thread registers
// the TypeScript loader before it loads its module (the main thread's loader is not inherited).
import { register } from 'tsx/esm/api';

register();
await import('./parallelWorker.ts');
