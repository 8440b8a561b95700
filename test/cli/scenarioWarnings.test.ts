/**
 * A scenario file that loads but can never exercise what it asks for prints one `warning:` line
 * on stderr, and the run goes on as without it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from './runCli.ts';

const dir = mkdtempSync(join(tmpdir(), 'kvcheck-warn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const scenario = (pageSize: number) => `name: short-prefix
contextLen: 10
prefillPoolTokens: 10
decodePoolTokens: 10
pageSize: ${pageSize}
requests:
  - { id: a1, tenant: A, promptLen: 3, outputLen: 1, prefix: { group: sys, len: 1 } }
  - { id: a2, tenant: A, promptLen: 3, outputLen: 1, prefix: { group: sys, len: 1 } }
`;

describe('a scenario whose prefixes can never be cached', () => {
  it('prints one warning naming the file, the requests and the numbers, and still checks', async () => {
    const path = file('short.yaml', scenario(2));
    const r = await run('check', '--config', path, '--variant', 'fixed');
    expect(r.code).toBe(0);
    const lines = r.err.split('\n').filter((l) => l.startsWith('warning:'));
    expect(lines).toEqual([
      `warning: ${path}: scenario short-prefix: no prefix can ever be cached: a1 has prefix.len 1, a2 has prefix.len 1; the prefix cache keeps whole pages only (pageSize 2)`,
    ]);
    expect(r.out).toContain('short-prefix');
  });

  it('prints no warning when a prefix fills a page', async () => {
    const r = await run('check', '--config', file('page.yaml', scenario(1)), '--variant', 'fixed');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('warning:');
  });
});
