/**
 * The fast engine's command-line options: `--max-memory` ends in `incomplete` (exit 3) with what
 * was explored and refuses bad values with one `error:` line (exit 2); `--symmetry on` reports
 * the representatives and the unreduced count, in text and JSON; `--search depth` gives the
 * breadth-first verdicts, counts and trace lengths and says so in JSON; the progress line names
 * states, states per second, queue and heap, and is never printed with `--json`.
 */
import { describe, expect, it } from 'vitest';
import { autoWorkers } from '../../src/checker/checkOptions.ts';
import { workersFrom } from '../../src/cli/checkArgs.ts';
import { renderProgress } from '../../src/cli/render.ts';
import { run, usageError } from './runCli.ts';

const incidentFixed = ['check', '--scenario', 'incident', '--variant', 'fixed'];

describe('--max-memory', () => {
  it('stops with incomplete (exit 3) and reports what was explored', async () => {
    const r = await run(...incidentFixed, '--max-memory', '1', '--json');
    expect(r.code).toBe(3);
    const [result] = JSON.parse(r.out).results;
    expect(result.status).toBe('incomplete');
    expect(result.bound).toEqual({ reason: 'maxMemory', limit: 1 });
    expect(result.stats.states).toBeGreaterThan(0);
    expect(result.stats.transitions).toBeGreaterThan(0);
    expect(result.properties.every((p: { status: string }) => p.status === 'unknown')).toBe(true);
  });

  it('names the bound in the text summary', async () => {
    const r = await run(...incidentFixed, '--max-memory', '1');
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/\[incomplete\] incident × fixed: stopped at --max-memory 1; /);
    expect(r.out).toContain('; --search depth needs far less memory');
    const deep = await run(...incidentFixed, '--max-memory', '1', '--search', 'depth');
    expect(deep.code).toBe(3);
    expect(deep.out).not.toContain('--search depth needs');
  });

  it('does not stop a run that stays within a generous bound', async () => {
    const r = await run(...incidentFixed, '--max-memory', '100000', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).results[0].stats.states).toBe(319);
  });

  it.each([
    ['0', 'error: --max-memory: must be a whole number >= 1 (got "0")'],
    ['-5', 'error: --max-memory: must be a whole number >= 1 (got "-5")'],
    ['1.5', 'error: --max-memory: must be a whole number >= 1 (got "1.5")'],
    ['lots', 'error: --max-memory: must be a whole number >= 1 (got "lots")'],
  ])('refuses --max-memory %s with one line and exit 2', async (value, line) => {
    const r = await run(...incidentFixed, '--max-memory', value);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${line}\n`);
  });

  it('refuses it with the reference engine', async () => {
    const r = await run(...incidentFixed, '--engine', 'graph', '--max-memory', '100');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: --max-memory needs --engine fast; the reference engine has no memory bound\n',
    );
  });
});

describe('--symmetry on', () => {
  it('gives the representatives and the unreduced count in JSON and text', async () => {
    const json = await run(...incidentFixed, '--symmetry', 'on', '--json');
    const stats = JSON.parse(json.out).results[0].stats;
    // The built-in scenario's requests differ, so every orbit is a single state.
    expect(stats).toMatchObject({ states: 319, unreducedStates: 319 });
    const text = await run(...incidentFixed, '--symmetry', 'on');
    expect(text.out).toContain('319 states under symmetry, 319 without');
  });

  it('leaves the unreduced count out when symmetry is off', async () => {
    const json = await run(...incidentFixed, '--json');
    expect(JSON.parse(json.out).results[0].stats.unreducedStates).toBeUndefined();
  });
});

describe('--search depth', () => {
  const incident2026 = ['check', '--scenario', 'incident', '--variant', 'incident-2026'];
  const summary = (out: string) => {
    const [r] = JSON.parse(out).results;
    const traces = r.properties
      .filter((p: { trace?: unknown }) => p.trace)
      .map((p: { name: string; trace: { steps: unknown[]; shortest?: boolean } }) => [
        p.name,
        p.trace.steps.length,
        p.trace.shortest,
      ]);
    return { status: r.status, states: r.stats.states, traces, search: r.engine.search };
  };

  it('gives the verdicts, state counts and shortest traces of breadth first', async () => {
    const breadth = await run(...incident2026, '--json');
    const depth = await run(...incident2026, '--json', '--search', 'depth');
    expect(depth.code).toBe(1);
    expect(summary(breadth.out).search).toBe('breadth');
    expect(summary(depth.out)).toEqual({ ...summary(breadth.out), search: 'depth' });
    expect(summary(depth.out).traces).toHaveLength(5);
  });

  it('says in text when the shortening pass stopped at a bound', async () => {
    const r = await run(...incident2026, '--search', 'depth', '--max-states', '20');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Not known to be shortest');
  });

  it.each([
    [
      ['--search', 'sideways'],
      'error: unknown --search value "sideways"; accepted: breadth, depth',
    ],
    [['--engine', 'graph', '--search', 'depth'], 'error: --search depth needs --engine fast'],
  ])('refuses %j with one line and exit 2', async (flags, start) => {
    const r = await run(...incidentFixed, ...flags);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.startsWith(start)).toBe(true);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('the progress line', () => {
  it('shows distinct states, states per second, queue, heap and array buffers', () => {
    const progress = {
      states: 1234567,
      statesPerSecond: 45678.4,
      queue: 8901,
      heapBytes: 300 * 2 ** 20 + 1,
      bufferBytes: 1800 * 2 ** 20,
      threads: 1,
    };
    const line = renderProgress(progress);
    expect(line).toBe(
      '1,234,567 states, 45,678 states/s, queue 8,901, heap 300 MiB, buffers 1,800 MiB',
    );
    expect(line).not.toContain('\n');
    // Once worker threads have taken over, the line says how many.
    expect(renderProgress({ ...progress, threads: 2 })).toBe(
      '1,234,567 states, 45,678 states/s, queue 8,901, heap 300 MiB, buffers 1,800 MiB, 2 workers',
    );
  });

  it('is wired to the terminal without --json and never touched with it', async () => {
    // Each run ends by clearing its progress line; with --json the line is not used at all.
    const text = await run(...incidentFixed);
    expect(text.progress).toContain('');
    const json = await run(...incidentFixed, '--json');
    expect(json.progress).toEqual([]);
  });
});

describe('--workers', () => {
  it('gives the one-thread JSON, times aside', async () => {
    const timeless = (out: string) =>
      JSON.parse(out).results.map((r: { stats: { ms?: number } }) => {
        const { ms: _ms, ...stats } = r.stats;
        return { ...r, stats };
      });
    const one = await run(...incidentFixed, '--json');
    const two = await run(...incidentFixed, '--workers', '2', '--json');
    expect(two.code).toBe(0);
    expect(timeless(two.out)).toEqual(timeless(one.out));
  });

  it.each([
    ['0', 'error: --workers: must be a whole number from 1 to 64, or auto (got "0")'],
    ['two', 'error: --workers: must be a whole number from 1 to 64, or auto (got "two")'],
    ['1.5', 'error: --workers: must be a whole number from 1 to 64, or auto (got "1.5")'],
    ['65', 'error: --workers: must be a whole number from 1 to 64, or auto (got "65")'],
  ])('refuses --workers %s with one line and exit 2', async (value, line) => {
    const r = await run(...incidentFixed, '--workers', value);
    expect(usageError(r)).toBe(line);
  });

  it('gives the one-thread JSON with --workers auto too', async () => {
    const one = await run(...incidentFixed, '--json', '--workers', '1');
    const auto = await run(...incidentFixed, '--json', '--workers', 'auto');
    expect(auto.code).toBe(0);
    const counts = (out: string) => JSON.parse(out).results.map((r: { stats: object }) => r.stats);
    expect(counts(auto.out).map(({ ms: _ms, ...s }: { ms: number }) => s)).toEqual(
      counts(one.out).map(({ ms: _ms, ...s }: { ms: number }) => s),
    );
  });

  it('auto, the default: the cores, at most eight, once a search has stored 250,000 states', () => {
    const late = { workerLevels: { start: autoWorkers.start } };
    expect(autoWorkers.start).toBe(250_000);
    expect(workersFrom(undefined, {}, 2)).toEqual({ workers: 2, ...late });
    expect(workersFrom('auto', {}, 4)).toEqual({ workers: 4, ...late });
    expect(workersFrom('auto', {}, 64)).toEqual({ workers: autoWorkers.most, ...late });
    expect(autoWorkers.most).toBe(8);
  });

  it('auto is one thread on one core and for searches that need one, without an error', () => {
    expect(workersFrom('auto', {}, 1)).toEqual({ workers: 1 });
    expect(workersFrom(undefined, { order: 'depth' }, 8)).toEqual({ workers: 1 });
    expect(workersFrom(undefined, { exact: true }, 8)).toEqual({ workers: 1 });
    expect(workersFrom(undefined, { engine: 'graph' }, 8)).toEqual({ workers: 1 });
    expect(workersFrom(undefined, { por: true }, 8)).toEqual({ workers: 1 });
  });

  it('a number is that many threads from the start of the search', () => {
    expect(workersFrom('3', {}, 2)).toEqual({ workers: 3 });
    expect(workersFrom('1', { order: 'depth' }, 2)).toEqual({ workers: 1 });
  });

  it.each([
    [['--exact'], '--exact'],
    [['--search', 'depth'], '--search depth'],
    [['--engine', 'graph'], '--engine graph'],
  ])('refuses --workers 2 with %j', async (flags, named) => {
    const r = await run(...incidentFixed, '--workers', '2', ...flags);
    expect(usageError(r)).toBe(
      `error: --workers 2 needs the fast engine's breadth-first fingerprint search; not with ${named}`,
    );
  });
});

describe('--symmetry and --exact take on|off, and bare mean on', () => {
  const stored = async (...flags: string[]) => {
    const r = await run(...incidentFixed, ...flags, '--json');
    const [result] = JSON.parse(r.out).results;
    return { exact: result.engine.exact, unreduced: result.stats.unreducedStates };
  };

  it('reads each form', async () => {
    expect(await stored('--exact')).toMatchObject({ exact: true });
    expect(await stored('--exact', 'on')).toMatchObject({ exact: true });
    expect(await stored('--exact', 'off')).toMatchObject({ exact: false });
    expect(await stored('--symmetry')).toMatchObject({ unreduced: 319 });
    expect(await stored('--symmetry', 'off')).toMatchObject({ unreduced: undefined });
  });

  it('refuses another value with one line and exit 2', async () => {
    const r = await run(...incidentFixed, '--exact', 'maybe');
    expect(usageError(r)).toBe('error: unknown --exact value "maybe"; accepted: on, off');
  });
});
