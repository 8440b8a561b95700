/**
 * Every command follows `check`'s exit codes: 0 all hold, 1 a violation, 2 bad input, 3
 * incomplete. Each command runs in process in each case it can reach, and its code is the one
 * `exitCodeMeanings` documents (the `--help` footer and the table in docs/command-line.md state them).
 * Regressions: `state-space` exited 0 on a drawing full of violating states and could not be
 * bounded; `all --max-states 5` called its unconfirmed rows a violation.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CommandName,
  commandNames,
  exitCode,
  exitCodeHelp,
  exitCodeMeanings,
  exitMeaningsOf,
} from '../../src/cli/exitCodes.ts';
import { doc } from '../docs/readmeText.ts';
import { run, usageError } from './runCli.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-exit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Case = 'ok' | 'violation' | 'usage' | 'incomplete';

/** One command in one case: its arguments (`OUT` stands for a fresh output folder). */
type Row = readonly [CommandName, Case, readonly string[]];

const happy = ['--scenario', 'happy', '--variant', 'fixed'];
const incident = ['--scenario', 'incident', '--variant', 'incident-2026'];
const bounded = ['--scenario', 'incident', '--variant', 'fixed', '--max-states', '5'];
/** `check --out-trace` of the incident's leak (`noCrossTenantRead`, 21 steps). */
const leakTrace = 'test/fixtures/incident-leak.trace.json';

const rows: readonly Row[] = [
  ['check', 'ok', ['check', ...happy]],
  ['check', 'violation', ['check', ...incident]],
  ['check', 'usage', ['check', '--scenario', 'happyy']],
  ['check', 'incomplete', ['check', ...bounded]],
  ['report', 'ok', ['report', ...happy, '--out', 'OUT']],
  ['report', 'violation', ['report', ...incident, '--out', 'OUT']],
  ['report', 'usage', ['report', '--variant', 'nope', '--out', 'OUT']],
  ['report', 'incomplete', ['report', ...bounded, '--out', 'OUT']],
  ['all', 'ok', ['all', '--out', 'OUT']],
  ['all', 'usage', ['all', '--engine', 'nope', '--out', 'OUT']],
  ['all', 'incomplete', ['all', '--max-states', '5', '--out', 'OUT']],
  ['state-space', 'ok', ['state-space', ...happy, '--project', 'a1']],
  ['state-space', 'violation', ['state-space', ...incident, '--project', 'b1']],
  ['state-space', 'usage', ['state-space', '--scenario', 'happy']],
  ['state-space', 'incomplete', ['state-space', ...happy, '--max-states', '5']],
  ['paths', 'ok', ['paths', '--variant', 'fixed']],
  ['paths', 'violation', ['paths', '--variant', 'incident-2026']],
  ['paths', 'usage', ['paths', '--from', 'prefill.nowhere']],
  ['simulate', 'violation', ['simulate', ...incident, '--runs', '50', '--seed', '1']],
  ['simulate', 'usage', ['simulate', '--runs', '0']],
  ['simulate', 'incomplete', ['simulate', ...happy, '--runs', '1', '--seed', '1']],
  ['liveness', 'ok', ['liveness', ...happy]],
  ['liveness', 'usage', ['liveness', '--max-states', '0']],
  ['liveness', 'incomplete', ['liveness', ...happy, '--max-states', '5']],
  ['catalogue', 'ok', ['catalogue']],
  ['catalogue', 'usage', ['catalogue', '--engine', 'nope']],
  ['lint', 'ok', ['lint', 'deployments/incident-fixed.yaml']],
  ['lint', 'violation', ['lint', 'deployments/incident.yaml']],
  ['lint', 'usage', ['lint', 'deployments/missing.yaml']],
  ['diagram', 'ok', ['diagram', '--machine', 'prefill']],
  ['diagram', 'usage', ['diagram', '--machine', 'prefil']],
  ['replay', 'ok', ['replay', leakTrace, '--variant', 'fixed']],
  ['replay', 'violation', ['replay', leakTrace, '--variant', 'incident-2026']],
  ['replay', 'usage', ['replay', leakTrace, '--variant', 'nope']],
  ['list', 'ok', ['list']],
  ['list', 'usage', ['list', '--jsn']],
];

describe('the exit code of every command', () => {
  it.each(rows)('%s, %s case', async (command, kind, argv) => {
    const out = join(dir, `${command}-${kind}`);
    const r = await run(...argv.map((a) => (a === 'OUT' ? out : a)));
    if (kind === 'usage') {
      usageError(r);
      return;
    }
    expect(r.code).toBe(exitCode[kind]);
    // Only codes a command documents are reached.
    expect(exitMeaningsOf(command)[r.code]).toBeDefined();
    // A report is written whatever its verdict.
    if (argv.includes('OUT')) {
      expect(existsSync(join(out, 'report.md'))).toBe(true);
      expect(existsSync(join(out, 'report.html'))).toBe(true);
    }
  });

  it('covers every command in its ok or only reachable cases', () => {
    expect(new Set(rows.map(([c]) => c))).toEqual(new Set(commandNames));
  });

  it('says so in all’s summary when a bound left rows unconfirmed', async () => {
    const r = await run('all', '--max-states', '5', '--out', join(dir, 'all-summary'));
    expect(r.out).toContain('UNCONFIRMED (expected violation');
    expect(r.out).not.toContain('MISMATCH');
    expect(r.out).toMatch(/25 results of 25 could not be confirmed/);
  });

  it('names the bound in the state-space drawing it stopped', async () => {
    const r = await run('state-space', ...happy, '--max-states', '5');
    expect(r.out).toMatch(
      /^digraph "happy × fixed: 5 reachable states \(search stopped by maxStates\)/,
    );
  });
});

describe('the exit codes’ documentation', () => {
  it('lists exactly the commands kvcheck has', async () => {
    const r = await run('frob');
    expect(r.err).toContain(`accepted commands: ${commandNames.join(', ')}`);
  });

  it.each(commandNames)('ends %s --help with its exit codes', async (command) => {
    const r = await run(command, '--help');
    expect(r.code).toBe(exitCode.ok);
    expect(r.out.trimEnd().endsWith(exitCodeHelp(command).trimEnd())).toBe(true);
    expect(r.out).toContain(`\n  2  ${exitMeaningsOf(command)[exitCode.usage]}`);
  });

  it('leaves out of the footer the codes a command never returns', () => {
    expect(exitCodeMeanings.simulate.ok).toBeUndefined();
    expect(exitCodeHelp('simulate')).not.toMatch(/^ {2}0 /m);
    expect(exitCodeHelp('list')).toBe(
      `\nExit codes:\n  0  ${exitCodeMeanings.list.ok}\n  2  ${exitMeaningsOf('list')[2]}`,
    );
  });

  it.each(commandNames)(
    'gives %s a row of the table in docs/command-line.md, as the code states it',
    (command) => {
      const cells = exitMeaningsOf(command).map((text, code) =>
        code === exitCode.usage ? 'bad input' : (text ?? '—'),
      );
      expect(doc('command-line.md')).toContain(`| \`${command}\` | ${cells.join(' | ')} |`);
    },
  );
});
