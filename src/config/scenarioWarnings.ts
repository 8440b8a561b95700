/**
 * Lint-style warnings about a valid scenario: settings that load and run but cannot exercise
 * what they ask for. A warning never stops a run; the command line prints each as one
 * `warning:` line on stderr before it checks.
 */
import type { Scenario } from '../../machines/scenario.ts';

/**
 * What is suspect in `scenario`, one sentence per warning, each naming the scenario; empty when
 * nothing is. Today one check: when some request names a `prefix` and every such prefix is
 * shorter than one page (`prefix.len < pageSize`), the prefix cache can never hold anything,
 * because it inserts whole pages only (`machines/prefixCache.ts`), so no request can reuse a
 * cached prefix. Pure: it reads the scenario and nothing else.
 */
export function scenarioWarnings(scenario: Scenario): string[] {
  const prefixed = scenario.requests.flatMap((r) => (r.prefix ? [{ id: r.id, ...r.prefix }] : []));
  if (prefixed.length === 0 || prefixed.some((p) => p.len >= scenario.pageSize)) return [];
  const lengths = prefixed.map((p) => `${p.id} has prefix.len ${p.len}`).join(', ');
  const cacheable = `the prefix cache keeps whole pages only (pageSize ${scenario.pageSize})`;
  return [`scenario ${scenario.name}: no prefix can ever be cached: ${lengths}; ${cacheable}`];
}
