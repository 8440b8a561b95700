/**
 * Output paths are tried before any work. Regression: `kvcheck all --out README.md/sub` ran the
 * whole check before failing on a raw `ENOTDIR`, and `all --out /proc/nope` spun for minutes.
 * Every command that writes refuses a path it cannot write at once: exit 2, one line naming the
 * option, the path and the reason in words, nothing on stdout, and nothing left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutputPaths } from '../../src/cli/outputPaths.ts';
import { run, usageError } from './runCli.ts';

let dir = '';
let file = '';
let folder = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-out-'));
  file = join(dir, 'README.md');
  writeFileSync(file, 'kept\n');
  folder = join(dir, 'folder');
  mkdirSync(folder);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The one error line of a refused run, which must name no raw error code. */
async function refused(...argv: string[]): Promise<string> {
  const line = usageError(await run(...argv));
  expect(line).not.toMatch(/\bE[A-Z]{3,}\b/);
  return line;
}

describe('an output folder that is a file', () => {
  it.each([
    ['all', ['all', '--out']],
    ['report', ['report', '--scenario', 'happy', '--variant', 'fixed', '--out']],
    ['diagram', ['diagram', '--out']],
    ['check --out-itf', ['check', '--scenario', 'happy', '--variant', 'fixed', '--out-itf']],
  ])('%s refuses a folder below a file before any work', async (_, argv) => {
    const flag = argv.at(-1) ?? '';
    expect(await refused(...argv, join(file, 'sub'))).toBe(
      `error: ${flag}: cannot write ${join(file, 'sub')}: ${file} is a file, not a folder`,
    );
  });

  it('report --deployment refuses a file as its folder', async () => {
    const deployment = join(dir, 'd.yaml');
    writeFileSync(
      deployment,
      'name: d\nvariant: fixed\ncontextLen: 10\nprefill: { maxTotalTokens: 20 }\ndecode: { maxTotalTokens: 20 }\n',
    );
    expect(await refused('report', '--deployment', deployment, '--out', file)).toBe(
      `error: --out: cannot write ${file}: it is a file, not a folder`,
    );
  });
});

describe('an output file', () => {
  it('check --out-trace refuses a folder', async () => {
    expect(
      await refused('check', '--scenario', 'happy', '--variant', 'fixed', '--out-trace', folder),
    ).toBe(`error: --out-trace: cannot write ${folder}: it is a folder, not a file`);
  });

  it('check --out-trace refuses a file in a missing folder', async () => {
    const path = join(dir, 'missing', 'trace.json');
    expect(
      await refused('check', '--scenario', 'happy', '--variant', 'fixed', '--out-trace', path),
    ).toBe(
      `error: --out-trace: cannot write ${path}: the folder ${join(dir, 'missing')} does not exist`,
    );
  });

  it('state-space --out refuses a folder below a file', async () => {
    const path = join(file, 'graphs');
    expect(
      await refused('state-space', '--scenario', 'happy', '--variant', 'fixed', '--out', path),
    ).toBe(`error: --out: cannot write ${path}: ${file} is a file, not a folder`);
  });
});

describe.runIf(existsSync('/proc/self'))('a folder the file system will not create', () => {
  it('all --out /proc/nope is refused at once', async () => {
    expect(await refused('all', '--out', '/proc/nope')).toMatch(
      /^error: --out: cannot write \/proc\/nope: /,
    );
  });
});

describe('checkOutputPaths', () => {
  it('leaves nothing behind: no probe in an existing folder, no missing folder created', () => {
    const existing = join(dir, 'existing');
    mkdirSync(existing);
    checkOutputPaths([
      { flag: '--out', kind: 'folder', path: existing },
      { flag: '--out', kind: 'folder', path: join(dir, 'a', 'b', 'c') },
      { flag: '--out-trace', kind: 'file', path: join(dir, 'trace.json') },
      { flag: '--out-trace', kind: 'file', path: file },
    ]);
    expect(readdirSync(existing)).toEqual([]);
    expect(existsSync(join(dir, 'a'))).toBe(false);
    expect(existsSync(join(dir, 'trace.json'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('a refused command leaves its missing output folder uncreated', async () => {
    const out = join(dir, 'r', 's');
    usageError(await run('report', '--scenario', 'nope', '--out', out));
    expect(existsSync(join(dir, 'r'))).toBe(false);
  });
});
