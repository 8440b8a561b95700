/**
 * `kvcheck liveness`: the serving model's leads-to properties on the built-in scenarios, a cycle
 * that weak fairness rules out, the lasso's rendering (terminal and ITF files), the fairness
 * groups, and the liveness section `kvcheck report` writes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { servingFairness } from '../../src/checker/serving/servingLiveness.ts';
import { lassoItfFiles, lassoText } from '../../src/cli/livenessCommand.ts';
import type { Lasso } from '../../src/engine/index.ts';
import { stalledDecodeRun } from '../export/fixtures.ts';
import { run, usageError } from './runCli.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-liveness-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const verdict = z.object({ name: z.string(), violated: z.boolean(), cycles: z.number() });
const outputSchema = z.object({
  results: z.array(
    z.object({
      scenario: z.string(),
      variant: z.string(),
      status: z.enum(['ok', 'violation', 'incomplete']),
      stats: z.object({ states: z.number(), transitions: z.number() }),
      properties: z.array(verdict),
      lassos: z.array(z.unknown()),
    }),
  ),
});

describe('kvcheck liveness', () => {
  it('holds on happy × fixed, where no run of the unreduced graph cycles', async () => {
    const r = await run('liveness', '--scenario', 'happy', '--variant', 'fixed', '--json');
    expect(r.code).toBe(0);
    const [row] = outputSchema.parse(JSON.parse(r.out)).results;
    expect(row).toMatchObject({ status: 'ok', stats: { states: 2195 } });
    expect(row?.properties).toEqual([
      { name: 'eventuallyAnswered', violated: false, cycles: 0 },
      { name: 'pagesEventuallyFreed', violated: false, cycles: 0 },
    ]);
  });

  it('does not count a repeated fault as a livelock: B2’s PREFILL_ERROR loop is not fair', async () => {
    // Under B2 a second PREFILL_ERROR changes nothing but is still a step: a cycle in which the
    // prefill and transfer regions stay enabled and never move.
    const r = await run(
      'liveness',
      '--scenario',
      'prefill-error',
      '--variant',
      'b2-success-overwrites-abort',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('eventuallyAnswered holds (1 cycle(s), none fair)');
  });
});

describe('lassoText', () => {
  it('numbers the steps, marks where the cycle starts and says where it returns', () => {
    const state = { value: {}, context: {} as ServingContext };
    const step = (type: ExternalEvent['type']) => ({
      event: { type, rid: 'a1' } as ExternalEvent,
      state,
    });
    const lasso: Lasso<ServingContext, ExternalEvent> = {
      name: 'eventuallyAnswered',
      obligation: 0,
      initial: state,
      trace: [step('DISPATCH'), step('DECODE_STEP'), step('DECODE_STEP')],
      loop: 1,
    };
    expect(lassoText(lasso, 'a1')).toEqual([
      '  eventuallyAnswered violated for a1: a lasso of 3 steps, cycling from step 2',
      '    Every dispatched request is eventually answered by the router.',
      '    1. DISPATCH a1',
      '    2. DECODE_STEP a1  ← cycle starts',
      '    3. DECODE_STEP a1',
      '    ↺ back to the state after step 1',
    ]);
  });
});

describe('servingFairness', () => {
  it('groups events by request region, and leaves faults and client aborts unfair', () => {
    expect(servingFairness({ type: 'DECODE_STEP', rid: 'a1' })).toBe('a1.decode');
    expect(servingFairness({ type: 'KV_WRITE_DONE', rid: 'b1' })).toBe('b1.transfer');
    expect(servingFairness({ type: 'TIMEOUT', rid: 'b1' })).toBe('b1.timer');
    expect(servingFairness({ type: 'TRANSFER_FAIL', rid: 'a1' })).toBeNull();
    expect(servingFairness({ type: 'CLIENT_ABORT', rid: 'a1' })).toBeNull();
  });
});

describe('liveness --out-itf', () => {
  it('writes each lasso as one ITF file, with its loop and one state per step plus the initial one', () => {
    const stalled = stalledDecodeRun();
    const files = lassoItfFiles(stalled);
    expect(files.map(([name]) => name)).toEqual([
      'happy.stalled-decode.eventuallyAnswered.itf.json',
      'happy.stalled-decode.pagesEventuallyFreed.itf.json',
    ]);
    files.forEach(([, text], i) => {
      const lasso = stalled.result.lassos[i];
      const itf = JSON.parse(text);
      expect(itf['#meta']).toMatchObject({ format: 'ITF', property: lasso?.name });
      expect(itf.loop).toBe(lasso?.loop);
      expect(itf.states).toHaveLength(lasso?.trace.length ?? 0);
      const closing = lasso?.trace.at(-1)?.event;
      expect(itf['#meta'].loopEvent).toBe(`${closing?.type} ${closing?.rid}`);
    });
  });

  it('writes no file where every property holds, but creates the folder', async () => {
    const out = join(dir, 'itf-none', 'nested');
    const r = await run('liveness', '--scenario', 'happy', '--variant', 'fixed', '--out-itf', out);
    expect(r.code).toBe(0);
    expect(readdirSync(out)).toEqual([]);
  });

  it('refuses a folder it cannot write before any search', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const line = usageError(
      await run('liveness', '--scenario', 'happy', '--variant', 'fixed', '--out-itf', file),
    );
    expect(line).toBe(`error: --out-itf: cannot write ${file}: it is a file, not a folder`);
  });
});

describe('report: the liveness section', () => {
  /** The liveness section of the report.md `kvcheck report` writes into `out`, exiting `code`. */
  async function livenessOfReport(out: string, code: number, ...extra: string[]): Promise<string> {
    const r = await run(
      'report',
      '--scenario',
      'band',
      '--variant',
      'fixed',
      '--out',
      out,
      ...extra,
    );
    expect(r.code).toBe(code);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    return md.slice(md.indexOf('\n## Liveness\n'), md.indexOf('\n## Coverage\n'));
  }

  it('shows each scenario × variant’s leads-to verdicts, the same on every run', async () => {
    const first = await livenessOfReport(join(dir, 'report-1'), 0);
    expect(first).toContain('up to 200,000 states');
    expect(first).toMatch(/\n\| band \| fixed \| ✓ ok \| [\d,]+ \| holds \(/);
    expect(await livenessOfReport(join(dir, 'report-2'), 0)).toBe(first);
  });

  it('is incomplete, never a pass, under a state bound too small for the graph', async () => {
    const section = await livenessOfReport(
      join(dir, 'report-3'),
      // The check is bounded too: the exit code is the report's, 3.
      3,
      '--max-states',
      '20',
    );
    expect(section).toContain('up to 20 states');
    expect(section).toMatch(
      /\n\| band \| fixed \| \? incomplete \| [\d,]+, stopped by maxStates 20: liveness needs the whole graph \| incomplete \| incomplete \|/,
    );
  });
});
