/**
 * Lint-style scenario warnings: a scenario whose every prefix is shorter than one page can
 * never cache a prefix, and says so; any prefix of a page or more, or none at all, is quiet.
 */
import { describe, expect, it } from 'vitest';
import type { RequestSpec, Scenario } from '../../machines/scenario.ts';
import { scenarios } from '../../scenarios/index.ts';
import { sharedPrefix } from '../../src/catalogue/entries/b8.ts';
import { catalogueScenarios } from '../../src/catalogue/index.ts';
import { scenarioWarnings } from '../../src/config/scenarioWarnings.ts';

const withPrefixes = (pageSize: number, lens: readonly (number | undefined)[]): Scenario => ({
  ...sharedPrefix,
  name: 'short-prefix',
  pageSize,
  requests: lens.map(
    (len, i): RequestSpec => ({
      id: `r${i}`,
      tenant: 'A',
      promptLen: 4,
      outputLen: 1,
      ...(len === undefined ? {} : { prefix: { group: 'sys', len } }),
    }),
  ),
});

describe('scenarioWarnings', () => {
  it('warns once, naming each request and the numbers, when every prefix is below pageSize', () => {
    const warnings = scenarioWarnings(withPrefixes(2, [1, undefined, 1]));
    expect(warnings).toEqual([
      'scenario short-prefix: no prefix can ever be cached: r0 has prefix.len 1, r2 has prefix.len 1; the prefix cache keeps whole pages only (pageSize 2)',
    ]);
  });

  it('is quiet when some prefix fills a page', () => {
    expect(scenarioWarnings(withPrefixes(2, [1, 2]))).toEqual([]);
    expect(scenarioWarnings(withPrefixes(1, [1, 1]))).toEqual([]);
  });

  it('is quiet without a prefix', () => {
    expect(scenarioWarnings(withPrefixes(4, [undefined, undefined]))).toEqual([]);
  });

  it('is quiet on every built-in and catalogue scenario', () => {
    for (const s of [...scenarios, ...catalogueScenarios]) expect(scenarioWarnings(s)).toEqual([]);
  });
});
