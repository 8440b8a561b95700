/**
 * The `kvcheck` command line: option declarations only. Each command's handler is a stage in
 * `commands.ts`; errors from bad input become one `error: …` line and exit code 2. Every
 * command's `--help` ends with its exit codes (`exitCodes.ts`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Help, Option } from 'commander';
import { ConfigError } from '../config/loadScenario.ts';
import { didYouMean } from '../didYouMean.ts';
import { UnknownStateError } from '../paths/index.ts';
import { runCatalogueCommand } from './catalogueCommand.ts';
import {
  withBoundOptions,
  withEngineOption,
  withPorOption,
  withSearchOptions,
  withWorkersOption,
} from './checkArgs.ts';
import { runAll, runCheck, runList, runPaths } from './commands.ts';
import { runDeploymentReport, runLint } from './deploymentCommands.ts';
import { runDiagram } from './diagramCommand.ts';
import { commandNames, exitCode, exitCodeHelp } from './exitCodes.ts';
import { runLiveness } from './livenessCommand.ts';
import { runReplay } from './replayCommand.ts';
import { defaultReportDir, runReport } from './reportCommand.ts';
import type { Io } from './resolve.ts';
import { runSimulate } from './simulateCommand.ts';
import { runStateSpace } from './stateSpaceCommand.ts';
import { colourEnabled } from './style.ts';
import { oneOf, UsageError } from './usageError.ts';

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * Declares which scenarios × variants a command runs on `command` (`SelectionArgs`: repeatable
 * `--scenario`, `--config` and `--variant`); returns it for chaining.
 */
function withSelectionOptions(command: Command): Command {
  return command
    .option('--scenario <name>', 'built-in scenario (repeatable; default: all)', collect, [])
    .option('--config <file>', 'scenario file, YAML or JSON (repeatable)', collect, [])
    .option('--variant <name>', 'engine variant (repeatable; default: all)', collect, []);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/**
 * The version a report's footer names: the package version and, when kvcheck runs from its own
 * git checkout, the commit (`0.3.0, commit 7cdc551abcde`), so that a report says what made it.
 */
function reportVersion(): string {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (!existsSync(`${root}.git`)) return version();
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return commit ? `${version()}, commit ${commit}` : version();
  } catch {
    return version();
  }
}

/** Milliseconds between progress lines when stderr is not a terminal (a CI log). */
const logEvery = 60_000;

/**
 * Progress for a log, not a terminal: of the status lines `progress` is given, writes one whole
 * line with `write` once `every` ms have passed since the start or the last one written, and
 * drops the rest and the empty texts that clear a terminal's line. A run shorter than `every`
 * writes nothing. `now` gives the time in ms.
 */
export function loggedProgress(
  write: (text: string) => void,
  every: number = logEvery,
  now: () => number = Date.now,
): (line: string) => void {
  let next = now() + every;
  return (line) => {
    if (line === '') return;
    const t = now();
    if (t < next) return;
    next = t + every;
    write(`${line}\n`);
  };
}

/**
 * Standard output and error of this process, coloured when stdout is a TTY. Progress redraws
 * one line on a terminal's stderr, and otherwise writes a line a minute (`loggedProgress`).
 */
