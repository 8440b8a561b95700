/**
 * `--por` and `--por-check` on the command line: the reduced check gives the unreduced verdicts
 * and shortest traces with fewer states and says so in text and JSON; the self-check prints a
 * line per scenario × variant, fails (exit 1, no check run) on a broken footprint and is
 * `incomplete` (exit 3) under a state bound; conflicting flags are refused with one line.
 */
import { describe, expect, it } from 'vitest';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { servingLocalEvents } from '../../src/checker/serving/servingPor.ts';
import { exitCode } from '../../src/cli/exitCodes.ts';
import {
  porSelfCheck,
  renderSelfChecks,
  selfCheckCode,
  selfCheckJson,
  worseCode,
} from '../../src/cli/selfCheckCommand.ts';
import { run, usageError } from './runCli.ts';

const incident2026 = ['check', '--scenario', 'incident', '--variant', 'incident-2026'];
const incidentFixed = ['check', '--scenario', 'incident', '--variant', 'fixed'];

interface Summary {
  status: string;
  traces: [string, number][];
  witnesses: string[];
}

function summary(out: string): Summary & { states: number; por: boolean; ample?: number } {
  const [r] = JSON.parse(out).results;
  return {
    status: r.status,
    traces: r.properties
      .filter((p: { trace?: unknown }) => p.trace)
      .map((p: { name: string; trace: { steps: unknown[] } }) => [p.name, p.trace.steps.length]),
    witnesses: r.witnesses
      .filter((w: { reached: boolean }) => w.reached)
      .map((w: { name: string }) => w.name),
    states: r.stats.states,
    por: r.engine.por,
    ample: r.stats.ampleStates,
  };
}

describe('--por', () => {
  it('gives the unreduced verdicts, shortest traces and witnesses with fewer states', async () => {
    const full = summary((await run(...incident2026, '--json')).out);
    const reduced = summary((await run(...incident2026, '--json', '--por')).out);
    expect(full).toMatchObject({ status: 'violation', states: 2195, por: false, ample: undefined });
    expect(reduced).toMatchObject({ status: 'violation', states: 2160, por: true });
    expect(reduced.ample).toBeGreaterThan(0);
    const { states: _a, por: _b, ample: _c, ...same } = full;
    expect(reduced).toMatchObject(same);
    expect(reduced.traces).toHaveLength(5);
  });

  it('says so in the text summary', async () => {
    const r = await run(...incident2026, '--por', 'on');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /\[violation\] incident × incident-2026: .* \(2,160 states, partial-order reduced, /,
    );
    const off = await run(...incident2026, '--por', 'off');
    expect(off.out).toMatch(/\(2,195 states, \d/);
    expect(off.out).not.toContain('partial-order');
  });

  it.each([
    [['--por', 'maybe'], 'error: unknown --por value "maybe"; accepted: on, off'],
    [
      ['--por', '--engine', 'graph'],
      'error: --por on needs --engine fast; the reference engine expands every state in full',
    ],
    [
      ['--por', '--workers', '2'],
      "error: --workers 2 needs the fast engine's breadth-first fingerprint search; not with --por on",
    ],
    [
      ['--por-check', '--por', 'off'],
      'error: --por-check checks the reduction --por on makes; not with --por off',
    ],
  ])('refuses %j with one line and exit 2', async (flags, line) => {
    expect(usageError(await run(...incident2026, ...flags))).toBe(line);
  });

  it('is not an option of all, which compares state counts with the manifest', async () => {
    expect(usageError(await run('all', '--por'))).toMatch(/^error: unknown option '--por'/);
  });
});

describe('--por-check', () => {
  it('self-checks each scenario × variant, then checks with the reduction', async () => {
    const r = await run(...incidentFixed, '--variant', 'incident-2026', '--por-check');
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Partial-order reduction self-check (every step of the unreduced space, enabled or not):',
      '  [holds] incident × fixed: every footprint as declared (2,581 steps)',
      '  [holds] incident × incident-2026: every footprint as declared (17,055 steps)',
    ]);
    expect(r.out).toMatch(/\[ok\] incident × fixed: no violation \(292 states, partial-order/);
  });

  it('adds its results to the JSON', async () => {
    const r = await run(...incidentFixed, '--por-check', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.porCheck).toEqual([
      { scenario: 'incident', variant: 'fixed', status: 'holds', steps: 2581, problems: [] },
    ]);
    expect(out.results[0].engine.por).toBe(true);
  });

  it('is incomplete (exit 3) where --max-states stops the visit', async () => {
    const r = await run(...incidentFixed, '--por-check', '--max-states', '10');
    expect(r.code).toBe(3);
    expect(r.out).toMatch(
      /\[incomplete\] incident × fixed: as declared over [\d,]+ steps, but --max-states stopped the visit/,
    );
  });

  it('fails (exit 1) on a broken footprint, naming the step and the word', () => {
    const seeded = new Set([...servingLocalEvents, 'DECODE_INTAKE']);
    const check = porSelfCheck(seeded);
    const found = check.run(incident, variantNamed('fixed'), Number.POSITIVE_INFINITY);
    const runs = [{ kind: check, scenario: 'incident', variant: 'fixed', found }];
    expect(selfCheckCode(runs)).toBe(exitCode.violation);
    const text = renderSelfChecks(runs, false);
    expect(text).toMatch(/\[broken\] incident × fixed: \d+ footprints? not as declared/);
    expect(text).toContain('    DECODE_INTAKE (local) writes decodeLen, not private');
    expect(selfCheckJson(runs)).toMatchObject({ porCheck: [{ status: 'broken' }] });
  });

  it('combines its code with the checks’: a violation, else incomplete, else ok', () => {
    const { ok, violation, incomplete } = exitCode;
    expect(worseCode(ok, ok)).toBe(ok);
    expect(worseCode(ok, incomplete)).toBe(incomplete);
    expect(worseCode(incomplete, violation)).toBe(violation);
    expect(worseCode(violation, ok)).toBe(violation);
  });
});
