/**
 * `kvcheck catalogue`: the table, the JSON report, the exit codes, and the verdict rules (a
 * missed entry or a `fixed` failure is a violation; a bounded search is incomplete, never a pass).
 */
import { z } from 'zod';
import { expectationFor } from '../../scenarios/manifest.ts';
import { faultVariant, fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import {
  catalogueRow,
  catalogueVerdict,
  expectedCatchers,
  runCatalogue,
} from '../../src/catalogue/run.ts';
import { prefillReject } from '../../src/catalogue/scenarios.ts';
import { check } from '../../src/checker/check.ts';
import { exitCodeOf } from '../../src/cli/exitCodes.ts';
import { run } from '../cli/runCli.ts';

const reportSchema = z.object({
  engine: z.enum(['fast', 'graph']),
  verdict: z.enum(['ok', 'violation', 'incomplete']),
  entries: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      upstream: z.array(z.string()),
      variant: z.string(),
      scenario: z.string(),
      expected: z.array(z.string()),
      verdict: z.enum(['caught', 'missed', 'incomplete']),
      caughtBy: z.string().nullable(),
      violated: z.array(z.string()),
      traceLength: z.number().int().nullable(),
      lastEvent: z.string().nullable(),
      message: z.string().nullable(),
      size: z.object({ states: z.number(), transitions: z.number(), depth: z.number() }),
      fixed: z.object({
        status: z.enum(['ok', 'violation', 'incomplete']),
        violated: z.array(z.string()),
        unreachedWitnesses: z.array(z.string()),
        states: z.number(),
        transitions: z.number(),
        depth: z.number(),
      }),
    }),
  ),
});

describe('kvcheck catalogue --json', () => {
  let r: Awaited<ReturnType<typeof run>>;
  let report: z.infer<typeof reportSchema>;
  beforeAll(async () => {
    r = await run('catalogue', '--json');
    report = reportSchema.parse(JSON.parse(r.out));
  });

  it('exits 0: every entry caught by an expected property, fixed clean on every scenario', () => {
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(report.verdict).toBe('ok');
    expect(report.engine).toBe('fast');
  });

  it('has one row per entry, in catalogue order, each caught by one of its expected properties', () => {
    expect(report.entries.map((e) => e.id)).toEqual(catalogue.map((e) => e.id));
    for (const e of report.entries) {
      expect(e.verdict, e.id).toBe('caught');
      expect(e.expected).toContain(e.caughtBy);
      expect(e.violated).toContain(e.caughtBy);
      expect(e.traceLength).toBeGreaterThan(0);
      expect(e.fixed.status, e.id).toBe('ok');
      expect(e.fixed.violated).toEqual([]);
      expect(e.fixed.unreachedWitnesses, e.id).toEqual([]);
    }
  });
});

describe('kvcheck catalogue', () => {
  it('prints the table with each entry’s verdict, property, steps, states and fixed’s verdict', async () => {
    const r = await run('catalogue');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[2]).toMatch(/^entry +variant +scenario +verdict +property +steps +states/);
    expect(r.out).toMatch(
      /^B1 +b1-placeholder-handoff +incident +caught +rejectedNeverHandedOff +7 +2,195 +SEND_KV +ok \(319 states\)$/m,
    );
    expect(r.out).toMatch(
      /^B6 +b6-double-release +prefill-error +caught +freedExactlyOnce +8 +24 +PREFILL_ERROR +ok \(24 states\)$/m,
    );
    expect(r.out).toContain(
      `All ${catalogue.length} faults caught by an expected property; fixed passes every scenario.`,
    );
  });

  it('refuses an unknown engine with exit 2 and one error line', async () => {
    const r = await run('catalogue', '--engine', 'nope');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('error: unknown engine "nope"; accepted: fast, graph\n');
  });

  it('lets check, paths and list name the catalogue’s variants and scenarios', async () => {
    const checked = await run(
      'check',
      '--scenario',
      'prefill-reject',
      '--variant',
      'b3-router-join-hang',
      '--invariant',
      'everyRequestAnswered',
    );
    expect(checked.code).toBe(1);
    expect(checked.out).toContain(
      'Reproduce: npx kvcheck check --scenario prefill-reject --variant b3-router-join-hang --invariant everyRequestAnswered',
    );
    const paths = await run('paths', '--variant', 'b1-placeholder-handoff');
    expect(paths.code).toBe(1);
    const listed = await run('list');
    for (const e of catalogue) expect(listed.out).toContain(e.variant.name);
  });
});

