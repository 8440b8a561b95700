/**
 * Shared by the deployment tests: the shipped example files, a deployment built from a plain
 * object (as a YAML file would give it), and the CLI run in process with captured output.
 */
import { fileURLToPath } from 'node:url';
import type { Deployment } from '../../src/deployment/deployment.ts';
import { loadDeploymentFile, parseDeployment } from '../../src/deployment/loadDeployment.ts';

/** The path of a file in `deployments/`. */
export const examplePath = (file: string): string =>
  fileURLToPath(new URL(`../../deployments/${file}`, import.meta.url));

/** A shipped example deployment. */
export const example = (file: string): Deployment => loadDeploymentFile(examplePath(file));

/** Two pools given directly, with the incident's window, under `variant`. */
export function givenPools(prefill: number, decode: number, variant = 'incident-2026'): Deployment {
  return parseDeployment(
    {
      name: 't',
      variant,
      contextLen: 1_048_576,
      prefill: { maxTotalTokens: prefill, pageSize: 64 },
      decode: { maxTotalTokens: decode, pageSize: 64 },
    },
    't.yaml',
  );
}

export { type Run, run } from '../cli/runCli.ts';
