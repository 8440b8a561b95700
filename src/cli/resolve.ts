/**
 * What every command shares: where it writes, and how the names and files a user
 * gives become scenarios and variants (each refused with a UsageError naming what is accepted).
 */
import type { Scenario } from '../../machines/scenario.ts';
import { findVariant, type Variant, variantNames, variants } from '../../machines/variants.ts';
import { findScenario, largeScenarios, scenarioNames, scenarios } from '../../scenarios/index.ts';
import {
  catalogueScenarios,
  catalogueVariantNames,
  findCatalogueVariant,
} from '../catalogue/index.ts';
import { loadScenarioFile } from '../config/loadScenario.ts';
import { scenarioWarnings } from '../config/scenarioWarnings.ts';
import { oneOf, UsageError } from './usageError.ts';

/** Where a command writes. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly colour: boolean;
  /**
   * Shows a status line: on a terminal, redraws it (an empty text clears it); in a log, writes
   * one now and then. Absent: no progress is shown.
   */
  readonly progress?: (line: string) => void;
  /**
   * Calls `handler` on the first interrupt (Ctrl-C) until the returned function is called; a
   * second interrupt ends the process as usual. Absent: interrupts are not caught.
   */
  readonly onInterrupt?: (handler: () => void) => () => void;
}

/**
 * `text` as one POSIX shell word, for reproduce lines: as it is when it holds only characters
 * no shell treats specially, otherwise single-quoted (a `'` inside becomes `'\''`).
 */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Names in first-appearance order, each once: `--variant fixed --variant fixed` checks once. */
export function distinct(names: readonly string[]): string[] {
  return [...new Set(names)];
}

/** The options that choose scenarios and variants, shared by `check`, `report`, `simulate` and `state-space`. */
export interface SelectionArgs {
  /** Built-in scenario names (`--scenario`, repeatable). */
  readonly scenario: readonly string[];
  /** Scenario files (`--config`, repeatable). */
  readonly config: readonly string[];
  /** Variant names (`--variant`, repeatable; none: every built-in variant). */
  readonly variant: readonly string[];
}

/**
 * Built-in scenarios named by `--scenario` plus files named by `--config`; all built-ins if none.
 * Each chosen scenario's lint-style warnings (`scenarioWarnings`) go to `warn`, one
 * `warning: …` line each (a file's warning names the file); they never stop the run.
 */
export function resolveScenarios(
  args: Pick<SelectionArgs, 'scenario' | 'config'>,
  warn: (text: string) => void,
): {
  scenarios: Scenario[];
  reproduce: Map<string, string>;
} {
  const reproduce = new Map<string, string>();
  const chosen: Scenario[] = [];
  const files = new Map<string, string>();
  for (const name of distinct(args.scenario)) {
    const s = findAnyScenario(oneOf('scenario', name, acceptedScenarioNames()));
    if (s) chosen.push(s);
  }
  for (const file of args.config) {
    const s = loadScenarioFile(file);
    if (chosen.some((c) => c.name === s.name)) {
      throw new UsageError(
        `${file}: scenario name "${s.name}" is already used by another scenario`,
      );
    }
    chosen.push(s);
    files.set(s.name, file);
    reproduce.set(s.name, `--config ${shellWord(file)}`);
  }
  if (args.scenario.length === 0 && args.config.length === 0) chosen.push(...scenarios);
  for (const s of chosen) {
    const file = files.get(s.name);
    for (const w of scenarioWarnings(s)) warn(`warning: ${file ? `${file}: ` : ''}${w}\n`);
  }
  return { scenarios: chosen, reproduce };
}

/** Names `--variant` accepts: the built-in variants, then the bug catalogue's. */
export function acceptedVariantNames(): string[] {
  return [...variantNames, ...catalogueVariantNames];
}

/** The built-in or catalogue variant called `name`, or undefined. */
export function findAnyVariant(name: string): Variant | undefined {
  return findVariant(name) ?? findCatalogueVariant(name);
}

/** Names `--scenario` accepts: the built-in scenarios, the large ones, then the bug catalogue's own. */
export function acceptedScenarioNames(): string[] {
  return distinct([
    ...scenarioNames,
    ...largeScenarios.map((s) => s.name),
    ...catalogueScenarios.map((s) => s.name),
  ]);
}

/** The built-in or catalogue scenario called `name`, or undefined. */
export function findAnyScenario(name: string): Scenario | undefined {
  return findScenario(name) ?? catalogueScenarios.find((s) => s.name === name);
}

/** Variants named by `--variant` (built-in or catalogue); all built-ins if none. */
export function resolveVariants(names: readonly string[]): Variant[] {
  if (names.length === 0) return [...variants];
  return distinct(names).map(
    (n) => findAnyVariant(oneOf('variant', n, acceptedVariantNames())) as Variant,
  );
}
