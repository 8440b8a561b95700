/**
 * Terminal text for Outcomes: the verdict table, one block per violation (statement, what went
 * wrong, a numbered step table, a reproduce line) and witness lines. Pure: Outcome in, text out.
 */
import type { Bound, PropertyResult, ScenarioResult, Trace } from '../checker/outcome.ts';
import type { Progress } from '../engine/index.ts';
import { changeText } from '../export/changeText.ts';
import { count, duration, plural } from '../numbers.ts';
import { paint } from './style.ts';

/** How to name a scenario on a reproduce line: `--scenario NAME` or `--config FILE`. */
export type ScenarioArgs = ReadonlyMap<string, string>;

/** Left-aligns text columns (right-aligns the ones listed in `numeric`), two spaces apart. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: readonly number[] = [],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function verdictLabel(colour: boolean, status: string): string {
  const format = status === 'ok' ? 'green' : status === 'violation' ? 'red' : 'yellow';
  return paint(colour, format, status);
}

/** The verdict table: one row per scenario × variant, with the violated properties. */
export function renderVerdictTable(
  results: readonly ScenarioResult[],
  colour: boolean,
  expected?: (r: ScenarioResult) => string,
): string {
  const header = ['scenario', 'variant', 'verdict', 'states', 'transitions', 'depth', 'time'];
  if (expected) header.push('expected');
  header.push('violated');
  const rows = results.map((r) => {
    const row = [
      r.scenario,
      r.variant,
      r.status,
      count(r.stats.states),
      count(r.stats.transitions),
      String(r.stats.depth),
      duration(r.stats.ms),
    ];
    if (expected) row.push(expected(r));
    row.push(
      r.properties
        .filter((p) => p.status === 'violated')
        .map((p) => p.name)
        .join(', ') || '-',
    );
    return row;
  });
  const text = table(header, rows, [3, 4, 5, 6]);
  if (!colour) return text;
  return text
    .split('\n')
    .map((line, i) => {
      const r = results[i - 1];
      return r ? line.replace(` ${r.status} `, ` ${verdictLabel(colour, r.status)} `) : line;
    })
    .join('\n');
}

/** The numbered step table of a counterexample. */
export function renderSteps(trace: Trace): string {
  const rows: string[][] = [];
  for (const s of trace.steps) {
    const changes = s.changes.length > 0 ? s.changes.map(changeText) : ['(nothing visible)'];
    changes.forEach((c, i) => {
      rows.push(i === 0 ? [String(s.step), s.actor, `${s.event} ${s.rid}`, c] : ['', '', '', c]);
    });
  }
  return table(['step', 'actor', 'event', 'what changed'], rows, [0]);
}

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

/** The command line that reproduces one property's verdict in one run. */
export function reproduceLine(r: ScenarioResult, property: string, args: ScenarioArgs): string {
  const scenario = args.get(r.scenario) ?? `--scenario ${r.scenario}`;
  return `npx kvcheck check ${scenario} --variant ${r.variant} --invariant ${property}`;
}

/**
 * One violated property: headline, statement, message, step table and reproduce line (the
 * `check` command line unless `reproduce` gives another).
 */
export function renderViolation(
  r: ScenarioResult,
  p: PropertyResult,
  args: ScenarioArgs,
  colour: boolean,
  reproduce: string = reproduceLine(r, p.name, args),
): string {
  const trace = p.trace;
  if (!trace) return '';
  const head = `${paint(colour, 'red', '[violation]')} ${paint(colour, 'bold', p.name)} in ${r.scenario} × ${r.variant}: ${trace.steps.length} steps`;
  const longer =
    trace.shortest === false
      ? [
          indent(
            'Not known to be shortest: a search that does not go level by level (depth first, or partial-order reduced) found it, and the breadth-first pass that shortens traces stopped at a bound.',
          ),
        ]
      : [];
  return [
    head,
    indent(p.statement),
    indent(`Violated: ${trace.message}`),
    ...longer,
    '',
    indent(renderSteps(trace)),
    '',
    indent(`Reproduce: ${reproduce}`),
  ].join('\n');
}

const boundFlags = {
  maxStates: 'max-states',
  maxSeconds: 'max-seconds',
  maxMemory: 'max-memory',
} as const;

function boundText(bound: Bound | undefined): string {
  if (bound === undefined) return 'bounded';
  if (bound.reason === 'interrupted') return `interrupted after ${duration(bound.limit * 1000)}`;
  return `stopped at --${boundFlags[bound.reason]} ${bound.limit}`;
}

