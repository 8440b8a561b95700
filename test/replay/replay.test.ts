/**
 * Replaying a counterexample under another variant (`kvcheck replay`): the incident's leak is
 * blocked by each fix at the step and by the guard that stops it, and runs to its end under the
 * faulty variant with the property still violated; an event the variant disables is reported as
 * such; a prefix of a trace ends with the property holding. The command reads both trace files
 * `check` writes and refuses anything else with one line and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { variantNamed, variants } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { TraceStep } from '../../src/checker/outcome.ts';
import { lassoItfFiles } from '../../src/cli/livenessCommand.ts';
import { replayText, replayTrace } from '../../src/replay/replay.ts';
import { run, usageError } from '../cli/runCli.ts';
import { stalledDecodeRun } from '../export/fixtures.ts';

/** The incident under the faulty variant, as `check` selects it. */
const incidentLeak = ['--scenario', 'incident', '--variant', 'incident-2026'] as const;
const leakFixture = 'test/fixtures/incident-leak.trace.json';

let leak: readonly TraceStep[] = [];
beforeAll(() => {
  const r = check(incident, variantNamed('incident-2026'), { properties: ['noCrossTenantRead'] });
  leak = r.properties[0]?.trace?.steps ?? [];
});

describe('replayTrace', () => {
  it('tells, under each built-in variant, where the incident leak is blocked and by which guard', () => {
    expect(leak).toHaveLength(21);
    const lines = variants.map((v) =>
      replayText(replayTrace(incident, v, leak, 'noCrossTenantRead'), v.name, 'noCrossTenantRead'),
    );
    expect(lines).toEqual([
      'runs to the end (21 steps) under incident-2026: noCrossTenantRead is still violated',
      'blocked at step 13: PREFILL_INTAKE b1 → prefill done.retired under fixed (prefillSchedulerRejects && admissionRetire), where the trace went to prefill placeholder.bootstrapping',
      'blocked at step 13: PREFILL_INTAKE b1 → prefill done.retired under fixed-coverage (prefillSchedulerRejects && admissionRetire), where the trace went to prefill placeholder.bootstrapping',
      'blocked at step 18: SEND_KV b1 → prefill done.retired under retire-only (retireAbortedResult), where the trace went to prefill placeholder.inflight',
      'blocked at step 20: DECODE_COMMIT b1 → decode done.failed under coverage-only (coverageCheck && coverageIncomplete && (in transfer.success || roomSucceeded)), where the trace went to decode admitted.running',
    ]);
  });

  it('reports an event the variant does not enable, with the transitions that could not fire', () => {
    const step = { ...(leak[12] as TraceStep) };
    // PREFILL_INTAKE before DISPATCH: b1's prefill side has received nothing yet.
    const outcome = replayTrace(incident, variantNamed('fixed'), [step], 'noCrossTenantRead');
    expect(outcome).toMatchObject({ kind: 'blocked', step: 1, event: 'PREFILL_INTAKE', rid: 'b1' });
    expect(replayText(outcome, 'fixed', 'noCrossTenantRead')).toBe(
      'blocked at step 1: PREFILL_INTAKE b1 is not enabled under fixed',
    );
  });

  it('ends a trace prefix with the property holding', () => {
    const outcome = replayTrace(
      incident,
      variantNamed('incident-2026'),
      leak.slice(0, 5),
      'noCrossTenantRead',
    );
    expect(outcome).toEqual({ kind: 'completed', steps: 5, violated: false });
  });
});

