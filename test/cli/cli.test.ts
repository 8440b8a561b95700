/**
 * The command line in process: `main(argv, io)` with a capturing Io. Exit codes follow quint's
 * convention (0 ok, 1 violation, 2 bad input, 3 incomplete); bad input is exactly one `error: …`
 * line on stderr and nothing on stdout; `--json` prints the Outcome in its documented shape.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { propertyNames, witnesses } from '../../invariants/index.ts';
import { variantNames } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { expectationFor, structuralPaths } from '../../scenarios/manifest.ts';
import { pathsMeaning } from '../../src/cli/commands.ts';
import { acceptedScenarioNames } from '../../src/cli/resolve.ts';
import { oneRequestYaml } from '../fixtures/validFiles.ts';
import { run, runInterrupted, usageError } from './runCli.ts';

/** A path to a file in the repository, relative to the working directory (as a user types it). */
const repoFile = (path: string): string =>
  relative(process.cwd(), fileURLToPath(new URL(`../../${path}`, import.meta.url)));

const incidentYaml = repoFile('examples/incident.yaml');
const pool2xJson = repoFile('examples/pool-2x.json');

// The documented `--json` shape. Strict objects reject undocumented keys; a witness also carries
// `statement` and `required` (WitnessResult in src/checker/outcome.ts), so it is not strict.
const rid = z.string().min(1);
const node = z.enum(['prefill', 'decode']);
const index = z.int().min(0);
const writer = z.strictObject({ rid, tenant: z.string().nullable() }).nullable();
/** A change record of `kind` with `fields`, and the sentence it renders to as `text`. */
const change = <K extends string, F extends z.ZodRawShape>(kind: K, fields: F) =>
  z.strictObject({ kind: z.literal(kind), ...fields, text: z.string().min(1) });
const changeSchema = z.discriminatedUnion('kind', [
  change('regionMoved', {
    rid,
    region: z.enum(['router', 'prefill', 'decode']),
    from: z.string(),
    to: z.string(),
  }),
  change('roomPoll', { rid, from: z.string(), to: z.string() }),
  change('placeholderSwapped', { rid, side: node }),
  change('abortPending', { rid }),
  change('kvArrived', { rid, positions: index }),
  change('committed', { rid, seqLen: index }),
  change('auxSlotTaken', { rid, slot: index }),
  change('auxSlotFreed', { rid, slot: index }),
  change('auxDataWritten', { rid, slot: index }),
  change('foreignFirstToken', { rid }),
  change('releaseDeferred', { rid }),
  change('kvOffloaded', { rid, positions: index }),
  change('kvLoaded', { rid, positions: index }),
  change('prefixReused', { rid, pages: z.array(index) }),
  change('pageAllocated', { node, page: index, rid, heldKvOf: z.array(rid) }),
  change('pageFreed', { node, page: index, rid, cachedBy: writer }),
  change('slotWritten', { node, page: index, slot: index.nullable(), writer, was: rid.nullable() }),
  change('slotRead', { rid, node, page: index, writer, foreign: z.boolean() }),
  change('reply', {
    rid,
    side: z.enum(['prefill', 'decode', 'client']),
    status: z.int(),
    tokens: index,
  }),
]);
const stepSchema = z.object({
  step: z.int().min(1),
  actor: z.string().min(1),
  event: z.string().min(1),
  rid: z.string().min(1),
  tenant: z.string().min(1),
  changes: z.array(changeSchema),
  regions: z.record(z.string(), z.record(z.string(), z.string())),
});
const traceSchema = z.strictObject({
  message: z.string().min(1),
  steps: z.array(stepSchema).min(1),
  shortest: z.literal(false).optional(),
});
const propertySchema = z.strictObject({
  name: z.string(),
  statement: z.string().min(1),
  status: z.enum(['holds', 'violated', 'unknown']),
  trace: traceSchema.optional(),
  vacuous: z.literal(true).optional(),
  vacuity: z.string().min(1).optional(),
});
const resultSchema = z.strictObject({
  scenario: z.string(),
  variant: z.string(),
  status: z.enum(['ok', 'violation', 'incomplete']),
  unreachedWitnesses: z.array(z.string()).optional(),
  stats: z.strictObject({
    states: z.int().min(0),
    unreducedStates: z.int().min(0).optional(),
    ampleStates: z.int().min(0).optional(),
    transitions: z.int().min(0),
    depth: z.int().min(0),
    ms: z.number().min(0),
  }),
  bound: z
    .strictObject({
      reason: z.enum(['maxStates', 'maxSeconds', 'maxMemory', 'interrupted']),
      limit: z.number(),
    })
    .optional(),
  properties: z.array(propertySchema).min(1),
  witnesses: z.array(z.object({ name: z.string(), reached: z.boolean() })),
  engine: z
    .strictObject({
      name: z.enum(['fast', 'graph']),
      symmetry: z.boolean(),
      exact: z.boolean(),
      por: z.boolean(),
      search: z.enum(['breadth', 'depth']),
      bytesPerState: z.number().optional(),
      collisionProbability: z.number().optional(),
    })
    .optional(),
  coverage: z.array(
    z.strictObject({
      event: z.string().min(1),
      before: z.record(z.string(), z.string()),
      after: z.record(z.string(), z.string()),
    }),
  ),
});
const outcomeSchema = z.strictObject({ results: z.array(resultSchema) });
type Result = z.infer<typeof resultSchema>;

