/**
 * `kvcheck replay FILE`: replays the counterexamples of a trace file (`check --out-trace`, or
 * the Outcome of `check --json`) under other variants (`src/replay/replay.ts`) and says, for
 * each, where the variant blocks it and by which guard, or that it runs to the end and whether
 * the property is still violated.
 */
import { z } from 'zod';
import { propertyNames } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { loadDataFile, loadScenarioFile } from '../config/loadScenario.ts';
import { type ReplayOutcome, replayText, replayTrace } from '../replay/replay.ts';
import { exitCode } from './exitCodes.ts';
import { acceptedScenarioNames, findAnyScenario, type Io, resolveVariants } from './resolve.ts';
import { oneOf, UsageError } from './usageError.ts';

/** Options of `kvcheck replay`. */
export interface ReplayArgs {
  readonly variant: readonly string[];
  readonly property: readonly string[];
  /** The scenario file the traces were found on, when it is not a built-in scenario. */
  readonly config?: string;
  readonly json: boolean;
}

const stepSchema = z.object({
  event: z.string(),
  rid: z.string(),
  regions: z.record(z.string(), z.record(z.string(), z.string())),
});
const traceSchema = z.object({ steps: z.array(stepSchema) });
/** The file `check --out-trace` writes. */
const outTraceSchema = z.object({
  traces: z.array(
    z.object({
      scenario: z.string(),
      variant: z.string(),
      property: z.string(),
      steps: z.array(stepSchema),
    }),
  ),
});
/** The parts of `check --json` that replay reads. */
const outcomeSchema = z.object({
  results: z.array(
    z.object({
      scenario: z.string(),
      variant: z.string(),
      properties: z.array(z.object({ name: z.string(), trace: traceSchema.optional() })),
    }),
  ),
});

/** A counterexample read from a trace file. */
interface FoundTrace {
  readonly scenario: string;
  readonly variant: string;
  readonly property: string;
  readonly steps: z.infer<typeof stepSchema>[];
}

/** The traces in the data of `file`; a UsageError when it is neither kind of trace file. */
function tracesIn(data: unknown, file: string): FoundTrace[] {
  const list = outTraceSchema.safeParse(data);
  if (list.success) return list.data.traces;
  const outcome = outcomeSchema.safeParse(data);
  if (outcome.success) {
    return outcome.data.results.flatMap((r) =>
      r.properties.flatMap((p) =>
        p.trace
          ? [{ scenario: r.scenario, variant: r.variant, property: p.name, steps: p.trace.steps }]
          : [],
      ),
    );
  }
  const kind = typeof data === 'object' && data !== null && 'results' in data ? outcome : list;
  const issue = kind.error?.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new UsageError(
    `${file}: not a kvcheck trace file${where}; expected the JSON of check --out-trace or check --json`,
  );
}

/** The scenario a trace names: `--config`'s when it has that name, else a built-in one. */
function scenarioOf(name: string, given: Scenario | undefined): Scenario {
  if (given?.name === name) return given;
  const found = findAnyScenario(name);
  if (found) return found;
  throw new UsageError(
    `the traces' scenario "${name}" is not built in; pass its file with --config (built in: ${acceptedScenarioNames().join(', ')})`,
  );
}

/** One replay as `--json` prints it. */
interface ReplayJson {
  readonly scenario: string;
  readonly traceVariant: string;
  readonly property: string;
  readonly steps: number;
  readonly variant: string;
  readonly outcome: ReplayOutcome;
  readonly text: string;
}

/**
 * `kvcheck replay`: exit 1 when some trace runs to its end under some variant with its property
 * still violated, 0 otherwise (every replay blocked, or the property holds at the end), 2 for
 * bad input.
 */
export function runReplay(file: string, args: ReplayArgs, io: Io): number {
  const variants = resolveVariants(args.variant);
  for (const name of args.property) oneOf('property', name, propertyNames);
  const given = args.config ? loadScenarioFile(args.config) : undefined;
  const traces = tracesIn(
    loadDataFile(file, 'a trace file of check --out-trace or check --json', {
      max: 12,
      deepest: 'results[].properties[].trace.steps[].regions.<rid>',
    }),
    file,
  ).filter((t) => args.property.length === 0 || args.property.includes(t.property));
  if (traces.length === 0) {
    const which = args.property.length > 0 ? ` of ${args.property.join(', ')}` : '';
    throw new UsageError(`${file}: holds no counterexample${which}`);
  }
  const replays: ReplayJson[] = traces.flatMap((t) => {
    const scenario = scenarioOf(t.scenario, given);
    return variants.map((v) => {
      const outcome = replayTrace(scenario, v, t.steps, t.property);
      const base = { scenario: t.scenario, traceVariant: t.variant, property: t.property };
      const text = replayText(outcome, v.name, t.property);
      return { ...base, steps: t.steps.length, variant: v.name, outcome, text };
    });
  });
  if (args.json) io.out(`${JSON.stringify({ replays }, null, 2)}\n`);
  else io.out(renderReplays(replays));
  return replays.some((r) => r.outcome.kind === 'completed' && r.outcome.violated)
    ? exitCode.violation
    : exitCode.ok;
}

/** The replays grouped by trace: a heading per trace, a line per variant. */
function renderReplays(replays: readonly ReplayJson[]): string {
  const lines: string[] = [];
  let heading = '';
  for (const r of replays) {
    const h = `${r.scenario} × ${r.traceVariant}, ${r.property} (${r.steps} steps):`;
    if (h !== heading) lines.push(...(heading ? [''] : []), h);
    heading = h;
    lines.push(`  ${r.text}`);
  }
  return `${lines.join('\n')}\n`;
}
