/**
 * `kvcheck diagram`: draws statecharts as Mermaid, DOT or SVG, one per chart × variant, or the
 * difference two variants make to a chart. Prints to stdout, or writes one file per drawing into
 * a folder. Every bad name or combination is a UsageError naming what is accepted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Variant } from '../../machines/variants.ts';
import { toDotDiff } from '../export/chartDiff.ts';
import { toDot } from '../export/dotStatechart.ts';
import { drawnChart, drawnDiffCharts } from '../export/faultEdges.ts';
import { toMermaid } from '../export/mermaidStatechart.ts';
import { type ChartName, chartNames } from '../export/statechart.ts';
import { renderSvg } from '../export/svg.ts';
import { type ExitCode, exitCode } from './exitCodes.ts';
import { checkOutputPaths, writeFailure } from './outputPaths.ts';
import { acceptedVariantNames, findAnyVariant, type Io } from './resolve.ts';
import { oneOf, UsageError } from './usageError.ts';

/** Options of `kvcheck diagram`, as parsed from the command line. */
export interface DiagramArgs {
  /** Chart names (`--machine`, repeatable); none and no `--all`: `request`. */
  readonly machine: readonly string[];
  /** Every chart (`--all`); not together with `--machine`. */
  readonly all: boolean;
  /** `mermaid` (the default), `dot` or `svg`. */
  readonly format: string;
  /** A folder to write one file per drawing into, created if missing; absent: stdout. */
  readonly out?: string;
  /** Variants to draw each chart under (repeatable); none: the chart without a variant. */
  readonly variant: readonly string[];
  /** Exactly two variants: draw the second's chart with the edges only one of them has. */
  readonly diff: readonly string[];
  /** Leave disabled edges out instead of drawing them greyed (`--hide-disabled`). */
  readonly hideDisabled?: boolean;
  /**
   * Draw the bug catalogue's fault-only edges too (`--fault-edges`); by default a chart has
   * only those of faults its variant turns on.
   */
  readonly faultEdges?: boolean;
}

/** The formats `--format` accepts, the first being the default. */
export const diagramFormats = ['mermaid', 'dot', 'svg'] as const;
type Format = (typeof diagramFormats)[number];

const extension: Readonly<Record<Format, string>> = { mermaid: 'mmd', dot: 'dot', svg: 'svg' };

/** One thing to draw: its file stem (`request.fixed`) and how to draw it as DOT or Mermaid. */
interface Drawing {
  readonly stem: string;
  readonly mermaid?: () => string;
  readonly dot: () => string;
}

const distinct = (names: readonly string[]) => [...new Set(names)];

/** `name` typed as one of `accepted`, or the UsageError of `oneOf` naming the accepted values. */
function pick<T extends string>(what: string, name: string, accepted: readonly T[]): T {
  const found = accepted.find((a) => a === oneOf(what, name, accepted));
  if (found === undefined) throw new UsageError(`unknown ${what} "${name}"`);
  return found;
}

function variantNamed(name: string): Variant {
  const v = findAnyVariant(oneOf('variant', name, acceptedVariantNames()));
  if (!v) throw new UsageError(`unknown variant "${name}"`);
  return v;
}

function chosenCharts(args: DiagramArgs): ChartName[] {
  if (args.all && args.machine.length > 0)
    throw new UsageError('--machine and --all cannot be used together: name charts or draw all');
  if (args.all) return [...chartNames];
  if (args.machine.length === 0) return ['request'];
  return distinct(args.machine).map((m) => pick('machine', m, chartNames));
}