/** The one-line summary of a run, quint style. */
export function renderSummaryLine(r: ScenarioResult, colour: boolean): string {
  const where = `${r.scenario} × ${r.variant}`;
  const unreduced =
    r.stats.unreducedStates === undefined
      ? ''
      : ` under symmetry, ${count(r.stats.unreducedStates)} without`;
  const por = r.engine?.por ? ', partial-order reduced' : '';
  const size = `${plural(r.stats.states, 'state')}${unreduced}${por}, ${duration(r.stats.ms)}`;
  if (r.status === 'ok')
    return `${paint(colour, 'green', '[ok]')} ${where}: no violation (${size})`;
  if (r.status === 'violation') {
    const names = r.properties.filter((p) => p.status === 'violated').map((p) => p.name);
    return `${paint(colour, 'red', '[violation]')} ${where}: ${names.join(', ')} (${size})`;
  }
  if (r.bound === undefined && (r.unreachedWitnesses?.length ?? 0) > 0) {
    const names = (r.unreachedWitnesses ?? []).join(', ');
    return `${paint(colour, 'yellow', '[incomplete]')} ${where}: no violation, but the required witness ${names} was never reached, so the pass is vacuous (${size})`;
  }
  const why = boundText(r.bound);
  // A breadth-first queue holds a whole level; depth first holds a path.
  const hint =
    r.bound?.reason === 'maxMemory' && r.engine?.search === 'breadth'
      ? '; --search depth needs far less memory'
      : '';
  return `${paint(colour, 'yellow', '[incomplete]')} ${where}: ${why}; nothing is proven (${size})${hint}`;
}

/** Witness lines: which situations were reached, required ones marked. */
export function renderWitnesses(r: ScenarioResult): string {
  const marks = r.witnesses.map(
    (w) => `${w.name} ${w.reached ? 'reached' : 'not reached'}${w.required ? ' (required)' : ''}`,
  );
  return `  witnesses: ${marks.join('; ')}`;
}

/** One line per property that holds only vacuously, with why; null when none does. */
export function renderVacuous(r: ScenarioResult, colour: boolean): string | null {
  const vacuous = r.properties.filter((p) => p.vacuous);
  if (vacuous.length === 0) return null;
  const label = paint(colour, 'yellow', 'holds (vacuous:');
  return vacuous.map((p) => `  ${p.name} ${label} ${p.vacuity ?? 'never triggered'})`).join('\n');
}

/**
 * The fast engine's line on how it stored states, as TLC reports it: in fingerprint mode, the
 * bytes per state and the estimated probability that two distinct states shared a 64-bit
 * fingerprint (so that one was never explored); with `--exact`, that keys were stored in full.
 * Null for the reference engine.
 */
export function renderStorage(r: ScenarioResult): string | null {
  const e = r.engine;
  if (e?.name !== 'fast') return null;
  const bytes = e.bytesPerState === undefined ? '' : `, ${e.bytesPerState} bytes/state`;
  if (e.exact) return `  states stored as full keys${bytes}: no fingerprint collision possible`;
  const p = e.collisionProbability ?? 0;
  const shown = p === 0 ? '0' : p.toExponential(1);
  return `  states stored as 64-bit fingerprints${bytes}; probability of a collision ${shown} (--exact stores full keys)`;
}

/**
 * The full human report of a set of results (the verdict table first unless `table: false`;
 * each fast-engine result's storage line unless `storage: false`).
 */
export function renderResults(
  results: readonly ScenarioResult[],
  args: ScenarioArgs,
  colour: boolean,
  options: { readonly table?: boolean; readonly storage?: boolean } = {},
): string {
  const parts = options.table === false ? [] : [renderVerdictTable(results, colour), ''];
  for (const r of results) {
    parts.push(renderSummaryLine(r, colour), renderWitnesses(r));
    const vacuous = renderVacuous(r, colour);
    if (vacuous !== null) parts.push(vacuous);
    const storage = options.storage === false ? null : renderStorage(r);
    if (storage !== null) parts.push(storage);
    for (const p of r.properties) {
      if (p.status === 'violated') parts.push('', renderViolation(r, p, args, colour));
    }
    parts.push('');
  }
  return parts.join('\n');
}

/**
 * One progress line of a running search (no line break): distinct states, states per second,
 * states queued for expansion, the V8 heap in use and the array buffers allocated, in whole MiB.
 */
export function renderProgress(p: Progress): string {
  const mib = (bytes: number) => count(Math.round(bytes / 2 ** 20));
  const rate = count(Math.round(p.statesPerSecond));
  const threads = p.threads > 1 ? `, ${p.threads} workers` : '';
  return `${count(p.states)} states, ${rate} states/s, queue ${count(p.queue)}, heap ${mib(p.heapBytes)} MiB, buffers ${mib(p.bufferBytes)} MiB${threads}`;
}