describe('kvcheck replay', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kvcheck-replay-'));
  });

  it('replays check --out-trace under the given variants; exit 1 while one still violates', async () => {
    const file = join(dir, 'traces.json');
    const made = await run(
      'check',
      ...incidentLeak,
      '--invariant',
      'noCrossTenantRead',
      '--out-trace',
      file,
    );
    expect(made.code).toBe(1);
    // The fixture the exit-code tests and the README replay is this very file.
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(leakFixture, 'utf8'));
    const both = await run('replay', file, '--variant', 'incident-2026', '--variant', 'fixed');
    expect(both.code).toBe(1);
    expect(both.out).toBe(
      [
        'incident × incident-2026, noCrossTenantRead (21 steps):',
        '  runs to the end (21 steps) under incident-2026: noCrossTenantRead is still violated',
        '  blocked at step 13: PREFILL_INTAKE b1 → prefill done.retired under fixed (prefillSchedulerRejects && admissionRetire), where the trace went to prefill placeholder.bootstrapping',
        '',
      ].join('\n'),
    );
    const fixedOnly = await run('replay', file, '--variant', 'fixed', '--json');
    expect(fixedOnly.code).toBe(0);
    const [replay] = JSON.parse(fixedOnly.out).replays;
    expect(replay).toMatchObject({
      scenario: 'incident',
      traceVariant: 'incident-2026',
      property: 'noCrossTenantRead',
      variant: 'fixed',
      outcome: { kind: 'diverged', step: 13, region: 'prefill', actual: 'done.retired' },
    });
  });

  it('reads the Outcome of check --json too', async () => {
    const file = join(dir, 'outcome.json');
    const made = await run('check', ...incidentLeak, '--json');
    writeFileSync(file, made.out);
    const r = await run(
      'replay',
      file,
      '--variant',
      'retire-only',
      '--property',
      'noCrossTenantRead',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'blocked at step 18: SEND_KV b1 → prefill done.retired under retire-only',
    );
  });

  it('reads an ITF counterexample of check --out-itf, replaying its events as the trace’s', async () => {
    const out = join(dir, 'itf');
    const made = await run(
      'check',
      ...incidentLeak,
      '--invariant',
      'noCrossTenantRead',
      '--out-itf',
      out,
    );
    expect(made.code).toBe(1);
    const file = join(out, 'incident.incident-2026.noCrossTenantRead.itf.json');
    const both = await run('replay', file, '--variant', 'incident-2026', '--variant', 'fixed');
    expect(both.code).toBe(1);
    const fromTrace = await run(
      'replay',
      leakFixture,
      '--variant',
      'incident-2026',
      '--variant',
      'fixed',
    );
    expect(both.out).toBe(fromTrace.out);
    expect(both.out).toContain(
      'blocked at step 13: PREFILL_INTAKE b1 → prefill done.retired under fixed',
    );
  });

  it('refuses an ITF lasso and a malformed ITF trace with one line and exit 2', async () => {
    const [[, lassoText] = ['', '']] = lassoItfFiles(stalledDecodeRun());
    const lassoFile = join(dir, 'lasso.itf.json');
    writeFileSync(lassoFile, lassoText);
    expect(usageError(await run('replay', lassoFile))).toBe(
      `error: ${lassoFile}: an ITF lasso (liveness) has no last bad state to replay; replay takes counterexamples of check`,
    );
    const bad = join(dir, 'bad.itf.json');
    const itf = JSON.parse(lassoText);
    writeFileSync(bad, JSON.stringify({ ...itf, loop: undefined, states: [{ event: 'init' }] }));
    expect(usageError(await run('replay', bad))).toBe(
      `error: ${bad}: not a kvcheck ITF counterexample at states.0.regions`,
    );
  });

  it('refuses a file that is not a trace file, and unknown names, with one line and exit 2', async () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, '{"traces": [{"scenario": "incident"}]}\n');
    expect(usageError(await run('replay', file))).toBe(
      `error: ${file}: not a kvcheck trace file at traces.0.variant; expected the JSON of check --out-trace or check --json, or an ITF trace of check --out-itf`,
    );
    expect(usageError(await run('replay', file, '--variant', 'nope'))).toMatch(
      /^error: unknown variant "nope"; accepted: incident-2026, /,
    );
    expect(usageError(await run('replay', file, '--property', 'nope'))).toMatch(
      /^error: unknown property "nope"/,
    );
  });
});