function diffDrawings(args: DiagramArgs, format: Format, charts: ChartName[]): Drawing[] {
  const names = distinct(args.diff);
  if (args.diff.length !== 2 || names.length !== 2)
    throw new UsageError(
      `--diff takes exactly two different variants (--diff A --diff B), got ${args.diff.length === 0 ? 'none' : args.diff.join(', ')}; accepted: ${acceptedVariantNames().join(', ')}`,
    );
  if (format === 'mermaid')
    throw new UsageError('--diff draws DOT or SVG only: add --format dot or --format svg');
  if (args.variant.length > 0)
    throw new UsageError('--diff and --variant cannot be used together: --diff names both');
  const [a, b] = names.map(variantNamed);
  if (!a || !b) throw new UsageError('--diff takes exactly two variants');
  const faultEdges = args.faultEdges ?? false;
  return charts.map((c) => ({
    stem: `${c}.${a.name}-vs-${b.name}`,
    dot: () => toDotDiff(...drawnDiffCharts(c, a, b, faultEdges)),
  }));
}

function drawings(args: DiagramArgs, format: Format): Drawing[] {
  const charts = chosenCharts(args);
  if (args.diff.length > 0) return diffDrawings(args, format, charts);
  const variants: (Variant | undefined)[] =
    args.variant.length > 0 ? distinct(args.variant).map(variantNamed) : [undefined];
  const hideDisabled = args.hideDisabled ?? false;
  return charts.flatMap((c) =>
    variants.map((v) => {
      const chart = () => drawnChart(c, v, args.faultEdges ?? false);
      return {
        stem: v ? `${c}.${v.name}` : c,
        mermaid: () => toMermaid(chart(), { hideDisabled }),
        dot: () => toDot(chart(), { hideDisabled }),
      };
    }),
  );
}

async function draw(d: Drawing, format: Format): Promise<string> {
  if (format === 'svg') return withNewline(await renderSvg(d.dot()));
  if (format === 'dot' || !d.mermaid) return d.dot();
  return d.mermaid();
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function header(format: Format, stem: string): string {
  if (format === 'mermaid') return `%% kvcheck diagram: ${stem}\n`;
  if (format === 'dot') return `// kvcheck diagram: ${stem}\n`;
  return `<!-- kvcheck diagram: ${stem} -->\n`;
}

function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw writeFailure('--out', dir, e);
  }
}

function writeDrawing(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw writeFailure('--out', path, e);
  }
}

/**
 * `kvcheck diagram`: draws the chosen charts (default `request`) in `args.format` (default
 * `mermaid`), once per `--variant` or once without one, or with `--diff A --diff B` the diff of
 * each chart (DOT or SVG only). The bug catalogue's fault-only edges are left out unless
 * `--fault-edges`, except those of a fault the drawn variant turns on. Without `--out` prints every drawing to `io.out`, each after a
 * comment line naming it when there are several; with `--out DIR` creates DIR, writes
 * `<machine>[.<variant>].<mmd|dot|svg>` (a diff: `<machine>.<A>-vs-<B>.<dot|svg>`) and prints
 * the written paths, one per line. Resolves to exit code 0; throws UsageError for bad input
 * (exit 2).
 */
export async function runDiagram(args: DiagramArgs, io: Io): Promise<ExitCode> {
  if (args.out !== undefined) checkOutputPaths([{ flag: '--out', kind: 'folder', path: args.out }]);
  const format = pick('format', args.format, diagramFormats);
  const planned = drawings(args, format);
  if (args.out === undefined && format === 'svg' && planned.length > 1) {
    throw new UsageError(
      `--format svg draws ${planned.length} files, and SVG documents joined on standard output are not one; give --out DIR`,
    );
  }
  if (args.out !== undefined) {
    const dir = args.out;
    makeDir(dir);
    for (const d of planned) {
      const path = join(dir, `${d.stem}.${extension[format]}`);
      writeDrawing(path, await draw(d, format));
      io.out(`${path}\n`);
    }
    return exitCode.ok;
  }
  for (const d of planned) {
    const text = await draw(d, format);
    io.out(planned.length > 1 ? `${header(format, d.stem)}${text}` : text);
  }
  return exitCode.ok;
}