describe('the catalogue verdict', () => {
  it('is a violation, exit 1, when an entry is missed: fixed itself is no fault', () => {
    const missed = { ...catalogue[0], variant: fixedVariant() } as (typeof catalogue)[number];
    const report = runCatalogue([missed]);
    expect(report.entries[0]?.verdict).toBe('missed');
    expect(report.entries[0]?.caughtBy).toBeNull();
    expect(report.verdict).toBe('violation');
    expect(exitCodeOf(report.verdict)).toBe(1);
  });

  it('reads each entry’s expected properties from the manifest, and refuses an unlisted entry', () => {
    const [b1] = catalogue;
    if (!b1) throw new Error('no entry');
    expect(expectedCatchers(b1)).toEqual(
      expectationFor('incident', 'b1-placeholder-handoff')?.caughtByOneOf,
    );
    const unlisted = { ...b1, variant: faultVariant('b1-unlisted', 'test', 'saltIgnored') };
    expect(() => runCatalogue([unlisted])).toThrow(
      'the manifest has no row for incident × b1-unlisted',
    );
  });

  it('is a violation when an entry is caught only by a property it does not expect', () => {
    const entry = {
      id: 'B3',
      description: 'wrong expectation',
      upstream: ['#24159'],
      variant: faultVariant('b3-test', 'test', 'decodeWaitsForeverForKv'),
      scenario: prefillReject,
    } as const;
    const row = expectationFor('prefill-reject', 'b3-router-join-hang');
    if (!row) throw new Error('no manifest row for B3');
    const manifest = [{ ...row, variant: 'b3-test', caughtByOneOf: ['noCrossTenantRead'] }];
    const report = runCatalogue([entry], { manifest });
    expect(report.entries[0]?.violated).toContain('everyRequestAnswered');
    expect(report.entries[0]?.verdict).toBe('missed');
    expect(report.verdict).toBe('violation');
  });

  it('is incomplete, exit 3, when a bounded search neither catches nor misses', () => {
    const [row] = runCatalogue(catalogue.slice(0, 1)).entries;
    if (!row) throw new Error('no row');
    const bounded = { ...row, verdict: 'incomplete' as const, caughtBy: null };
    expect(catalogueVerdict([bounded])).toBe('incomplete');
    expect(exitCodeOf(catalogueVerdict([bounded]))).toBe(3);
    const fixedBounded = { ...row, fixed: { ...row.fixed, status: 'incomplete' as const } };
    expect(catalogueVerdict([fixedBounded])).toBe('incomplete');
    const falseAlarm = { ...row, fixed: { ...row.fixed, status: 'violation' as const } };
    expect(catalogueVerdict([falseAlarm])).toBe('violation');
  });

  it('is incomplete when fixed passes without reaching a required witness: a vacuous pass', () => {
    const [entry] = catalogue;
    if (!entry) throw new Error('no entry');
    // The incident scenario has no transfer faults, so no room ever fails on one.
    const scenario = {
      ...entry.scenario,
      witnesses: [...entry.scenario.witnesses, 'transferFailed'],
    };
    const [row] = runCatalogue([{ ...entry, scenario }]).entries;
    expect(row?.fixed).toMatchObject({
      status: 'incomplete',
      unreachedWitnesses: ['transferFailed'],
    });
    expect(catalogueVerdict(row ? [row] : [])).toBe('incomplete');
  });

  it('calls an entry incomplete, not missed, when a bound stopped its search first', () => {
    const [entry] = catalogue;
    if (!entry) throw new Error('no entry');
    // Expect the leak (21 steps deep); a bound of 200 states finds only the 7-step handoff.
    const bounded = check(entry.scenario, entry.variant, { maxStates: 200 });
    expect(bounded.bound).toEqual({ reason: 'maxStates', limit: 200 });
    expect(bounded.status).toBe('violation');
    const fixed = check(entry.scenario, fixedVariant());
    const row = catalogueRow(entry, ['noCrossTenantRead'], bounded, fixed);
    expect(row.violated).toContain('rejectedNeverHandedOff');
    expect(row).toMatchObject({ verdict: 'incomplete', caughtBy: null });
    expect(catalogueVerdict([row])).toBe('incomplete');
  });
});
