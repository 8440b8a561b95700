/**
 * The search options `check`, `report` and `all` share: declared once (so their `--help`
 * documents the same bounds with the same defaults) and parsed once into `CheckOptions`.
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import {
  autoWorkers,
  type CheckOptions,
  type EngineName,
  engineNames,
  type LimitedOption,
  type OptionConflict,
  optionConflicts,
  referenceEngineLacks,
  type SearchOrder,
  searchOrders,
  withCheckDefaults,
} from '../checker/checkOptions.ts';
import { oneOf, positiveSeconds, UsageError, wholeNumber } from './usageError.ts';

/** The search options as parsed from the command line. */
export interface SearchArgs {
  readonly maxStates?: string;
  readonly maxSeconds?: string;
  /** MiB of V8 heap in use and array buffers allocated (fast engine). */
  readonly maxMemory?: string;
  /** `fast` (default) or `graph`. */
  readonly engine?: string;
  /** `on` or `off` (default); bare: `on`. */
  readonly symmetry?: string | boolean;
  /** `on` or `off` (default); bare: `on`. */
  readonly exact?: string | boolean;
  /** `on` or `off` (default); bare: `on`. */
  readonly por?: string | boolean;
  /** `breadth` (default) or `depth` (fast engine). */
  readonly search?: string;
}

/** Declares `--workers` on `command` (`check`); returns it for chaining. `workersFrom` parses it. */
export function withWorkersOption(command: Command): Command {
  return command.option(
    '--workers <n|auto>',
    `fast engine, breadth first, fingerprints: expand large levels on n threads; same result. auto: the machine's cores (at most ${autoWorkers.most}) once a search has stored ${autoWorkers.start.toLocaleString('en-US')} states, one thread before and for searches that need one (default: auto)`,
  );
}

/** `--workers N`: the most threads it takes (each builds the machine and caches of its own). */
export const workersMost = 64;

/** The threads of a check and when they start (`CheckOptions.workers` and `workerLevels`). */
export type WorkersChoice = Pick<CheckOptions, 'workers' | 'workerLevels'>;

/**
 * The worker threads `--workers` asks for, checked against the other search options: a whole
 * number from 1 to `workersMost`, above 1 only for the fast engine's breadth-first fingerprint
 * search, or
 * `auto` (the default, `text` undefined): `cores` threads (the machine's, at most
 * `autoWorkers.most`) starting once the search has stored `autoWorkers.start` states, or one
 * thread where the other options need one or there is one core. Throws `UsageError` (exit 2)
 * otherwise.
 */
export function workersFrom(
  text: string | undefined,
  search: CheckOptions,
  cores: number = availableParallelism(),
): WorkersChoice {
  if (text === undefined || text.trim() === 'auto') {
    const count = Math.min(cores, autoWorkers.most);
    const conflict = conflictOf({ ...search, workers: 2 }, 'workers');
    if (count < 2 || conflict) return { workers: 1 };
    return { workers: count, workerLevels: { start: autoWorkers.start } };
  }
  const workers = wholeNumber('--workers', text, 1, { max: workersMost, or: 'auto' });
  const conflict = conflictOf({ ...search, workers }, 'workers');
  if (conflict) {
    throw new UsageError(
      `--workers ${workers} needs the fast engine's breadth-first fingerprint search; not with ${conflict.map(flagOf).join(', ')}`,
    );
  }
  return { workers };
}

/** How the command line names each option that does not combine with every other. */
const flags: Readonly<Record<LimitedOption, string>> = {
  engine: '--engine graph',
  symmetry: '--symmetry on',
  exact: '--exact',
  order: '--search depth',
  por: '--por on',
  maxMemory: '--max-memory',
  machine: 'a machine of your own',
};

/** The flag that sets `option` (`flags`). */
const flagOf = (option: LimitedOption): string => flags[option];

/** The options of `options` that break `rule` (`optionConflicts`), or undefined. */
function conflictOf(
  options: CheckOptions,
  rule: OptionConflict['rule'],
): readonly LimitedOption[] | undefined {
  return optionConflicts(withCheckDefaults(options)).find((c) => c.rule === rule)?.options;
}

