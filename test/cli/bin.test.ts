/**
 * The real binary, end to end: `node bin/kvcheck.js` sets the process exit code from the verdict,
 * keeps bad input to one stderr line, and survives a reader that closes the pipe early.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function kvcheck(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['bin/kvcheck.js', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

/** Runs `command` through the shell in the repository root. */
function shell(command: string): SpawnSyncReturns<string> {
  return spawnSync(command, { cwd: repoRoot, encoding: 'utf8', shell: true });
}

function expectOneErrorLine(r: SpawnSyncReturns<string>): string {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  const lines = r.stderr.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^error: /);
  return lines[0] ?? '';
}

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('bin/kvcheck.js', () => {
  it('is executable, with a shebang for node', () => {
    const path = join(repoRoot, 'bin', 'kvcheck.js');
    expect(statSync(path).mode & 0o111).not.toBe(0);
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('exits 1 for the cross-tenant read in the incident under incident-2026', () => {
    const r = kvcheck(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--invariant',
      'noCrossTenantRead',
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      '[violation] noCrossTenantRead in incident × incident-2026: 21 steps',
    );
  });

  it('exits 0 for the incident under the fixed engine', () => {
    const r = kvcheck('check', '--scenario', 'incident', '--variant', 'fixed');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('[ok] incident × fixed: no violation');
  });

  it('exits 2 with one error line for an unknown option', () => {
    expect(expectOneErrorLine(kvcheck('--frob'))).toBe(
      "error: unknown option '--frob'; accepted: --version, --help",
    );
  });

  it('exits 2 with one error line naming the field of a malformed config', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'name: t\ncontextLen: 10\nprefillPoolTokens: 8\ndecodePoolTokens: 10\npageSize: 0\nrequests:\n  - { id: a1, tenant: A, promptLen: 1, outputLen: 2 }\n',
    );
    expect(expectOneErrorLine(kvcheck('check', '--config', file))).toBe(
      `error: ${file}: pageSize: must be an integer >= 1 (got 0)`,
    );
  });

  it('exits 3 when --max-states stops the search before any verdict', () => {
    const r = kvcheck(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--max-states',
      '5',
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('[incomplete] incident × incident-2026: stopped at --max-states 5');
  });

  it('does not crash when the reader closes the pipe after one line', () => {
    const r = shell(
      'node bin/kvcheck.js check --scenario incident --variant incident-2026 | head -1',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^scenario\s+variant\s+verdict/);
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).toBe('');
  });

  it('ends quietly when output larger than the pipe buffer meets a closed pipe', () => {
    // `paths --json` prints ~100 kB, more than a pipe holds, so the write really hits EPIPE.
    const r = shell('node bin/kvcheck.js paths --json | head -1');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('{\n');
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
