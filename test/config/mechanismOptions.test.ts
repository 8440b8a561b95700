/**
 * The scenario options of the catalogue's mechanisms in scenario files: `lateWrites`,
 * `auxSlots` and a request's `prefix` are optional, stay absent when not given (so a file
 * without them loads exactly as before), and are refused with one line naming the field.
 */
import { ConfigError, parseScenario } from '../../src/config/loadScenario.ts';

const base = [
  'name: x',
  'contextLen: 10',
  'prefillPoolTokens: 10',
  'decodePoolTokens: 10',
  'pageSize: 1',
].join('\n');
const request = '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1 }';

function load(top: string, req = request) {
  return parseScenario(`${base}\n${top}\nrequests:\n${req}\n`, 'f.yaml');
}

function problem(top: string, req = request): string {
  try {
    load(top, req);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('loaded');
}

describe('mechanism options in scenario files', () => {
  it('are absent unless given', () => {
    const s = load('');
    expect(Object.keys(s)).not.toContain('lateWrites');
    expect(Object.keys(s)).not.toContain('auxSlots');
    expect(Object.keys(s.requests[0] ?? {})).not.toContain('prefix');
  });

  it('load when given', () => {
    const s = load(
      'lateWrites: true\nauxSlots: 2',
      '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1, prefix: { group: sys, len: 1 } }',
    );
    expect(s.lateWrites).toBe(true);
    expect(s.auxSlots).toBe(2);
    expect(s.requests[0]?.prefix).toEqual({ group: 'sys', len: 1 });
  });

  it.each([
    ['lateWrites: 1', request, 'f.yaml: lateWrites: must be true or false (got 1)'],
    ['auxSlots: 5', request, 'f.yaml: auxSlots: must be an integer from 1 to 4 (got 5)'],
    [
      '',
      '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1, prefix: { group: sys, len: 3 } }',
      'f.yaml: requests[0].prefix.len: must be <= promptLen (2): the prefix is part of the prompt (got 3)',
    ],
    [
      '',
      '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1, prefix: { grp: sys, len: 1 } }',
      'f.yaml: unknown key "grp" in requests[0].prefix; did you mean group?',
    ],
    [
      '',
      '  - { id: a1, tenant: A, promptLen: 2, outputLen: 1, prefix: sys }',
      'f.yaml: requests[0].prefix: must be a mapping with keys group, len (got the string "sys")',
    ],
  ])('refuses %s %s with one line', (top, req, message) => {
    expect(problem(top, req)).toBe(message);
  });
});
