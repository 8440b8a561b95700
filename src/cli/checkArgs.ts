/**
 * The search options `check`, `report` and `all` share: declared once (so their `--help`
 * documents the same bounds with the same defaults) and parsed once into `CheckOptions`.
 */
import type { Command } from 'commander';
import {
  type CheckOptions,
  type EngineName,
  engineNames,
  type SearchOrder,
  searchOrders,
} from '../checker/checkOptions.ts';
import { oneOf, positiveSeconds, UsageError, wholeNumber } from './usageError.ts';

/** The search options as parsed from the command line. */
export interface SearchArgs {
  readonly maxStates?: string;
  readonly maxSeconds?: string;
  /** MiB of V8 heap in use (fast engine). */
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
    '--workers <n>',
    'fast engine, breadth first, fingerprints: expand large levels on n threads; same result (default: 1)',
  );
}

/**
 * The worker threads `--workers` asks for, checked against the other search options: a whole
 * number of at least 1, and above 1 only for the fast engine's breadth-first fingerprint search.
 * Throws `UsageError` (exit 2) otherwise.
 */
export function workersFrom(text: string | undefined, search: CheckOptions): number {
  if (text === undefined) return 1;
  const workers = wholeNumber('--workers', text, 1);
  if (workers === 1) return workers;
  const oneThread = [
    search.engine === 'graph' && '--engine graph',
    search.exact && '--exact',
    search.order === 'depth' && '--search depth',
    search.por && '--por on',
  ].filter((x): x is string => typeof x === 'string');
  if (oneThread.length > 0) {
    throw new UsageError(
      `--workers ${workers} needs the fast engine's breadth-first fingerprint search; not with ${oneThread.join(', ')}`,
    );
  }
  return workers;
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
      'fast engine: stop once the V8 heap in use exceeds MiB: verdict incomplete (default: none)',
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
  if (engine === 'graph') {
    if (symmetry || exact) {
      throw new UsageError(
        '--symmetry on and --exact need --engine fast; the reference engine stores full snapshots',
      );
    }
    if (por) {
      throw new UsageError(
        '--por on needs --engine fast; the reference engine expands every state in full',
      );
    }
    if (order === 'depth') {
      throw new UsageError(
        '--search depth needs --engine fast; the reference engine is breadth first',
      );
    }
    if (maxMemory !== undefined) {
      throw new UsageError(
        '--max-memory needs --engine fast; the reference engine has no memory bound',
      );
    }
  }
  return {
    engine,
    symmetry,
    exact,
    por,
    order,
    ...(maxStates !== undefined ? { maxStates } : {}),
    ...(maxSeconds !== undefined ? { maxSeconds } : {}),
    ...(maxMemory !== undefined ? { maxMemory } : {}),
  };
}
