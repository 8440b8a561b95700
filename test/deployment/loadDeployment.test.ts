/**
 * Deployment files: every shipped example loads, and each kind of bad input is one line naming
 * the file, the field and what is accepted, through the library and through `kvcheck lint`
 * (exit 2, nothing on stdout).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/loadScenario.ts';
import { loadDeploymentFile } from '../../src/deployment/loadDeployment.ts';
import { deploymentYaml } from '../fixtures/validFiles.ts';
import { example, run } from './helpers.ts';

const valid = deploymentYaml;

/** `valid` with `from` replaced by `to`; `from` must occur, so a case cannot go stale. */
function edit(from: string, to: string): string {
  if (!valid.includes(from)) throw new Error(`no "${from}" in the valid file`);
  return valid.replace(from, to);
}

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-deployment-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadDeploymentFile', () => {
  it('loads every shipped example', () => {
    for (const file of ['incident', 'incident-fixed', 'llama-70b-1m', 'deepseek-v3']) {
      expect(example(`${file}.yaml`).name).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('fills in the defaults', () => {
    const d = loadDeploymentFile(write('ok.yaml', valid));
    expect(d.reserve).toBe(5);
    expect(d.prefill).toMatchObject({ dpSize: 1, pageSize: 1 });
    expect(d.prefill.pool).toMatchObject({
      kind: 'computed',
      otherGiB: 0,
      model: { kind: 'gqa', vHeadDim: 128 },
    });
    expect(d.decode.pool).toEqual({ kind: 'given', maxTotalTokens: 500_000 });
  });

  it('reads JSON the same way', () => {
    const json = JSON.stringify({
      name: 't',
      variant: 'fixed',
      contextLen: 131072,
      prefill: { maxTotalTokens: 500000 },
      decode: {
        model: { layers: 61, kvLoraRank: 512, qkRopeHeadDim: 64 },
        kvCacheDtype: 'fp8_e4m3',
        gpuMemoryGiB: 140,
        memFractionStatic: 0.85,
        weightsGiB: 78,
      },
    });
    const d = loadDeploymentFile(write('ok.json', json));
    expect(d.decode.pool).toMatchObject({ model: { kind: 'mla', kvLoraRank: 512 } });
  });
});

const cases: [string, string, string][] = [
  [
    'a missing field',
    edit('  weightsGiB: 16.5\n', ''),
    'prefill.weightsGiB: must be a number of GiB >= 0; required with model (missing)',
  ],
  [
    'a pool with neither a model nor maxTotalTokens',
    edit('  maxTotalTokens: 500000\n', '  pageSize: 64\n'),
    'decode.model: must be the model’s KV shape, or give maxTotalTokens (the pool in tokens) (missing)',
  ],
  [
    'a TP size that neither divides the KV heads nor is a multiple of them',
    edit('tpSize: 8', 'tpSize: 3'),
    'prefill.tpSize: must divide the KV head count (8) or be a multiple of it (got 3)',
  ],
  [
    'a DP size that does not divide the TP size',
    edit('tpSize: 8', 'tpSize: 8\n  dpSize: 3'),
    'prefill.dpSize: must divide tpSize (8) (got 3)',
  ],
  [
    'a memory fraction above 1',
    edit('memFractionStatic: 0.85', 'memFractionStatic: 1.5'),
    'prefill.memFractionStatic: must be a number in (0, 1] (got 1.5)',
  ],
  [
    'a memory fraction of 0',
    edit('memFractionStatic: 0.85', 'memFractionStatic: 0'),
    'prefill.memFractionStatic: must be a number in (0, 1] (got 0)',
  ],
  [
    'a memory fraction that leaves no room for KV',
    edit('memFractionStatic: 0.85', 'memFractionStatic: 0.2'),
    'prefill.memFractionStatic: leaves -0.50 GiB for the KV pool',
  ],
  [
    'a pool too small for any prompt (the engine refuses to start)',
    edit('  maxTotalTokens: 500000', '  maxTotalTokens: 6'),
    'decode.maxTotalTokens: leaves decode’s scheduler no prompt length: maxReqInputLen = min(contextLen − 1, pool − 1) − reserve = min(131,072 − 1, 6 − 1) − 5 = 0, and the engine refuses to start below 1 (got 6)',
  ],
  [
    'a context window too small for any prompt',
    edit('contextLen: 131072', 'contextLen: 6'),
    'contextLen: leaves prefill’s scheduler no prompt length: maxReqInputLen = min(contextLen − 1, pool − 1) − reserve = min(6 − 1, 1,350,041 − 1) − 5 = 0, and the engine refuses to start below 1 (got 6)',
  ],
  [
    'an unknown dtype',
    edit('kvCacheDtype: bf16', 'kvCacheDtype: int4'),
    'prefill.kvCacheDtype: must be one of fp32, bf16, fp16, fp8_e4m3, fp8_e5m2 (got "int4")',
  ],
  [
    'an unknown variant',
    edit('variant: fixed', 'variant: patched'),
    'variant: must be one of incident-2026, fixed',
  ],
  [
    'an unknown key',
    edit('  tpSize: 8', '  tp: 8'),
    'unknown key "tp" in prefill; accepted: model, kvCacheDtype, tpSize, dpSize',
  ],
  [
    'MLA fields mixed with KV heads',
    edit('headDim: 128 }', 'headDim: 128, kvLoraRank: 512, qkRopeHeadDim: 64 }'),
    'prefill.model.kvHeads: cannot be given with an MLA field (kvLoraRank) (got 8)',
  ],
  [
    'a context window that is not an integer',
    edit('contextLen: 131072', 'contextLen: 1.5'),
    'contextLen: must be an integer >= 2 (got 1.5)',
  ],
];

describe('bad input', () => {
  it.each(cases)('refuses %s with one line naming the field', async (_, text, expected) => {
    const path = write('bad.yaml', text);
    expect(() => loadDeploymentFile(path)).toThrow(ConfigError);
    const r = await run('lint', path);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toHaveLength(2);
    expect(r.err).toMatch(/^error: /);
    expect(r.err).toContain(`${path}: ${expected}`);
  });

  it('refuses a missing file and an unknown extension', async () => {
    const missing = await run('lint', join(dir, 'nope.yaml'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.yaml: cannot read the file (no such file or directory)');
    const txt = await run('lint', write('d.txt', valid));
    expect(txt.code).toBe(2);
    expect(txt.err).toContain('unsupported file extension ".txt"; accepted: .yaml, .yml, .json');
  });

  it('refuses a JSON file with a repeated key, naming it and where', async () => {
    const r = await run(
      'lint',
      write('dup.json', '{"name": "x", "variant": "fixed", "variant": "incident-2026"}'),
    );
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^error: .*dup\.json: invalid JSON at line 1, column 35: duplicate key "variant"; keys must be unique\n$/,
    );
  });

  it('refuses an empty file, saying what it expected', async () => {
    const r = await run('lint', write('empty.yaml', ''));
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'file is empty; expected a mapping with keys name, description, variant',
    );
  });
});
