/**
 * `runDiagram`, the stage behind `kvcheck diagram`: stdout and --out modes, and every bad input
 * refused as a UsageError naming what is accepted. Also times every chart × variant as SVG.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { variantNames } from '../../machines/variants.ts';
import { type DiagramArgs, runDiagram } from '../../src/cli/diagramCommand.ts';
import { UsageError } from '../../src/cli/usageError.ts';
import { chartNames } from '../../src/export/statechart.ts';

const defaults: DiagramArgs = { machine: [], all: false, format: 'mermaid', variant: [], diff: [] };

async function run(args: Partial<DiagramArgs>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const io = { out: (t: string) => void out.push(t), err: () => {}, colour: false };
  const code = await runDiagram({ ...defaults, ...args }, io);
  return { code, out: out.join('') };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-diagram-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('runDiagram to stdout', () => {
  it('prints the request chart as Mermaid by default, with no header', async () => {
    const r = await run({});
    expect(r.code).toBe(0);
    expect(r.out.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(r.out).toContain('state "request" as s_request {');
  });

  it('separates several drawings with a header comment naming each', async () => {
    const r = await run({ machine: ['router', 'page'], variant: ['fixed'], format: 'dot' });
    expect(r.out.match(/^\/\/ kvcheck diagram: .*$/gm)).toEqual([
      '// kvcheck diagram: router.fixed',
      '// kvcheck diagram: page.fixed',
    ]);
    expect(r.out.match(/^digraph /gm)).toHaveLength(2);
  });

  it('prints SVG, and the diff of two variants', async () => {
    const svg = await run({ machine: ['page'], format: 'svg' });
    expect(svg.out).toMatch(/^<\?xml[\s\S]*<\/svg>\n$/);
    const diff = await run({ diff: ['incident-2026', 'fixed'], format: 'dot' });
    expect(diff.out).toContain('only in incident-2026');
  });
});

describe('runDiagram and the bug catalogue’s fault-only edges', () => {
  const faultEdge = 'REQUEST_ABORTED\\n[lateResultNotRetired]';

  it('leaves them out of a built-in variant’s chart and of the unjudged chart', async () => {
    for (const variant of [...variantNames.map((v) => [v]), []]) {
      const r = await run({ machine: ['prefill'], variant, format: 'dot' });
      expect(r.out, variant.join()).not.toContain('lateResultNotRetired');
      expect(r.out, variant.join()).not.toContain('errorReleasesKvImmediately');
      expect(r.out, variant.join()).not.toContain('successOverwritesPendingAbort');
      expect(r.out, variant.join()).toContain('PREFILL_FORWARD');
    }
  });

  it('draws them, disabled, with --fault-edges, in Mermaid too', async () => {
    const dot = await run({
      machine: ['prefill'],
      variant: ['fixed'],
      format: 'dot',
      faultEdges: true,
    });
    expect(dot.out).toContain(`label="${faultEdge}`);
    expect(dot.out).toContain('errorReleasesKvImmediately');
    const mermaid = await run({ machine: ['prefill'], variant: ['fixed'] });
    expect(mermaid.out).not.toContain('lateResultNotRetired');
    const all = await run({ machine: ['prefill'], variant: ['fixed'], faultEdges: true });
    expect(all.out).toContain('lateResultNotRetired');
  });

  it('keeps a catalogue variant’s own fault edge, enabled, and hides the other faults’', async () => {
    const r = await run({ machine: ['prefill'], variant: ['b7-late-result-leak'], format: 'dot' });
    const labels = r.out.split('\n').filter((l) => l.includes(faultEdge));
    expect(labels).toHaveLength(2);
    for (const l of labels) expect(l).not.toContain('disabled');
    expect(r.out).not.toContain('errorReleasesKvImmediately');
  });

  it('shows a fault edge in a diff when one side enables it', async () => {
    const r = await run({
      diff: ['fixed', 'b7-late-result-leak'],
      machine: ['prefill'],
      format: 'dot',
    });
    expect(r.out).toContain(
      `${faultEdge}\\n/ replyError, raise SENDER_ABORTED\\nonly in b7-late-result-leak"`,
    );
    expect(r.out).not.toContain('errorReleasesKvImmediately');
  });
});

describe('runDiagram --out', () => {
  it('creates the folder, writes one file per machine × variant and prints the paths', async () => {
    const out = join(dir, 'nested', 'diagrams');
    const r = await run({
      machine: ['prefill', 'page'],
      variant: ['fixed', 'incident-2026'],
      format: 'dot',
      out,
    });
    const files = [
      'prefill.fixed.dot',
      'prefill.incident-2026.dot',
      'page.fixed.dot',
      'page.incident-2026.dot',
    ];
    expect(r.out).toBe(files.map((f) => `${join(out, f)}\n`).join(''));
    expect(readdirSync(out).sort()).toEqual([...files].sort());
    expect(readFileSync(join(out, 'prefill.fixed.dot'), 'utf8')).toContain(
      'prefill (variant fixed)',
    );
  });

  it('names files without a variant <machine>.mmd, and a diff <machine>.<A>-vs-<B>.svg', async () => {
    await run({ all: true, out: dir });
    expect(readdirSync(dir).sort()).toEqual(chartNames.map((c) => `${c}.mmd`).sort());
    await run({ diff: ['fixed', 'retire-only'], format: 'svg', out: dir });
    expect(existsSync(join(dir, 'request.fixed-vs-retire-only.svg'))).toBe(true);
  });

  it('draws every chart under every variant as an SVG file', async () => {
    await run({ all: true, variant: [...variantNames], format: 'svg', out: dir });
    const files = readdirSync(dir);
    expect(files).toHaveLength(chartNames.length * variantNames.length);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8')).toContain('</svg>');
  });
});

describe('runDiagram refuses bad input', () => {
  const refused = async (args: Partial<DiagramArgs>, message: RegExp) => {
    const error = await run(args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  };

  it('unknown machine, format or variant, with the close names or else the accepted ones', async () => {
    await refused({ machine: ['prefil'] }, /unknown machine "prefil"; did you mean prefill\?$/);
    await refused(
      { machine: ['zzz'] },
      /unknown machine "zzz"; accepted: request, prefill, decode, transfer, router, page/,
    );
    await refused({ format: 'png' }, /unknown format "png"; accepted: mermaid, dot, svg/);
    await refused({ variant: ['fixd'] }, /unknown variant "fixd"; did you mean fixed\?$/);
  });

  it('several SVG drawings without --out, which would join SVG documents on standard output', async () => {
    await refused(
      { machine: ['prefill', 'decode'], format: 'svg' },
      /^--format svg draws 2 files, and SVG documents joined on standard output are not one; give --out DIR$/,
    );
    const one = await run({ machine: ['prefill'], format: 'svg' });
    expect(one.out.match(/<svg/g)).toHaveLength(1);
  });

  it('--machine with --all', async () => {
    await refused({ machine: ['page'], all: true }, /--machine and --all/);
  });

  it('a --diff that does not name exactly two different variants, or asks for Mermaid', async () => {
    await refused({ diff: ['fixed'], format: 'dot' }, /exactly two different variants/);
    await refused({ diff: ['fixed', 'fixed'], format: 'dot' }, /exactly two different variants/);
    await refused({ diff: ['a', 'b', 'c'], format: 'dot' }, /exactly two/);
    await refused({ diff: ['fixed', 'nope'], format: 'dot' }, /unknown variant "nope"/);
    await refused({ diff: ['fixed', 'incident-2026'] }, /--format dot or --format svg/);
    await refused(
      { diff: ['fixed', 'incident-2026'], variant: ['fixed'], format: 'dot' },
      /--variant/,
    );
  });

  it('an --out that cannot be created or written', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    await refused(
      { out: join(file, 'sub') },
      /--out: cannot write .*a-file\/sub: .*a-file is a file, not a folder$/,
    );
    await refused({ out: file }, /--out: cannot write .*a-file: it is a file, not a folder$/);
  });
});
