// A worker thread of the parallel search, when its code could not be bundled (`workerBundle.ts`):
// kvcheck ships as TypeScript, so the thread registers the TypeScript loader before it loads its
// module (the main thread's loader is not inherited), and imports the recipe's module itself.
import { register } from 'tsx/esm/api';

register();
const { serve } = await import('./parallelWorker.ts');
serve((module) => import(module));
