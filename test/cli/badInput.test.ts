/**
 * Bad input never crashes or hangs: a corpus of malformed scenario and deployment files, and of
 * wrong invocations, each refused with exit 2, one `error:` line and no stack trace. Files that
 * are valid but written differently (a byte order mark, CRLF line ends, no final line break) load
 * exactly as their plain equivalents.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../../src/config/loadScenario.ts';
import { loadDeploymentFile } from '../../src/deployment/loadDeployment.ts';
import { oneRequestJson, deploymentYaml as validDeploymentYaml } from '../fixtures/validFiles.ts';
import { run, usageError } from './runCli.ts';

const scenarioYaml = `name: t
contextLen: 10
prefillPoolTokens: 8
decodePoolTokens: 10
pageSize: 1
witnesses: [someRequestRejected]
requests:
  - { id: a1, tenant: A, promptLen: 1, outputLen: 2, prefix: { group: sys, len: 1 } }
  - id: b1
    tenant: B
    promptLen: 3
    outputLen: 2
`;

const scenarioJson = edit(
  oneRequestJson,
  '"outputLen": 2 }',
  '"outputLen": 2, "prefix": { "group": "s", "len": 1 } }',
);

const deploymentYaml = edit(validDeploymentYaml, 'name: t', 'name: d');

const deploymentJson = `{
  "name": "d",
  "variant": "fixed",
  "contextLen": 131072,
  "prefill": { "model": { "layers": 80, "kvHeads": 8, "headDim": 128 }, "kvCacheDtype": "bf16",
    "gpuMemoryGiB": 80, "memFractionStatic": 0.85, "weightsGiB": 16.5 },
  "decode": { "maxTotalTokens": 500000 }
}
`;

/** `text` with `from` replaced by `to`; `from` must occur, so a case cannot go stale. */
function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`"${from}" does not occur in the base text`);
  return text.replace(from, to);
}

/** Bytes of no format at all: a fixed pseudo-random sequence, control characters included. */
function junk(length: number, seed: number): Buffer {
  let x = seed;
  return Buffer.from(
    Array.from({ length }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x % 256;
    }),
  );
}

const deep = 10_000;

/** One malformed file: its name (the extension decides the format) and its contents. */
interface BadFile {
  readonly what: string;
  readonly name: string;
  readonly content: string | Buffer;
}

