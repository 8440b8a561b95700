/**
 * `kvcheck lint`, `kvcheck check --deployment` and `kvcheck report --deployment` on the shipped
 * examples: exit codes, the documented `--json` shape, and the model checker's verdicts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { examplePath, run } from './helpers.ts';

const incident = examplePath('incident.yaml');
const fixed = examplePath('incident-fixed.yaml');

describe('kvcheck lint', () => {
  it('exits 1 on the incident, naming its numbers', async () => {
    const r = await run('lint', incident);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toContain('exceeds the prefill pool (681,280 tokens)');
    expect(r.out).toContain('681,274 to 1,048,569');
    expect(r.out).toMatch(/\[error\] incident-reported: 2 errors, 2 warnings, 0 info\n$/);
  });

  it.each([['incident-fixed.yaml'], ['llama-70b-1m.yaml'], ['deepseek-v3.yaml']])(
    'exits 0 on %s, whose findings are warnings at most',
    async (file) => {
      const r = await run('lint', examplePath(file));
      expect(r.code).toBe(0);
      expect(r.out).toContain('[ok, with warnings]');
    },
  );

  it('prints the documented JSON', async () => {
    const r = await run('lint', incident, '--json');
    expect(r.code).toBe(1);
    const band = z.object({ from: z.number(), to: z.number() });
    const pool = z.object({
      tokens: z.number(),
      pageSize: z.number(),
      source: z.enum(['computed', 'given']),
    });
    const shape = z.object({
      file: z.string(),
      deployment: z.object({ name: z.string(), variant: z.string(), contextLen: z.number() }),
      pools: z.object({ prefill: pool, decode: pool }),
      limits: z.object({ prefill: z.number(), decode: z.number() }),
      bands: z.array(band.extend({ kind: z.string(), lengths: z.number() })),
      findings: z.array(
        z.object({
          id: z.string(),
          severity: z.enum(['error', 'warning', 'info']),
          message: z.string(),
          band: band.optional(),
          role: z.enum(['prefill', 'decode']).optional(),
        }),
      ),
      sensitivity: z.array(
        z.object({
          role: z.string(),
          parameter: z.string(),
          value: z.string(),
          current: z.boolean(),
          tokens: z.number(),
          maxReqInputLen: z.number(),
          headroom: z.string(),
        }),
      ),
      status: z.enum(['error', 'clean']),
    });
    const json = shape.parse(JSON.parse(r.out));
    expect(json.pools.prefill.tokens).toBe(681_280);
    expect(json.status).toBe('error');
    const llama = shape.parse(
      JSON.parse((await run('lint', examplePath('llama-70b-1m.yaml'), '--json')).out),
    );
    expect(llama.sensitivity.length).toBeGreaterThan(0);
  });
});

describe('kvcheck check --deployment', () => {
  it('finds the cross-tenant read in the incident under its variant', async () => {
    const r = await run('check', '--deployment', incident, '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out) as {
      deployment: { variant: string };
      results: {
        scenario: string;
        variant: string;
        status: string;
        properties: { name: string; status: string }[];
      }[];
    };
    expect(out.deployment.variant).toBe('incident-2026');
    const leak = out.results.find((x) => x.scenario === 'incident-reported.prefillRejects');
    expect(leak?.variant).toBe('incident-2026');
    expect(leak?.properties.find((p) => p.name === 'noCrossTenantRead')?.status).toBe('violated');
    const accepted = out.results.find((x) => x.scenario === 'incident-reported.accepted');
    expect(accepted?.status).toBe('ok');
  });

  it('prints the mapping it chose, then the verdicts', async () => {
    const r = await run('check', '--deployment', incident, '--invariant', 'noCrossTenantRead');
    expect(r.out).toMatch(/prefill pool \(maxReqInputLen\)\s+681,280 \(681,274\)\s+8 \(2\)/);
    expect(r.out).toMatch(
      /b1’s prompt: 681,274 to 1,048,569 \(rejected by prefill only\)\s+b1’s prompt: 3/,
    );
    expect(r.out).toContain(
      `Reproduce: npx kvcheck check --deployment ${incident} --variant incident-2026 --invariant noCrossTenantRead`,
    );
  });

  it('is ok after the fix', async () => {
    const r = await run('check', '--deployment', fixed);
    expect(r.code).toBe(0);
    expect(r.out).toContain('[ok] incident-fixed.bothReject × fixed');
  });

  it('takes --variant instead of the deployment’s', async () => {
    const r = await run('check', '--deployment', incident, '--variant', 'fixed', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { results: { variant: string }[] };
    expect(new Set(out.results.map((x) => x.variant))).toEqual(new Set(['fixed']));
  });

  it('refuses --deployment with --scenario', async () => {
    const r = await run('check', '--deployment', incident, '--scenario', 'incident');
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: --deployment cannot be combined with --scenario or --config\n');
  });
});

describe('kvcheck report --deployment', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kvcheck-deployment-report-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds a deployment section with the sensitivity plot, every string escaped', async () => {
    const text = readFileSync(examplePath('llama-70b-1m.yaml'), 'utf8').replace(
      /description: >-\n(.*\n)*?variant/,
      'description: "<script>alert(1)</script> & co"\nvariant',
    );
    const file = join(dir, 'hostile.yaml');
    writeFileSync(file, text);
    const out = join(dir, 'out');
    const r = await run('report', '--deployment', file, '--out', out);
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    for (const doc of [md, html]) {
      expect(doc).not.toContain('<script>');
    }
    // Markdown also escapes what could start a link or emphasis; HTML needs only entities.
    expect(md).toContain('&lt;script&gt;alert\\(1\\)&lt;/script&gt; &amp; co');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    for (const doc of [md, html]) {
      expect(doc).toContain('1,336,928');
    }
    expect(md).toContain('## Deployment');
    expect(md.indexOf('## Deployment')).toBeLessThan(md.indexOf('## Scenarios'));
    expect(html).toContain('<section id="deployment">');
    expect(html).toMatch(/<svg[^>]*aria-label="Pool capacity of llama-70b-1m/);
    expect(html).toContain('prefill: tpSize 4');
  });
});