export function processIo(): Io {
  const io: Io = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    colour: colourEnabled(),
    onInterrupt: (handler) => {
      process.once('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
  const progress = process.stderr.isTTY
    ? (line: string) => process.stderr.write(`\r\x1b[2K${line}`)
    : loggedProgress((text) => process.stderr.write(text));
  return { ...io, progress };
}

function program(io: Io, setCode: (code: number) => void, argvText: string): Command {
  const cli = new Command('kvcheck')
    .description('Model checker for tenant isolation in disaggregated prefill/decode LLM serving')
    .version(version())
    .exitOverride()
    .showHelpAfterError(false)
    // Suggestions come from didYouMean, as for every other name.
    .showSuggestionAfterError(false)
    .configureOutput({ writeOut: io.out, writeErr: () => {}, outputError: () => {} })
    // Each default shows once: not after a description that states it, and not at all for a
    // flag that is off or a repeatable option that is empty unless given.
    .configureHelp({
      optionDescription: (o) => {
        const d: unknown = o.defaultValue;
        const unset = d === false || (Array.isArray(d) && d.length === 0);
        return unset || o.description.includes('default:')
          ? o.description
          : new Help().optionDescription(o);
      },
    })
    // Commander's own help command would take a typo for a command; ours refuses it (`help`).
    .helpCommand(false);
  withWorkersOption(
    withPorOption(
      withSearchOptions(
        withSelectionOptions(
          cli
            .command('check')
            .description(
              'explore every reachable state of scenarios × variants and check the properties',
            ),
        )
          .option('--invariant <name>', 'property to check (repeatable; default: all)', collect, [])
          .option('--json', 'print the Outcome as JSON', false)
          .option('--out-trace <file>', 'write every counterexample as JSON to file')
          .option('--out-itf <dir>', 'write each counterexample as an ITF trace into dir'),
      ),
    ),
  )
    .option('--deployment <file>', 'deployment file: check its abstract scenarios (see lint)')
    .option(
      '--por-check',
      'first self-check the partial-order reduction on each scenario × variant: record every step and exit 1 if one breaks its footprint (implies --por on)',
    )
    .option(
      '--reads-check',
      'first self-check what the properties declare they read on each scenario × variant: record every read on every state and exit 1 if one is not declared',
    )
    .addHelpText(
      'after',
      '\nCtrl-C stops the fast engine with what it explored (verdict incomplete, exit 3); a second\nCtrl-C ends the process.',
    )
    .action(async (opts) => setCode(await runCheck(opts, io)));
  cli
    .command('lint')
    .description(
      'compute a deployment’s KV pool capacities and lint them against its context window',
    )
    .argument('<file>', 'deployment file, YAML or JSON')
    .option('--json', 'print the lint report as JSON', false)
    .action((file: string, opts) => setCode(runLint(file, opts, io)));
  cli
    .command('paths')
    .description('list statechart paths from a rejected state to a decoding state, per variant')
    .option('--variant <name>', 'engine variant (repeatable; default: all)', collect, [])
    .option(
      '--from <state>',
      'start state, region.path (repeatable; default: rejected states)',
      collect,
      [],
    )
    .option(
      '--to <state>',
      'end state, region.path (repeatable; default: decoding states)',
      collect,
      [],
    )
    .option('--json', 'print the paths as JSON', false)
    .action((opts) => setCode(runPaths(opts, io)));
  withWorkersOption(
    withSearchOptions(
      cli
        .command('all')
        .description(
          'check every built-in scenario × variant against the manifest; write the report',
        )
        .option('--out <dir>', 'where to write report.md and report.html', defaultReportDir),
    ),
  ).action(async (opts) => setCode(await runAll(io, opts, reportVersion())));
  withWorkersOption(
    withPorOption(
      withSearchOptions(
        withSelectionOptions(
          cli
            .command('report')
            .description('check scenarios × variants and write report.md and report.html'),
        ).option('--out <dir>', 'folder for report.md and report.html', defaultReportDir),
      ),
    ),
  )
    .option(
      '--deployment <file>',
      'deployment file: report on its abstract scenarios, with a deployment section',
    )
    .action(async (opts) => {
      const command = `kvcheck ${argvText}`;
      setCode(
        opts.deployment === undefined
          ? await runReport(opts, io, command, reportVersion())
          : await runDeploymentReport(opts, io, command, reportVersion()),
      );
    });
  cli
    .command('diagram')
    .description('draw the statecharts as Mermaid, DOT or SVG')
    .option(
      '--machine <name>',
      'request, prefill, decode, transfer, router, page (repeatable; default: request)',
      collect,
      [],
    )
    .option('--all', 'draw every chart', false)
    .option('--format <format>', 'mermaid, dot or svg', 'mermaid')
    .option('--variant <name>', 'draw as a variant wires it (repeatable)', collect, [])
    .option('--diff <variant>', 'give twice: edges only one of two variants can take', collect, [])
    .option('--hide-disabled', 'leave edges the variant disables out', false)
    .option(
      '--fault-edges',
      'also draw the bug catalogue’s fault-only edges (default: only those of a fault the variant turns on)',
      false,
    )
    .option('--out <dir>', 'write one file per drawing into dir')
    .action(async (opts) => setCode(await runDiagram(opts, io)));
  withEngineOption(
    withBoundOptions(
      cli
        .command('state-space')
        .description('draw the reachable state graph of one scenario under one variant')
        .option(
          '--scenario <name>',
          'built-in scenario (exactly one of --scenario/--config)',
          collect,
          [],
        )
        .option('--config <file>', 'scenario file, YAML or JSON', collect, [])
        .option('--variant <name>', 'engine variant (exactly one)', collect, [])
        .option(
          '--invariant <name>',
          'properties whose violating states are red (repeatable)',
          collect,
          [],
        )
        .option('--project <rid>', 'draw only this request’s lifecycle')
        .option('--format <format>', 'dot or svg', 'dot')
        .option('--out <dir>', 'write the drawing into dir instead of stdout')
        .option('--max-nodes <n>', 'refuse larger graphs (default 300)'),
    ),
  ).action(async (opts) => setCode(await runStateSpace(opts, io)));
  withEngineOption(
    cli
      .command('catalogue')
      .description('check each catalogued upstream fault (fixed plus one fault switch) and fixed')
      .option('--json', 'print the catalogue report as JSON', false),
  ).action((opts) => setCode(runCatalogueCommand(opts, io)));
  withSelectionOptions(
    cli
      .command('simulate')
      .description('random walks checking every property on every step; a failure is shrunk'),
  )
    .option('--invariant <name>', 'property to check (repeatable; default: all)', collect, [])
    .option('--runs <n>', 'random walks per scenario × variant (default 1000)')
    .option('--depth <d>', 'steps after which a walk stops (default 1000)')
    .option('--seed <s>', 'seed, 0 to 4294967295 (default: random, printed); replays exactly')
    .option('--json', 'print the Outcome as JSON', false)
    .action((opts) => setCode(runSimulate(opts, io)));
  withSelectionOptions(
    cli
      .command('liveness')
      .description(
        'leads-to properties under weak fairness per request region; a violation is a lasso',
      ),
  )
    .option('--max-states <n>', 'stop a search after n states (the result is incomplete)')
    .option('--json', 'print the verdicts and lassos as JSON', false)
    .option('--out-itf <dir>', 'write each lasso as an ITF trace, with its loop, into dir')
    .action((opts) => setCode(runLiveness(opts, io)));
  cli
    .command('replay')
    .description(
      'replay counterexamples under other variants: where each is blocked, and by which guard',
    )
    .argument(
      '<file>',
      'trace file: the JSON of check --out-trace or of check --json, or an ITF trace of check --out-itf',
    )
    .option('--variant <name>', 'variant to replay under (repeatable; default: all)', collect, [])
    .option(
      '--property <name>',
      "replay only this property's trace (repeatable; default: every one)",
      collect,
      [],
    )
    .option('--config <file>', 'the scenario file the traces were found on, if not built in')
    .option('--json', 'print the replays as JSON', false)
    .action((file: string, opts) => setCode(runReplay(file, opts, io)));
  cli
    .command('list')
    .description('list built-in scenarios, variants, properties and witnesses')
    .addOption(new Option('--json', 'print as JSON').default(false))
    .action((opts) => setCode(runList(opts, io)));
  cli
    .command('help')
    .description('show the help of kvcheck, or of one command (as COMMAND --help does)')
    .argument('[command]', 'the command')
    .action((name: string | undefined) => {
      if (name === undefined) {
        io.out(cli.helpInformation());
      } else {
        oneOf('command', name, commandNames);
        cli.commands.find((c) => c.name() === name)?.outputHelp();
      }
      setCode(exitCode.ok);
    });
  for (const command of cli.commands) {
    const name = commandNames.find((n) => n === command.name());
    if (name !== undefined) command.addHelpText('after', exitCodeHelp(name));
  }
  return cli;
}

function oneLine(text: string): string {
  return text
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** What a mistyped command or option could have been, for the one-line error. */
function acceptedHint(
  cli: Command,
  code: string,
  message: string,
  argv: readonly string[],
): string {
  const word = /'([^']*)'/.exec(message)?.[1] ?? '';
  if (code === 'commander.unknownCommand') {
    return `; ${didYouMean(
      word,
      cli.commands.map((c) => c.name()),
      'accepted commands',
    )}`;
  }
  if (code !== 'commander.unknownOption') return '';
  const command = cli.commands.find((c) => c.name() === argv[0]);
  const options = (command ?? cli).options.flatMap((o) => (o.long ? [o.long] : []));
  return `; ${didYouMean(word, [...options, '--help'])}`;
}

/** Runs kvcheck with `argv` (without the node and script paths); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let code: number = exitCode.ok;
  const cli = program(
    io,
    (c) => {
      code = c;
    },
    argv.join(' '),
  );
  if (argv.length === 0) {
    io.err(`${cli.helpInformation()}`);
    return exitCode.usage;
  }
  try {
    await cli.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') {
        return exitCode.ok;
      }
      if (e.code === 'commander.help') return exitCode.ok;
      io.err(`error: ${oneLine(e.message)}${acceptedHint(cli, e.code, e.message, argv)}\n`);
      return exitCode.usage;
    }
    if (e instanceof UsageError || e instanceof ConfigError || e instanceof UnknownStateError) {
      io.err(`error: ${oneLine(e.message)}\n`);
      return exitCode.usage;
    }
    throw e;
  }
}
