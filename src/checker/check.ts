/**
 * One entry point for both engines: `fast` (the default: `src/engine`, checked for agreement
 * with the reference on every built-in scenario) and `graph` (the reference: `xstate/graph`).
 * Both return the same `ScenarioResult`.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { checkScenarioFast, checkScenarioFastAsync, type FastCheckOptions } from './checkFast.ts';
import { checkScenario } from './checkScenario.ts';
import type { ScenarioResult } from './outcome.ts';

/** The exploration engines. */
export const engineNames = ['fast', 'graph'] as const;

/** An exploration engine's name. */
export type EngineName = (typeof engineNames)[number];

/** Options of `check`: the engine, and what it accepts. */
export interface EngineCheckOptions extends FastCheckOptions {
  /** @default 'fast' */
  readonly engine?: EngineName;
}

/**
 * Checks `scenario` under `variant` with the chosen engine. Symmetry reduction and fingerprint
 * storage are the fast engine's; the reference engine refuses neither but ignores both.
 */
export function check(
  scenario: Scenario,
  variant: Variant,
  options: EngineCheckOptions = {},
): ScenarioResult {
  const { engine = 'fast', ...rest } = options;
  return engine === 'fast'
    ? checkScenarioFast(scenario, variant, rest)
    : checkScenario(scenario, variant, rest);
}

/**
 * `check` for a caller that can wait: the fast engine runs in time slices
 * (`checkScenarioFastAsync`), so that aborting `options.signal` (on Ctrl-C, say) stops it with
 * what it explored; the reference engine runs to its end as `check` does, ignoring the signal.
 */
export async function checkAsync(
  scenario: Scenario,
  variant: Variant,
  options: EngineCheckOptions = {},
): Promise<ScenarioResult> {
  const { engine = 'fast', ...rest } = options;
  return engine === 'fast'
    ? checkScenarioFastAsync(scenario, variant, rest)
    : checkScenario(scenario, variant, rest);
}