const traceFileSchema = z.strictObject({
  traces: z.array(
    z.strictObject({
      scenario: z.string(),
      variant: z.string(),
      property: z.string(),
      statement: z.string().min(1),
      message: z.string().min(1),
      steps: z.array(stepSchema).min(1),
      shortest: z.literal(false).optional(),
    }),
  ),
});

const pathsSchema = z.object({
  variants: z.array(
    z.object({
      variant: z.string(),
      paths: z.array(z.object({ from: z.string(), to: z.string() })),
    }),
  ),
});

const violated = (r: Result): string[] =>
  r.properties.filter((p) => p.status === 'violated').map((p) => p.name);

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` to a fresh file in the temp dir and returns its path. */
function tempFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A valid scenario file; each malformed one below changes a single line of it. */
const validYaml = oneRequestYaml;

describe('check: human report', () => {
  it('exits 0 with a verdict row and an [ok] line when the fixed engine passes', async () => {
    const r = await run('check', '--scenario', 'incident', '--variant', 'fixed');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      /^scenario\s+variant\s+verdict\s+states\s+transitions\s+depth\s+time\s+violated$/m,
    );
    expect(r.out).toMatch(/^incident\s+fixed\s+ok\s+319\s+668\s+19\s+\d+(\.\d)? m?s\s+-$/m);
    expect(r.out).toContain('[ok] incident × fixed: no violation');
    expect(r.out).not.toContain('[violation]');
  });

  it('exits 1 with a step table and a reproduce line for the cross-tenant read', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--invariant',
      'noCrossTenantRead',
    );
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    const lines = r.out.split('\n');
    expect(lines).toContain('[violation] noCrossTenantRead in incident × incident-2026: 21 steps');
    expect(lines.some((l) => /^\s+step {2}actor\s+event\s+what changed$/.test(l))).toBe(true);
    expect(lines.filter((l) => l.includes('← another tenant’s KV'))).toHaveLength(1);
    expect(lines.map((l) => l.trim())).toContain(
      'Reproduce: npx kvcheck check --scenario incident --variant incident-2026 --invariant noCrossTenantRead',
    );
    // Only the requested property is checked, so no other violation is reported.
    expect(r.out.match(/^\[violation\] \w+ in /gm)).toEqual(['[violation] noCrossTenantRead in ']);
  });

  it('prints a reproduce line that, run as given, reports the same violation', async () => {
    const first = await run('check', '--scenario', 'incident', '--variant', 'incident-2026');
    expect(first.code).toBe(1);
    const reproduce = first.out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('Reproduce: '));
    expect(reproduce).toHaveLength(5);
    const line = reproduce.find((l) => l.endsWith('--invariant coverageBeforeCommit')) ?? '';
    const argv = line.replace('Reproduce: npx kvcheck ', '').split(' ');
    const again = await run(...argv);
    expect(again.code).toBe(1);
    expect(again.out).toContain('[violation] coverageBeforeCommit in incident × incident-2026');
  });

  it('lists the manifest’s violated properties in the verdict row', async () => {
    const r = await run('check', '--scenario', 'band', '--variant', 'coverage-only');
    expect(r.code).toBe(1);
    const row = r.out.split('\n').find((l) => l.startsWith('band'));
    expect(row?.split(/ {2,}/).at(-1)).toBe(
      expectationFor('band', 'coverage-only')?.violated.join(', '),
    );
  });
});

describe('check --json', () => {
  it('prints one result per scenario × variant, scenario-major, with the manifest’s counts', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--scenario',
      'band',
      '--variant',
      'fixed',
      '--variant',
      'incident-2026',
      '--json',
    );
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    const { results } = outcomeSchema.parse(JSON.parse(r.out));
    expect(results.map((x) => `${x.scenario} × ${x.variant}`)).toEqual([
      'incident × fixed',
      'incident × incident-2026',
      'band × fixed',
      'band × incident-2026',
    ]);
    for (const x of results) {
      const e = expectationFor(x.scenario, x.variant);
      expect(e).toBeDefined();
      expect(x.status).toBe(e?.status);
      expect(x.bound).toBeUndefined();
      expect(x.stats).toMatchObject({
        states: e?.states,
        transitions: e?.transitions,
        depth: e?.depth,
      });
      expect(violated(x)).toEqual(e?.violated);
      expect(x.properties.map((p) => p.name)).toEqual(propertyNames);
      for (const p of x.properties) {
        expect(p.status).not.toBe('unknown');
        if (p.status === 'violated') expect(p.trace?.steps.length).toBeGreaterThan(0);
        else expect(p.trace).toBeUndefined();
      }
    }
  });

  it('numbers trace steps from 1 and ends the cross-tenant trace on the read', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--invariant',
      'noCrossTenantRead',
      '--json',
    );
    const [result] = outcomeSchema.parse(JSON.parse(r.out)).results;
    expect(result?.properties.map((p) => p.name)).toEqual(['noCrossTenantRead']);
    const steps = result?.properties[0]?.trace?.steps ?? [];
    expect(steps.map((s) => s.step)).toEqual(steps.map((_, i) => i + 1));
    expect(steps).toHaveLength(21);
    expect(steps.at(-1)).toMatchObject({ event: 'DECODE_STEP', rid: 'b1', tenant: 'B' });
  });

  it('gives each step’s changes as records of a kind, each with its sentence as text', async () => {
    const argv = ['check', '--scenario', 'incident', '--variant', 'incident-2026', '--json'];
    const [result] = outcomeSchema.parse(JSON.parse((await run(...argv)).out)).results;
    const trace = result?.properties.find((p) => p.name === 'noCrossTenantRead')?.trace;
    const intake = trace?.steps.find((s) => s.event === 'PREFILL_INTAKE' && s.rid === 'b1');
    expect(intake?.changes).toEqual([
      {
        kind: 'regionMoved',
        rid: 'b1',
        region: 'prefill',
        from: 'received',
        to: 'placeholder.bootstrapping',
        text: 'b1 prefill: received → placeholder.bootstrapping',
      },
      {
        kind: 'roomPoll',
        rid: 'b1',
        from: 'unopened',
        to: 'bootstrapping',
        text: 'b1 room: no room → KVPoll Bootstrapping',
      },
      {
        kind: 'placeholderSwapped',
        rid: 'b1',
        side: 'prefill',
        text: 'b1 prompt swapped for a 1-token placeholder on prefill',
      },
    ]);
    // The leak: b1's attention reads a decode page a1 (tenant A) wrote last.
    expect(trace?.steps.at(-1)?.changes).toContainEqual({
      kind: 'slotRead',
      rid: 'b1',
      node: 'decode',
      page: 1,
      writer: { rid: 'a1', tenant: 'A' },
      foreign: true,
      text: 'b1 reads decode page 1, last written by a1 (tenant A) ← another tenant’s KV',
    });
    const kinds = new Set(trace?.steps.flatMap((s) => s.changes.map((c) => c.kind)));
    expect([...kinds]).toEqual(
      expect.arrayContaining(['kvArrived', 'committed', 'pageAllocated', 'slotWritten', 'reply']),
    );
  });
});

describe('bounds', () => {
  it('runs the large scenario only when named, and a bounded run of it is incomplete', async () => {
    const all = await run('check', '--variant', 'fixed', '--json');
    const names = JSON.parse(all.out).results.map((x: { scenario: string }) => x.scenario);
    expect(names).not.toContain('incident-large');
    const r = await run(
      'check',
      '--scenario',
      'incident-large',
      '--variant',
      'fixed',
      '--max-states',
      '500',
      '--json',
    );
    expect(r.code).toBe(3);
    const [result] = JSON.parse(r.out).results;
    expect(result).toMatchObject({ scenario: 'incident-large', status: 'incomplete' });
    expect(result.bound).toEqual({ reason: 'maxStates', limit: 500 });
  });

  it('exits 3 and proves nothing when --max-states stops a passing model', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--max-states',
      '10',
    );
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^incident\s+fixed\s+incomplete\s/m);
    expect(r.out).toContain(
      '[incomplete] incident × fixed: stopped at --max-states 10; nothing is proven',
    );
  });

  it('reports status incomplete, a bound and only unknown properties in JSON', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--max-states',
      '10',
      '--json',
    );
    expect(r.code).toBe(3);
    const [result] = outcomeSchema.parse(JSON.parse(r.out)).results;
    expect(result?.status).toBe('incomplete');
    expect(result?.bound).toEqual({ reason: 'maxStates', limit: 10 });
    expect(result?.properties.every((p) => p.status === 'unknown' && !p.trace)).toBe(true);
  });

  it('exits 3 when --max-seconds runs out before the search ends', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--max-seconds',
      '0.000001',
    );
    expect(r.code).toBe(3);
    expect(r.out).toContain('[incomplete] incident × fixed: stopped at --max-seconds 0.000001');
  });

  it('says how the fast engine stored states: fingerprints with the collision estimate, or full keys', async () => {
    const fingerprints = await run('check', '--scenario', 'happy', '--variant', 'fixed');
    expect(fingerprints.out).toContain(
      '  states stored as 64-bit fingerprints, 16 bytes/state; probability of a collision 1.3e-13 (--exact stores full keys)\n',
    );
    const exact = await run('check', '--scenario', 'happy', '--variant', 'fixed', '--exact');
    expect(exact.out).toMatch(
      /\n {2}states stored as full keys, [0-9.]+ bytes\/state: no fingerprint collision possible\n/,
    );
    const reference = await run(
      'check',
      '--scenario',
      'happy',
      '--variant',
      'fixed',
      '--engine',
      'graph',
    );
    expect(reference.out).not.toContain('states stored as');
  });

  it('stops at Ctrl-C with what it explored, skips the checks not started and exits 3', async () => {
    const r = await runInterrupted(
      300,
      'check',
      '--scenario',
      'incident-large',
      '--variant',
      'fixed',
      '--variant',
      'retire-only',
      '--search',
      'depth',
      '--json',
    );
    expect(r.code).toBe(3);
    expect(r.err).toBe('interrupted: 1 check not run\n');
    const { results } = outcomeSchema.parse(JSON.parse(r.out));
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result?.status).toBe('incomplete');
    expect(result?.bound?.reason).toBe('interrupted');
    expect(result?.bound?.limit).toBeGreaterThan(0);
    expect(result?.stats.states).toBeGreaterThan(1);
    expect(result?.properties.every((p) => p.status === 'unknown')).toBe(true);
    const text = await runInterrupted(
      200,
      'check',
      '--scenario',
      'incident-large',
      '--variant',
      'fixed',
    );
    expect(text.code).toBe(3);
    expect(text.out).toMatch(
      /\[incomplete\] incident-large × fixed: interrupted after [0-9.]+ m?s; nothing is proven/,
    );
  });

  it('still exits 1 when a violation is found within the state bound', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--invariant',
      'rejectedNeverHandedOff',
      '--max-states',
      '1500',
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('[violation] rejectedNeverHandedOff in incident × incident-2026');
  });
});

describe('check --out-trace', () => {
  it('writes every counterexample, matching the traces in the JSON output', async () => {
    const file = join(dir, 'traces.json');
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--json',
      '--out-trace',
      file,
    );
    expect(r.code).toBe(1);
    const { traces } = traceFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const [result] = outcomeSchema.parse(JSON.parse(r.out)).results;
    expect(traces.map((t) => t.property)).toEqual(
      expectationFor('incident', 'incident-2026')?.violated,
    );
    for (const t of traces) {
      expect(t).toMatchObject({ scenario: 'incident', variant: 'incident-2026' });
      const p = result?.properties.find((q) => q.name === t.property);
      expect(t.statement).toBe(p?.statement);
      expect(t.message).toBe(p?.trace?.message);
      expect(t.steps).toEqual(p?.trace?.steps);
    }
  });

  it('writes an empty list when nothing is violated', async () => {
    const file = join(dir, 'none.json');
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--out-trace',
      file,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ traces: [] });
  });

  // Why this test? An unwritable --out-trace once escaped as a stack trace with exit 1.
  it('rejects an --out-trace file that cannot be written as bad input', async () => {
    const file = join(dir, 'no-such-dir', 't.json');
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--out-trace',
      file,
    );
    expect(usageError(r)).toContain('no-such-dir');
  });
});

describe('honest verdicts', () => {
  it('exits 3 and names the witness when a scenario requires one it cannot reach', async () => {
    // One request that fits every limit: nothing is ever rejected.
    const file = tempFile('needs-reject.yaml', `${validYaml}witnesses: [someRequestRejected]\n`);
    const r = await run('check', '--config', file, '--variant', 'fixed');
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^t\s+fixed\s+incomplete\s/m);
    expect(r.out).toContain('the required witness someRequestRejected was never reached');
  });

  it('labels a property that holds only vacuously, in the text and the JSON', async () => {
    const text = await run('check', '--scenario', 'happy', '--variant', 'fixed');
    expect(text.code).toBe(0);
    expect(text.out).toContain(
      'prefixSharingRespectsSalt holds (vacuous: no request reused prefix-cache pages)',
    );
    const json = await run('check', '--scenario', 'happy', '--variant', 'fixed', '--json');
    const [result] = outcomeSchema.parse(JSON.parse(json.out)).results;
    expect(result?.properties.find((p) => p.name === 'auxSlotIntegrity')).toMatchObject({
      status: 'holds',
      vacuous: true,
      vacuity: 'the scenario has no aux slots, or decode never committed a request',
    });
  });

  it('writes the same bytes twice, with the times on the terminal only', async () => {
    const args = [
      'report',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--variant',
      'fixed',
    ];
    const a = join(dir, 'report-twice');
    const files = ['report.md', 'report.html'];
    const first = await run(...args, '--out', a);
    const before = files.map((f) => readFileSync(join(a, f), 'utf8'));
    const second = await run(...args, '--out', a);
    for (const [i, file] of files.entries()) {
      const text = readFileSync(join(a, file), 'utf8');
      expect(text).toBe(before[i]);
      expect(text).not.toMatch(/\d ms\b|\d(\.\d+)? s\b/);
      // The footer names the version, the commit of this checkout and the command.
      expect(text).toMatch(/kvcheck \d+\.\d+\.\d+, commit [0-9a-f]{12}/);
      expect(text).toContain('kvcheck report --scenario incident');
    }
    expect(first.out).toMatch(/^scenario .* time {2}violated$/m);
    expect(first.out).toMatch(/ \d+ ms {2}/);
    expect(first.out).toContain(join(a, 'report.html'));
    expect(second.code).toBe(first.code);
  });

  it('writes the same report with --workers 2 as with one thread', async () => {
    const args = ['report', '--scenario', 'incident', '--scenario', 'band', '--variant', 'fixed'];
    const files = ['report.md', 'report.html'];
    const texts = async (workers: string) => {
      const out = join(dir, `report-workers-${workers}`);
      const r = await run(...args, '--workers', workers, '--out', out);
      expect(r.code).toBe(0);
      // The footer quotes the command, which names the workers and the folder.
      return files.map((f) =>
        readFileSync(join(out, f), 'utf8')
          .replaceAll(`--workers ${workers}`, '--workers N')
          .replaceAll(out, 'OUT'),
      );
    };
    expect(await texts('2')).toEqual(await texts('1'));
  });

  it('exits 1 from report on a violation, and still writes the files', async () => {
    const out = join(dir, 'report-violation');
    const r = await run(
      'report',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
  });
});

describe('check --config', () => {
  it('exits 1 for the incident file and names the file on the reproduce line', async () => {
    const r = await run('check', '--config', incidentYaml, '--variant', 'incident-2026');
    expect(r.code).toBe(1);
    expect(incidentYaml).toBe('examples/incident.yaml');
    expect(r.out).toContain(
      `Reproduce: npx kvcheck check --config ${incidentYaml} --variant incident-2026 --invariant noCrossTenantRead`,
    );
    expect(r.out).not.toContain('--scenario incident');
  });

  it('gives a file the same counts as the built-in scenario it copies', async () => {
    const r = await run('check', '--config', incidentYaml, '--variant', 'fixed', '--json');
    expect(r.code).toBe(0);
    const [result] = outcomeSchema.parse(JSON.parse(r.out)).results;
    expect(result?.stats.states).toBe(expectationFor('incident', 'fixed')?.states);
  });

  it('exits 0 for the pool-2x file under every variant', async () => {
    const r = await run('check', '--config', pool2xJson);
    expect(r.code).toBe(0);
    for (const v of variantNames) expect(r.out).toContain(`[ok] pool-2x × ${v}: no violation`);
  });
});

describe('bad input: exit 2, one error line, nothing on stdout', () => {
  it('rejects an unknown top-level option', async () => {
    expect(usageError(await run('--frob'))).toMatchInlineSnapshot(
      `"error: unknown option '--frob'; accepted: --version, --help"`,
    );
  });

  it('rejects an unknown option of check and lists the accepted ones', async () => {
    expect(usageError(await run('check', '--frob'))).toMatchInlineSnapshot(
      `"error: unknown option '--frob'; accepted: --scenario, --config, --variant, --invariant, --json, --out-trace, --out-itf, --engine, --max-states, --max-seconds, --max-memory, --symmetry, --exact, --search, --por, --workers, --deployment, --por-check, --reads-check, --help"`,
    );
  });

  it('rejects an unknown command', async () => {
    expect(usageError(await run('frob'))).toMatchInlineSnapshot(
      `"error: unknown command 'frob'; accepted commands: check, lint, paths, all, report, diagram, state-space, catalogue, simulate, liveness, replay, list, help"`,
    );
  });

  it('rejects an option missing its value', async () => {
    expect(usageError(await run('check', '--variant'))).toMatchInlineSnapshot(
      `"error: option '--variant <name>' argument missing"`,
    );
  });

  it('rejects a stray argument to check', async () => {
    expect(usageError(await run('check', 'incident'))).toMatchInlineSnapshot(
      `"error: too many arguments for 'check'. Expected 0 arguments but got 1."`,
    );
  });

  it('rejects an unknown variant', async () => {
    expect(
      usageError(await run('check', '--scenario', 'incident', '--variant', 'nope')),
    ).toMatchInlineSnapshot(
      `"error: unknown variant "nope"; accepted: incident-2026, fixed, fixed-coverage, retire-only, coverage-only, b1-placeholder-handoff, b2-success-overwrites-abort, b3-router-join-hang, b4-release-before-drain, b5-aux-slot-reuse, b6-double-release, b7-late-result-leak, b8-salt-ignored, b9-duplicate-room, b10-lease-expires-under-read, b11-aborted-load-freed"`,
    );
  });

  it('rejects an unknown scenario', async () => {
    expect(
      usageError(await run('check', '--scenario', 'nope', '--variant', 'fixed')),
    ).toMatchInlineSnapshot(
      `"error: unknown scenario "nope"; accepted: incident, pool-2x, band, happy, tight-decode, incident-large, prefill-error, prefill-reject, late-write, aux-slot-reuse, late-abort, shared-prefix, room-collision, pull-lease, pull-abort"`,
    );
  });

  it('rejects an unknown invariant', async () => {
    expect(
      usageError(
        await run('check', '--scenario', 'incident', '--variant', 'fixed', '--invariant', 'nope'),
      ),
    ).toBe(`error: unknown invariant "nope"; accepted: ${propertyNames.join(', ')}`);
  });

  it('rejects --max-states 0', async () => {
    expect(
      usageError(
        await run('check', '--scenario', 'incident', '--variant', 'fixed', '--max-states', '0'),
      ),
    ).toMatchInlineSnapshot(`"error: --max-states: must be a whole number >= 1 (got "0")"`);
  });

  it('rejects a --max-states that is not a number', async () => {
    expect(
      usageError(
        await run('check', '--scenario', 'incident', '--variant', 'fixed', '--max-states', 'abc'),
      ),
    ).toMatchInlineSnapshot(`"error: --max-states: must be a whole number >= 1 (got "abc")"`);
  });

  it('rejects a negative --max-seconds', async () => {
    expect(
      usageError(
        await run('check', '--scenario', 'incident', '--variant', 'fixed', '--max-seconds', '-1'),
      ),
    ).toMatchInlineSnapshot(`"error: --max-seconds: must be a number of seconds > 0 (got "-1")"`);
  });

  it('rejects a config file that does not exist', async () => {
    const file = join(dir, 'missing.yaml');
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: cannot read the file (no such file or directory)`,
    );
  });

  it('rejects a config file with an unsupported extension', async () => {
    const file = tempFile('scenario.toml', 'name = "t"\n');
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: unsupported file extension ".toml"; accepted: .yaml, .yml, .json`,
    );
  });

  it('names an unknown key in a config file and lists the accepted ones', async () => {
    const file = tempFile('unknown-key.yaml', `${validYaml}colour: red\n`);
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: unknown key "colour" at top level; accepted: name, description, requests, pageSize, prefillPoolTokens, decodePoolTokens, contextLen, reserve, transferFaults, maxTransferFaults, prefillChunks, clientAborts, maxClientAborts, lateWrites, auxSlots, prefillErrors, decodeReservedTokens, transfer, witnesses`,
    );
  });

  it('names pageSize when the page size is 0', async () => {
    const file = tempFile('page0.yaml', validYaml.replace('pageSize: 1', 'pageSize: 0'));
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: pageSize: must be an integer >= 1 (got 0)`,
    );
  });

  it('names the pool when a pool is negative', async () => {
    const file = tempFile(
      'negative-pool.yaml',
      validYaml.replace('prefillPoolTokens: 8', 'prefillPoolTokens: -1'),
    );
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: prefillPoolTokens: must be an integer from 1 to 1024 (got -1)`,
    );
  });

  it('names the request field when a prompt has length 0', async () => {
    const file = tempFile('prompt0.yaml', validYaml.replace('promptLen: 1', 'promptLen: 0'));
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: requests[0].promptLen: must be an integer >= 1 (got 0)`,
    );
  });

  it('gives the line and column of invalid JSON', async () => {
    const file = tempFile('broken.json', '{"name": "t",\n}\n');
    expect(usageError(await run('check', '--config', file))).toBe(
      `error: ${file}: invalid JSON at line 2, column 1: expected a key in double quotes`,
    );
  });

  it('rejects a config file whose name is already used by a built-in scenario', async () => {
    expect(usageError(await run('check', '--scenario', 'incident', '--config', incidentYaml))).toBe(
      `error: ${incidentYaml}: scenario name "incident" is already used by another scenario`,
    );
  });

  it('rejects an unknown state for paths --from', async () => {
    const line = usageError(await run('paths', '--from', 'prefill.xyzzy'));
    expect(line).toMatch(
      /^error: unknown state "prefill\.xyzzy"; accepted states: router\.idle, .*decode\.done\.aborted$/,
    );
  });

  it('rejects an unknown variant for paths', async () => {
    expect(usageError(await run('paths', '--variant', 'nope'))).toMatchInlineSnapshot(
      `"error: unknown variant "nope"; accepted: incident-2026, fixed, fixed-coverage, retire-only, coverage-only, b1-placeholder-handoff, b2-success-overwrites-abort, b3-router-join-hang, b4-release-before-drain, b5-aux-slot-reuse, b6-double-release, b7-late-result-leak, b8-salt-ignored, b9-duplicate-room, b10-lease-expires-under-read, b11-aborted-load-freed"`,
    );
  });

  // Why this test? A `help` command once printed nothing and exited 0 for `help nope`; help is
  // `kvcheck COMMAND --help`, and `help` is refused like any unknown command.
  it('gives `help COMMAND` as COMMAND --help gives it, and refuses an unknown command', async () => {
    const help = await run('help', 'replay');
    expect(help.code).toBe(0);
    expect(help.out).toBe((await run('replay', '--help')).out);
    expect(help.out).toContain('Exit codes:');
    expect((await run('help')).out).toMatch(/^Usage: kvcheck \[options\] \[command\]/);
    expect(usageError(await run('help', 'chek'))).toBe(
      'error: unknown command "chek"; did you mean check?',
    );
  });

  it('takes --out as a folder in every command that has it', async () => {
    const commands = ['all', 'report', 'diagram', 'state-space', 'check', 'liveness'];
    const outs = await Promise.all(commands.map(async (c) => (await run(c, '--help')).out));
    const flags = outs.flatMap((o) => [...o.matchAll(/--out(?:-[a-z]+)? <(\w+)>/g)]);
    expect(flags.filter((m) => m[0].startsWith('--out <')).length).toBe(4);
    // --out and --out-itf name folders; --out-trace alone names a file (one JSON document).
    for (const m of flags)
      expect([m[0], m[1]]).toEqual([m[0], m[0].startsWith('--out-trace') ? 'file' : 'dir']);
  });

  it('state-space --out DIR writes the drawing into DIR and prints its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kvcheck-space-'));
    try {
      const out = join(dir, 'graphs');
      const r = await run(
        'state-space',
        '--scenario',
        'happy',
        '--variant',
        'fixed',
        '--project',
        'a1',
        '--out',
        out,
      );
      const file = join(out, 'happy.fixed.a1.state-space.dot');
      expect([r.code, r.out]).toEqual([0, `${file}\n`]);
      expect(readFileSync(file, 'utf8')).toMatch(/^digraph /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows each default once in the help', async () => {
    for (const command of ['check', 'diagram', 'replay', 'state-space']) {
      const { out } = await run(command, '--help');
      expect(out).not.toMatch(/\(default: (\[\]|false)\)/);
      expect(out).not.toMatch(/default: [^)]*\) \(default:/);
    }
  });
});

describe('paths', () => {
  it('exits 1 and prints the placeholder path under incident-2026', async () => {
    const r = await run('paths', '--variant', 'incident-2026');
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^\[violation\] incident-2026: \d+ path\(s\) from a rejected state/m);
    expect(r.out).toContain(
      'prefill.placeholder → decode.admitted.running, shortest path (6 steps):',
    );
    // It says what the structural claim is, and that a leak needs a scenario's numbers.
    expect(r.out.endsWith(`\n\n${pathsMeaning}\n`)).toBe(true);
    expect(pathsMeaning).toContain('That is a leak only where a scenario’s numbers reach it');
  });

  it('exits 0 when neither fixed variant has a path', async () => {
    const r = await run('paths', '--variant', 'fixed', '--variant', 'fixed-coverage');
    expect(r.code).toBe(0);
    expect(r.out).toContain('[ok] fixed: no path from a rejected state to a decoding state');
    expect(r.out).toContain(
      '[ok] fixed-coverage: no path from a rejected state to a decoding state',
    );
  });

  it('prints one JSON report per variant, with paths exactly where the manifest says', async () => {
    const r = await run('paths', '--json');
    expect(r.code).toBe(1);
    const { variants } = pathsSchema.parse(JSON.parse(r.out));
    expect(variants.map((v) => v.variant)).toEqual(variantNames);
    for (const v of variants) expect(v.paths.length > 0).toBe(structuralPaths[v.variant]);
  });

  it('limits the JSON to the named variants', async () => {
    const r = await run('paths', '--json', '--variant', 'fixed');
    expect(r.code).toBe(0);
    const { variants } = pathsSchema.parse(JSON.parse(r.out));
    expect(variants).toHaveLength(1);
    expect(variants[0]?.paths).toEqual([]);
  });

  it('follows --from and --to', async () => {
    const r = await run(
      'paths',
      '--json',
      '--variant',
      'incident-2026',
      '--from',
      'prefill.placeholder',
      '--to',
      'decode.admitted.running',
    );
    expect(r.code).toBe(1);
    const { variants } = pathsSchema.parse(JSON.parse(r.out));
    const ends = new Set(variants[0]?.paths.map((p) => `${p.from} → ${p.to}`));
    expect([...ends]).toEqual(['prefill.placeholder → decode.admitted.running']);
  });
});

describe('list, version and usage', () => {
  it('lists every built-in scenario, variant and property', async () => {
    const r = await run('list');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const names = r.out.split('\n').map((l) => l.trim().split(/\s+/)[0]);
    for (const s of scenarios) expect(names).toContain(s.name);
    for (const v of variantNames) expect(names).toContain(v);
    for (const p of propertyNames) expect(names).toContain(p);
    for (const p of ['eventuallyAnswered', 'pagesEventuallyFreed']) expect(names).toContain(p);
    // Every name --scenario accepts, the catalogue's included, and every witness.
    for (const s of acceptedScenarioNames()) expect(names).toContain(s);
    for (const w of Object.keys(witnesses)) expect(names).toContain(w);
  });

  it('lists the same names as JSON', async () => {
    const r = await run('list', '--json');
    expect(r.code).toBe(0);
    const listed = z
      .object({
        scenarios: z.array(z.object({ name: z.string() })),
        variants: z.array(z.object({ name: z.string() })),
        properties: z.array(z.string()),
        leadsTo: z.array(z.string()),
        witnesses: z.array(z.object({ name: z.string(), statement: z.string() })),
        catalogueScenarios: z.array(z.string()),
      })
      .parse(JSON.parse(r.out));
    expect(listed.scenarios.map((s) => s.name)).toEqual(scenarios.map((s) => s.name));
    expect(listed.variants.map((v) => v.name)).toEqual(variantNames);
    expect(listed.properties).toEqual(propertyNames);
    expect(listed.leadsTo).toEqual(['eventuallyAnswered', 'pagesEventuallyFreed']);
    expect(listed.witnesses.map((w) => w.name)).toEqual(Object.keys(witnesses));
    expect(listed.catalogueScenarios).toContain('late-write');
  });

  it('prints package.json’s version for --version and -V', async () => {
    const pkg = z
      .object({ version: z.string() })
      .parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')));
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r).toMatchObject({ code: 0, out: `${pkg.version}\n`, err: '' });
    }
  });

  it('exits 2 with the usage on stderr when given no arguments', async () => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^Usage: kvcheck \[options\] \[command\]\n/);
    for (const c of ['check', 'paths', 'all', 'list'])
      expect(r.err).toMatch(new RegExp(`^ +${c} `, 'm'));
  });

  it('exits 0 with the usage on stdout for --help and check --help', async () => {
    const top = await run('--help');
    expect(top.code).toBe(0);
    expect(top.err).toBe('');
    expect(top.out).toMatch(/^Usage: kvcheck \[options\] \[command\]\n/);
    const check = await run('check', '--help');
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/^Usage: kvcheck check \[options\]\n/);
    for (const o of ['--scenario', '--config', '--variant', '--invariant', '--max-states']) {
      expect(check.out).toContain(o);
    }
    expect(check.out).toContain('Ctrl-C stops the fast engine with what it explored');
  });

  it('documents the same search options and defaults in check, report and all', async () => {
    const flags = ['--engine', '--max-states', '--max-seconds', '--max-memory', '--symmetry'];
    const searchLines = async (command: string) => {
      const help = await run(command, '--help');
      // One block per option: its line and the wrapped lines under it, joined.
      const blocks = help.out.split(/\n(?= {2}-)/).map((b) => b.trim().replace(/\s+/g, ' '));
      return blocks.filter((b) => [...flags, '--exact', '--search'].some((f) => b.startsWith(f)));
    };
    const check = await searchLines('check');
    expect(check).toHaveLength(7);
    expect(check.some((l) => l.includes('(default: none)'))).toBe(true);
    expect(await searchLines('report')).toEqual(check);
    expect(await searchLines('all')).toEqual(check);
  });
});

describe('repeated and odd values', () => {
  it('checks a scenario × variant once however often it is named', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--variant',
      'fixed',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).results).toHaveLength(1);
  });

  it('refuses a number of seconds written in hexadecimal', async () => {
    expect(usageError(await run('check', '--max-seconds', '0x10'))).toBe(
      'error: --max-seconds: must be a number of seconds > 0 (got "0x10")',
    );
  });
});

describe('check --out-itf', () => {
  it('writes one ITF trace per counterexample, with one state more than the trace has steps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kvcheck-itf-'));
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'incident-2026',
      '--out-itf',
      dir,
      '--json',
    );
    expect(r.code).toBe(1);
    const result = JSON.parse(r.out).results[0];
    const violated = result.properties.filter((p: { status: string }) => p.status === 'violated');
    for (const p of violated) {
      const file = join(dir, `incident.incident-2026.${p.name}.itf.json`);
      const itf = JSON.parse(readFileSync(file, 'utf8'));
      expect(itf['#meta'].format).toBe('ITF');
      expect(itf.states).toHaveLength(p.trace.steps.length + 1);
    }
  });
});

describe('check --engine', () => {
  it('gives the same JSON with the fast and the reference engine, but for timings and engine', async () => {
    const strip = (out: string) =>
      JSON.parse(out).results.map((r: Record<string, unknown>) => {
        const { engine: _e, stats, ...rest } = r as { engine?: unknown; stats: object };
        return { ...rest, stats: { ...stats, ms: 0 } };
      });
    const args = ['check', '--scenario', 'incident', '--variant', 'incident-2026', '--json'];
    const fast = await run(...args, '--engine', 'fast');
    const graph = await run(...args, '--engine', 'graph');
    expect(fast.code).toBe(1);
    expect(graph.code).toBe(1);
    expect(strip(fast.out)).toEqual(strip(graph.out));
  });

  it('refuses symmetry with the reference engine', async () => {
    expect(usageError(await run('check', '--engine', 'graph', '--symmetry', 'on'))).toBe(
      'error: --symmetry on needs --engine fast; the reference engine stores full snapshots',
    );
  });

  it('names every fast-engine option given to the reference engine, with why', async () => {
    const r = await run('check', '--engine', 'graph', '--exact', '--search', 'depth', '--por');
    expect(usageError(r)).toBe(
      'error: --exact, --search depth and --por on need --engine fast; the reference engine stores full snapshots, is breadth first and expands every state in full',
    );
  });

  it('refuses an unknown engine', async () => {
    expect(usageError(await run('check', '--engine', 'spin'))).toBe(
      'error: unknown engine "spin"; accepted: fast, graph',
    );
  });
});