/** `a`, `a and b`, `a, b and c`. */
function andList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Declares the bounds every exploring command takes, `--max-states` and `--max-seconds`, on
 * `command`; returns it for chaining. `searchOptionsFrom` parses them.
 */
export function withBoundOptions(command: Command): Command {
  return command
    .option('--max-states <n>', 'stop after n distinct states: verdict incomplete (default: none)')
    .option('--max-seconds <s>', 'stop after s seconds: verdict incomplete (default: none)');
}

/** Declares `--engine` on `command`; returns it for chaining. `searchOptionsFrom` parses it. */
export function withEngineOption(command: Command): Command {
  return command.option(
    '--engine <name>',
    'fast, or graph (the xstate/graph reference) (default: fast)',
  );
}

/** Declares the shared search options on `command`; returns it for chaining. */
export function withSearchOptions(command: Command): Command {
  return withBoundOptions(withEngineOption(command))
    .option(
      '--max-memory <MiB>',
      'fast engine: stop once the V8 heap in use and the array buffers exceed MiB: verdict incomplete (default: none)',
    )
    .option(
      '--symmetry [on|off]',
      'fast engine: explore one of each set of interchangeable requests (bare: on; default: off)',
    )
    .option(
      '--exact [on|off]',
      'fast engine: store full state keys instead of 64-bit fingerprints (bare: on; default: off)',
    )
    .option(
      '--search <breadth|depth>',
      'fast engine: breadth first, or depth first, which holds a path, not a level (default: breadth)',
    );
}

/**
 * Declares `--por` on `command` (`check`, `report`; not `all`, whose state counts are compared
 * with the manifest's unreduced ones); returns it for chaining. `searchOptionsFrom` parses it.
 */
export function withPorOption(command: Command): Command {
  return command.option(
    '--por [on|off]',
    'fast engine: partial-order reduction; same verdicts and shortest traces, fewer states (bare: on; default: off)',
  );
}

/** An `[on|off]` switch as parsed: given bare (true), `on`, `off`, or absent (off). */
function onOff(flag: string, value: string | boolean | undefined): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  return oneOf(`${flag} value`, value, ['on', 'off']) === 'on';
}

/**
 * The `CheckOptions` the search options ask for, without requirements or properties. Throws
 * `UsageError` (exit 2) for a bad value and for a fast-engine option given with `--engine graph`.
 */
export function searchOptionsFrom(args: SearchArgs): CheckOptions {
  const engine = oneOf('engine', args.engine ?? 'fast', engineNames) as EngineName;
  const symmetry = onOff('--symmetry', args.symmetry);
  const exact = onOff('--exact', args.exact);
  const por = onOff('--por', args.por);
  const order = oneOf('--search value', args.search ?? 'breadth', searchOrders) as SearchOrder;
  const maxStates =
    args.maxStates === undefined ? undefined : wholeNumber('--max-states', args.maxStates, 1);
  const maxSeconds =
    args.maxSeconds === undefined ? undefined : positiveSeconds('--max-seconds', args.maxSeconds);
  const maxMemory =
    args.maxMemory === undefined ? undefined : wholeNumber('--max-memory', args.maxMemory, 1);
  const options: CheckOptions = {
    engine,
    symmetry,
    exact,
    por,
    order,
    ...(maxStates !== undefined ? { maxStates } : {}),
    ...(maxSeconds !== undefined ? { maxSeconds } : {}),
    ...(maxMemory !== undefined ? { maxMemory } : {}),
  };
  const fastOnly = conflictOf(options, 'graph');
  if (fastOnly) {
    const lacks = [...new Set(fastOnly.map((o) => referenceEngineLacks[o]))];
    throw new UsageError(
      `${andList(fastOnly.map(flagOf))} ${fastOnly.length > 1 ? 'need' : 'needs'} --engine fast; the reference engine ${andList(lacks.filter((x): x is string => x !== undefined))}`,
    );
  }
  return options;
}
