/**
 * `kvcheck replay FILE`: replays the counterexamples of a trace file (`check --out-trace`, the
 * Outcome of `check --json`, or one ITF trace of `check --out-itf`) under other variants (`src/replay/replay.ts`) and says, for
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

/** The parts of an ITF counterexample (`check --out-itf`) that replay reads. */
const itfSchema = z.object({
  '#meta': z.object({
    format: z.literal('ITF'),
    scenario: z.string(),
    variant: z.string(),
    property: z.string(),
  }),
  states: z.array(
    z.object({
      event: z.string(),
      regions: z.object({
        '#map': z.array(z.tuple([z.string(), z.record(z.string(), z.string())])),
      }),
    }),
  ),
  loop: z.number().optional(),
});

/** A counterexample read from a trace file. */
interface FoundTrace {
  readonly scenario: string;
  readonly variant: string;
  readonly property: string;
  readonly steps: z.infer<typeof stepSchema>[];
}

/** Whether `data` says it is an ITF trace (`#meta.format` is `ITF`). */
function looksLikeItf(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || !('#meta' in data)) return false;
  const meta = data['#meta'];
  return typeof meta === 'object' && meta !== null && 'format' in meta && meta.format === 'ITF';
}

/**
 * The steps of an ITF counterexample: each state after the initial one, its `event` split into
 * the event type and the request (`PREFILL_INTAKE b1`) and its `regions` map as a snapshot.
 */
function itfSteps(itf: z.infer<typeof itfSchema>, file: string): FoundTrace['steps'] {
  return itf.states.slice(1).map((s, i) => {
    const [event = '', rid = '', ...rest] = s.event.split(' ');
    if (rest.length > 0 || rid === '') {
      throw new UsageError(`${file}: state ${i + 1}: event "${s.event}" is not "EVENT rid"`);
    }
    return { event, rid, regions: Object.fromEntries(s.regions['#map']) };
  });
}

/** The one counterexample of the ITF trace `data`; a UsageError for a lasso or a malformed one. */
function itfTraceIn(data: unknown, file: string): FoundTrace[] {
  const itf = itfSchema.safeParse(data);
  if (!itf.success) {
    const issue = itf.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new UsageError(`${file}: not a kvcheck ITF counterexample${where}`);
  }
  if (itf.data.loop !== undefined) {
    throw new UsageError(
      `${file}: an ITF lasso (liveness) has no last bad state to replay; replay takes counterexamples of check`,
    );
  }
  const { scenario, variant, property } = itf.data['#meta'];
  return [{ scenario, variant, property, steps: itfSteps(itf.data, file) }];
}

/** The traces in the data of `file`; a UsageError when it is no kind of trace file. */
function tracesIn(data: unknown, file: string): FoundTrace[] {
  if (looksLikeItf(data)) return itfTraceIn(data, file);
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
    `${file}: not a kvcheck trace file${where}; expected the JSON of check --out-trace or check --json, or an ITF trace of check --out-itf`,
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
    loadDataFile(file, 'a trace file of check --out-trace or check --json, or an ITF trace', {
      max: 12,
      deepest:
        'results[].properties[].trace.steps[].regions.<rid>, or an ITF state’s requests.#map[][].reads.#set[].#tup[].#bigint',
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