const scenarioFiles: readonly BadFile[] = [
  { what: 'an empty YAML file', name: 'empty.yaml', content: '' },
  { what: 'an empty JSON file', name: 'empty.json', content: '' },
  { what: 'a YAML file of blank lines', name: 'blank.yaml', content: '\n  \n\n' },
  { what: 'a YAML file of a comment only', name: 'comment.yaml', content: '# nothing\n' },
  { what: 'truncated JSON', name: 'truncated.json', content: scenarioJson.slice(0, 120) },
  { what: 'truncated YAML', name: 'truncated.yaml', content: scenarioYaml.slice(0, 150) },
  {
    what: 'a name of the wrong type',
    name: 'name.yaml',
    content: edit(scenarioYaml, 'name: t', 'name: [t]'),
  },
  {
    what: 'a number as a string',
    name: 'string.json',
    content: edit(scenarioJson, '"contextLen": 10', '"contextLen": "10"'),
  },
  {
    what: 'requests as a mapping',
    name: 'requests.yaml',
    content: `${scenarioYaml.split('requests:')[0]}requests: { a1: 1 }\n`,
  },
  {
    what: 'no requests',
    name: 'none.json',
    content: `${scenarioJson.split('"requests"')[0]}"requests": []\n}\n`,
  },
  {
    what: 'a flag that is not a boolean',
    name: 'flag.yaml',
    content: `${scenarioYaml}transferFaults: yes please\n`,
  },
  { what: 'a duplicate key in YAML', name: 'dup.yaml', content: `${scenarioYaml}pageSize: 1\n` },
  {
    what: 'a duplicate key in JSON',
    name: 'dup.json',
    content: edit(scenarioJson, '"pageSize": 1,', '"pageSize": 1, "pageSize": 2,'),
  },
  {
    what: 'a duplicate request id',
    name: 'dup-id.yaml',
    content: edit(scenarioYaml, 'id: b1', 'id: a1'),
  },
  {
    what: 'JSON lists nested 10,000 deep',
    name: 'deep-list.json',
    content: `${'['.repeat(deep)}${']'.repeat(deep)}`,
  },
  {
    what: 'JSON mappings nested 10,000 deep',
    name: 'deep-map.json',
    content: `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`,
  },
  {
    what: 'YAML flow lists nested 10,000 deep',
    name: 'deep-flow.yaml',
    content: `${'['.repeat(deep)}${']'.repeat(deep)}`,
  },
  {
    what: 'YAML block lists nested 10,000 deep',
    name: 'deep-block.yaml',
    content: `${'- '.repeat(deep)}1\n`,
  },
  {
    what: 'YAML mappings nested by indentation',
    name: 'deep-indent.yaml',
    content: Array.from({ length: 400 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
  },
  {
    what: 'a request nested one level too deep',
    name: 'deep-prefix.json',
    content: edit(scenarioJson, '"group": "s"', '"group": ["s"]'),
  },
  {
    what: 'unclosed deep JSON',
    name: 'deep-open.json',
    content: `${']'.repeat(50)}${'['.repeat(deep)}`,
  },
  { what: 'binary junk as YAML', name: 'junk.yaml', content: junk(4096, 1) },
  { what: 'binary junk as JSON', name: 'junk.json', content: junk(4096, 2) },
  {
    what: 'NUL bytes in YAML',
    name: 'nul.yaml',
    content: edit(scenarioYaml, 'name: t', 'name: "t\0"'),
  },
  {
    what: 'NaN in YAML',
    name: 'nan.yaml',
    content: edit(scenarioYaml, 'contextLen: 10', 'contextLen: .nan'),
  },
  {
    what: 'NaN in JSON',
    name: 'nan.json',
    content: edit(scenarioJson, '"contextLen": 10', '"contextLen": NaN'),
  },
  {
    what: 'Infinity in YAML',
    name: 'inf.yaml',
    content: edit(scenarioYaml, 'decodePoolTokens: 10', 'decodePoolTokens: .inf'),
  },
  {
    what: 'Infinity in JSON (1e400)',
    name: 'inf.json',
    content: edit(scenarioJson, '"contextLen": 10', '"contextLen": 1e400'),
  },
  {
    what: 'an integer beyond 2^53',
    name: 'huge-int.yaml',
    content: edit(scenarioYaml, 'promptLen: 3', 'promptLen: 99999999999999999999'),
  },
  {
    what: 'a pool of four trillion tokens',
    name: 'huge-pool.yaml',
    content: edit(scenarioYaml, 'prefillPoolTokens: 8', 'prefillPoolTokens: 4000000000000'),
  },
  {
    what: 'a negative page size',
    name: 'neg-page.yaml',
    content: edit(scenarioYaml, 'pageSize: 1', 'pageSize: -1'),
  },
  {
    what: 'a negative output length',
    name: 'neg-out.json',
    content: edit(scenarioJson, '"outputLen": 2', '"outputLen": -2'),
  },
  { what: 'a negative reserve', name: 'neg-reserve.yaml', content: `${scenarioYaml}reserve: -5\n` },
  {
    what: 'a fractional length',
    name: 'fraction.yaml',
    content: edit(scenarioYaml, 'promptLen: 3', 'promptLen: 1.5'),
  },
  {
    what: 'an unknown top-level key',
    name: 'key-top.yaml',
    content: `${scenarioYaml}colour: red\n`,
  },
  {
    what: 'an unknown key in a request',
    name: 'key-request.json',
    content: edit(scenarioJson, '"outputLen": 2', '"outputLen": 2, "priority": 1'),
  },
  {
    what: 'an unknown key in a prefix',
    name: 'key-prefix.yaml',
    content: edit(scenarioYaml, 'len: 1 }', 'len: 1, salt: x }'),
  },
  { what: 'a list at the top', name: 'list.json', content: '[1, 2, 3]' },
  { what: 'a scalar at the top', name: 'scalar.yaml', content: 'hello\n' },
  { what: 'null at the top', name: 'null.json', content: 'null' },
  {
    what: 'an unknown alias',
    name: 'alias.yaml',
    content: `${scenarioYaml}description: *nowhere\n`,
  },
  {
    what: 'a misspelt witness',
    name: 'witness.yaml',
    content: edit(scenarioYaml, '[someRequestRejected]', '[someRequestRejectd]'),
  },
  {
    what: 'a request id with a dot',
    name: 'id.yaml',
    content: edit(scenarioYaml, 'id: b1', 'id: b.1'),
  },
  { what: 'an unsupported extension', name: 'scenario.toml', content: scenarioYaml },
  { what: 'no extension', name: 'scenario', content: scenarioYaml },
  {
    what: 'a file with comments in JSON',
    name: 'comment.json',
    content: `// note\n${scenarioJson}`,
  },
  {
    what: 'a trailing comma in JSON',
    name: 'comma.json',
    content: edit(scenarioJson, '"pageSize": 1,', '"pageSize": 1,,'),
  },
  {
    what: 'tabs as YAML indentation',
    name: 'tabs.yaml',
    content: edit(scenarioYaml, '    tenant: B', '\ttenant: B'),
  },
];

const deploymentFiles: readonly BadFile[] = [
  { what: 'an empty deployment', name: 'd-empty.yaml', content: '' },
  {
    what: 'a truncated deployment',
    name: 'd-truncated.json',
    content: deploymentJson.slice(0, 90),
  },
  {
    what: 'a TP size as a string',
    name: 'd-string.yaml',
    content: edit(deploymentYaml, 'tpSize: 8', 'tpSize: "8"'),
  },
  {
    what: 'a negative GPU memory',
    name: 'd-neg.yaml',
    content: edit(deploymentYaml, 'gpuMemoryGiB: 80', 'gpuMemoryGiB: -80'),
  },
  {
    what: 'a negative pool',
    name: 'd-neg-pool.yaml',
    content: edit(deploymentYaml, 'maxTotalTokens: 500000', 'maxTotalTokens: -1'),
  },
  {
    what: 'NaN for a fraction',
    name: 'd-nan.yaml',
    content: edit(deploymentYaml, 'memFractionStatic: 0.85', 'memFractionStatic: .nan'),
  },
  {
    what: 'Infinity for GPU memory',
    name: 'd-inf.yaml',
    content: edit(deploymentYaml, 'gpuMemoryGiB: 80', 'gpuMemoryGiB: .inf'),
  },
  {
    what: 'a layer count of 1e400',
    name: 'd-huge.json',
    content: edit(deploymentJson, '"layers": 80', '"layers": 1e400'),
  },
  {
    what: 'an integer beyond 2^53',
    name: 'd-huge-int.yaml',
    content: edit(deploymentYaml, 'contextLen: 131072', 'contextLen: 123456789012345678901234'),
  },
  {
    what: 'a duplicate key',
    name: 'd-dup.json',
    content: edit(deploymentJson, '"variant": "fixed",', '"variant": "fixed", "variant": "fixed",'),
  },
  {
    what: 'an unknown top-level key',
    name: 'd-key-top.yaml',
    content: `${deploymentYaml}gpus: 8\n`,
  },
  {
    what: 'an unknown key in a role',
    name: 'd-key-role.yaml',
    content: edit(deploymentYaml, 'tpSize: 8', 'tpSize: 8\n  ppSize: 2'),
  },
  {
    what: 'an unknown key in a model',
    name: 'd-key-model.yaml',
    content: edit(deploymentYaml, 'headDim: 128 }', 'headDim: 128, experts: 8 }'),
  },
  {
    what: 'a model nested one level too deep',
    name: 'd-deep-model.json',
    content: edit(deploymentJson, '"layers": 80', '"layers": [80]'),
  },
  {
    what: 'a deployment nested 10,000 deep',
    name: 'd-deep.yaml',
    content: `${'['.repeat(deep)}${']'.repeat(deep)}`,
  },
  { what: 'binary junk', name: 'd-junk.yaml', content: junk(2048, 3) },
  {
    what: 'a misspelt variant',
    name: 'd-variant.yaml',
    content: edit(deploymentYaml, 'variant: fixed', 'variant: fixd'),
  },
  { what: 'a scenario given as a deployment', name: 'd-scenario.yaml', content: scenarioYaml },
];

/** Wrong invocations: unknown flags, bad bounds and missing values. */
const invocations: readonly (readonly string[])[] = [
  ['check', '--frob'],
  ['check', '--scenario'],
  ['check', '--scenario', 'happy', '--max-states', '0'],
  ['check', '--scenario', 'happy', '--max-states', '-5'],
  ['check', '--scenario', 'happy', '--max-states', '1e3'],
  ['check', '--scenario', 'happy', '--max-seconds', '0'],
  ['check', '--scenario', 'happy', '--max-seconds', 'soon'],
  ['check', '--scenario', 'happy', '--max-memory', '1.5'],
  ['check', '--scenario', 'happy', '--engine', 'spin'],
  ['check', '--scenario', 'happy', '--search', 'sideways'],
  ['check', '--scenario', 'happy', '--symmetry', 'maybe'],
  ['check', 'happy'],
  ['check', '--config'],
  ['report', '--max-states', 'nope'],
  ['report', '--out'],
  ['report', '--workers', 'two'],
  ['report', '--workers', '2', '--search', 'depth'],
  ['all', '--workers', '0'],
  ['simulate', '--scenario', 'happy', '--runs', '0'],
  ['simulate', '--scenario', 'happy', '--depth', 'deep'],
  ['simulate', '--scenario', 'happy', '--seed', '99999999999'],
  ['state-space', '--scenario', 'happy', '--variant', 'fixed', '--max-nodes', '0'],
  ['state-space', '--scenario', 'happy'],
  ['diagram', '--format', 'png'],
  ['lint'],
  ['paths', '--to'],
  ['catalogue', '--engine', 'spin'],
  ['--frob'],
  ['frob'],
];

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-bad-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('a corpus of malformed files', () => {
  it('holds at least 40 files', () => {
    expect(scenarioFiles.length + deploymentFiles.length).toBeGreaterThanOrEqual(40);
  });

  it.each(scenarioFiles)('refuses $what as a scenario ($name)', async ({ name, content }) => {
    const file = write(name, content);
    const line = usageError(await run('check', '--config', file, '--variant', 'fixed'));
    expect(line.startsWith(`error: ${file}: `)).toBe(true);
  });

  it.each(deploymentFiles)('refuses $what as a deployment ($name)', async ({ name, content }) => {
    const file = write(name, content);
    const line = usageError(await run('lint', file));
    expect(line.startsWith(`error: ${file}: `)).toBe(true);
  });

  it('refuses a folder, a missing file and an endless device', async () => {
    const folder = join(dir, 'folder.yaml');
    mkdirSync(folder, { recursive: true });
    const endless = join(dir, 'zero.yaml');
    if (existsSync('/dev/zero')) symlinkSync('/dev/zero', endless);
    for (const file of [folder, join(dir, 'missing.yaml'), endless]) {
      usageError(await run('check', '--config', file));
    }
  });
});

describe('limits', () => {
  it.each(['json', 'yaml'])(
    'refuses 10,000 levels of %s with the depth a scenario allows',
    async (ext) => {
      const file = write(`limit.${ext}`, `${'['.repeat(deep)}${']'.repeat(deep)}`);
      expect(usageError(await run('check', '--config', file))).toBe(
        `error: ${file}: mappings and lists nest more than 4 levels deep at line 1, column 5; accepted: at most 4 (the deepest field is requests[].prefix)`,
      );
    },
  );

  it('refuses deployment nesting beyond a role’s model', async () => {
    const file = write('limit-d.json', edit(deploymentJson, '"layers": 80', '"layers": [80]'));
    expect(usageError(await run('lint', file))).toMatch(
      /mappings and lists nest more than 3 levels deep at line 5, column \d+; accepted: at most 3 \(the deepest field is prefill\.model\)$/,
    );
  });

  it('refuses a 50 MB file by its size, without reading it', async () => {
    const file = write('huge.json', '');
    // A sparse file: 50 MB long, nothing written.
    truncateSync(file, 50 * 2 ** 20);
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: file must be at most 1.0 MiB (got 50.0 MiB)`,
    );
  });

  it('refuses a scenario pool the model cannot hold slot by slot', async () => {
    const file = write(
      'pool.yaml',
      edit(scenarioYaml, 'prefillPoolTokens: 8', 'prefillPoolTokens: 4000000000000'),
    );
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: prefillPoolTokens: must be an integer from 1 to 1024 (got 4000000000000)`,
    );
  });
});

describe('wrong invocations', () => {
  it.each(invocations.map((argv) => [argv.join(' '), argv] as const))(
    'refuses `kvcheck %s`',
    async (_, argv) => {
      usageError(await run(...argv));
    },
  );
});

describe('files written differently load as their plain equivalents', () => {
  const spellings = [
    ['a byte order mark', (t: string) => `\uFEFF${t}`],
    ['CRLF line ends', (t: string) => t.replace(/\n/g, '\r\n')],
    ['no final line break', (t: string) => t.replace(/\n$/, '')],
    ['two final line breaks', (t: string) => `${t}\n`],
    ['all of them', (t: string) => `\uFEFF${t.replace(/\n$/, '').replace(/\n/g, '\r\n')}`],
  ] as const;
  const bases = [
    ['scenario', 'yaml', scenarioYaml, loadScenarioFile],
    ['scenario', 'json', scenarioJson, loadScenarioFile],
    ['deployment', 'yaml', deploymentYaml, loadDeploymentFile],
    ['deployment', 'json', deploymentJson, loadDeploymentFile],
  ] as const;
  const cases = bases.flatMap(([kind, ext, text, load]) =>
    spellings.map(([how, spell]) => ({ kind, ext, how, text, spell, load })),
  );

  it.each(cases)('loads a $ext $kind with $how', ({ kind, ext, how, text, spell, load }) => {
    const stem = `${kind}-${how.replace(/\W+/g, '-')}`;
    const plain = load(write(`${stem}-plain.${ext}`, text));
    expect(load(write(`${stem}.${ext}`, spell(text)))).toEqual(plain);
  });
});

describe('the real binary', () => {
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

  it('refuses 10,000 levels of JSON with one line and exit 2', () => {
    const file = write('bin-deep.json', `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`);
    const r = spawnSync(process.execPath, ['bin/kvcheck.js', 'check', '--config', file], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*nest more than 4 levels deep at line 1, column 21; .*\n$/);
  });
});
