/**
 * Unknown names: a misspelt variant, scenario, property, witness, machine, state, key, command or
 * option gets one line with the close names (`did you mean X?`); the whole list of accepted names
 * comes only when none is close.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeNames, didYouMean } from '../../src/didYouMean.ts';
import { oneRequestYaml } from '../fixtures/validFiles.ts';
import { run, usageError } from './runCli.ts';

describe('closeNames', () => {
  it.each([
    ['fixd', ['fixed', 'incident-2026'], ['fixed']],
    ['incidnet', ['incident', 'band'], ['incident']],
    ['ab', ['ba', 'abc', 'xyz'], ['abc', 'ba']],
    ['frob', ['fixed', 'band'], []],
    ['x', ['y'], []],
  ])('suggests for %s among %j: %j', (word, accepted, close) => {
    expect(closeNames(word, accepted)).toEqual(close);
  });

  it('lists every accepted name when none is close', () => {
    expect(didYouMean('nope', ['fixed', 'band'])).toBe('accepted: fixed, band');
    expect(didYouMean('bnd', ['fixed', 'band'])).toBe('did you mean band?');
  });
});

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-names-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = oneRequestYaml;

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a misspelt name gets one line with the close names', () => {
  const cases: readonly (readonly [string, () => string[], string])[] = [
    ['a command', () => ['chek'], "error: unknown command 'chek'; did you mean check?"],
    [
      'an option',
      () => ['check', '--scenarios', 'happy'],
      "error: unknown option '--scenarios'; did you mean --scenario?",
    ],
    [
      'a variant',
      () => ['check', '--scenario', 'happy', '--variant', 'fixd'],
      'error: unknown variant "fixd"; did you mean fixed?',
    ],
    [
      'a scenario',
      () => ['check', '--scenario', 'incidnet', '--variant', 'fixed'],
      'error: unknown scenario "incidnet"; did you mean incident?',
    ],
    [
      'a property',
      () => ['check', '--scenario', 'happy', '--invariant', 'noWriteAfterFre'],
      'error: unknown invariant "noWriteAfterFre"; did you mean noWriteAfterFree?',
    ],
    [
      'a property of simulate',
      () => ['simulate', '--scenario', 'happy', '--invariant', 'noWriteAfterFre'],
      'error: unknown invariant "noWriteAfterFre"; did you mean noWriteAfterFree?',
    ],
    [
      'a machine',
      () => ['diagram', '--machine', 'requst'],
      'error: unknown machine "requst"; did you mean request?',
    ],
    [
      'a state',
      () => ['paths', '--variant', 'fixed', '--to', 'prefill.nope'],
      'error: unknown state "prefill.nope"; did you mean prefill.done?',
    ],
    [
      'a witness in a scenario file',
      () => [
        'check',
        '--config',
        write('w.yaml', `${scenario}witnesses: [someRequestDecodd]\n`),
        '--variant',
        'fixed',
      ],
      'witnesses[0]: unknown witness; did you mean someRequestDecoded? (got "someRequestDecodd")',
    ],
    [
      'a key in a scenario file',
      () => ['check', '--config', write('k.yaml', `${scenario}witneses: []\n`)],
      'unknown key "witneses" at top level; did you mean witnesses?',
    ],
    [
      'a variant in a deployment file',
      () => [
        'lint',
        write(
          'd.yaml',
          'name: d\nvariant: retire-onyl\ncontextLen: 10\nprefill: { maxTotalTokens: 20 }\ndecode: { maxTotalTokens: 20 }\n',
        ),
      ],
      'variant: unknown variant; did you mean retire-only? (got "retire-onyl")',
    ],
  ];

  it.each(cases)('%s', async (_, argv, expected) => {
    const line = usageError(await run(...argv()));
    expect(line.endsWith(expected)).toBe(true);
    expect(line).not.toContain('accepted');
  });
});

describe('a name close to none lists the accepted ones', () => {
  it.each([
    [['chek-nothing'], "error: unknown command 'chek-nothing'; accepted commands: "],
    [['check', '--variant', 'zzzz'], 'error: unknown variant "zzzz"; accepted: incident-2026, '],
    [['diagram', '--machine', 'zzzz'], 'error: unknown machine "zzzz"; accepted: request, '],
    [['paths', '--to', 'zzzz'], 'error: unknown state "zzzz"; accepted states: router.idle, '],
  ])('%j', async (argv, start) => {
    expect(usageError(await run(...argv)).startsWith(start)).toBe(true);
  });
});
