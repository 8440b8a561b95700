/**
 * The manifest is a regression net, as TLA+ Examples pin theirs: every row but a measured one is
 * explored here to the end, with the fast engine in the row's search mode, and must give the
 * pinned verdict, violated properties (each with a trace), state space and required witnesses.
 * The reference engine is held to the same counts by the fast-versus-graph agreement tests. The
 * rows themselves must cover the built-in scenarios × variants once each and express the
 * catalogue's rule: each fault caught by one of its expected properties, `fixed` passing.
 */
import { propertyNames } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { findVariant, type Variant, variants } from '../../machines/variants.ts';
import { findScenario, scenarios } from '../../scenarios/index.ts';
import {
  builtinRows,
  expectationFor,
  type ManifestRow,
  manifest,
  measuredRows,
} from '../../scenarios/manifest.ts';
import {
  catalogue,
  findCatalogueScenario,
  findCatalogueVariant,
} from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { count } from '../../src/numbers.ts';
import { doc } from '../docs/readmeText.ts';

function scenarioOf(row: ManifestRow): Scenario {
  const scenario = findScenario(row.scenario) ?? findCatalogueScenario(row.scenario);
  if (!scenario) throw new Error(`no scenario ${row.scenario}`);
  return scenario;
}

function variantOf(row: ManifestRow): Variant {
  const variant = findVariant(row.variant) ?? findCatalogueVariant(row.variant);
  if (!variant) throw new Error(`no variant ${row.variant}`);
  return variant;
}

function pairOf(row: ManifestRow): string {
  return `${row.scenario}/${row.variant}`;
}

describe('the manifest', () => {
  it('covers every built-in scenario under every built-in variant', () => {
    const pairs = builtinRows.map(pairOf).sort();
    const expected = scenarios.flatMap((s) => variants.map((v) => `${s.name}/${v.name}`)).sort();
    expect(pairs).toEqual(expected);
  });

  it('has one row per scenario × variant, each naming a scenario and variant kvcheck has', () => {
    expect(new Set(manifest.map(pairOf)).size).toBe(manifest.length);
    for (const row of manifest) {
      expect(scenarioOf(row).name).toBe(row.scenario);
      expect(variantOf(row).name).toBe(row.variant);
    }
  });

  it('lists violated properties in registry order, and a violation exactly when it lists some', () => {
    for (const row of manifest) {
      const inOrder = propertyNames.filter((p) => row.violated.includes(p));
      expect(row.violated, pairOf(row)).toEqual(inOrder);
      expect(row.status === 'violation', pairOf(row)).toBe(row.violated.length > 0);
    }
  });

  it('counts unreduced states exactly on the rows explored with symmetry', () => {
    for (const row of manifest) {
      expect(row.unreducedStates !== undefined, pairOf(row)).toBe(row.symmetry === true);
    }
  });

  it.each(catalogue.map((e) => [e.id, e] as const))(
    'has %s caught by one of its expected properties, and fixed passing on its scenario',
    (_, entry) => {
      const fault = expectationFor(entry.scenario.name, entry.variant.name);
      const fixed = expectationFor(entry.scenario.name, 'fixed');
      expect(fault?.status).toBe('violation');
      const catchers = fault?.caughtByOneOf ?? [];
      expect(catchers.length).toBeGreaterThan(0);
      for (const p of catchers) expect(propertyNames).toContain(p);
      expect(catchers.some((p) => fault?.violated.includes(p))).toBe(true);
      expect(fixed).toMatchObject({ status: 'ok', violated: [] });
      expect(fixed?.caughtByOneOf).toBeUndefined();
    },
  );

  it('records incident-large’s exhaustive run as measured, with the figures of docs/performance.md', () => {
    expect(measuredRows.map(pairOf)).toEqual(['incident-large/fixed']);
    const [row] = measuredRows;
    if (!row?.measured) throw new Error('no measured row');
    expect(row).toMatchObject({ status: 'ok', violated: [], symmetry: true });
    expect(row.measured.command).toContain('--workers 2');
    const figures = [
      row.measured.command,
      `after ${count(row.measured.seconds)} seconds`,
      `${count(row.states)} representatives standing for ${count(row.unreducedStates ?? 0)} states`,
      `${count(row.transitions)} transitions, depth ${row.depth}`,
      `explored the model of commit ${row.measured.model}`,
    ];
    // A boolean per figure: a failure names the figure instead of printing the whole page.
    for (const figure of figures) expect(doc('performance.md').includes(figure), figure).toBe(true);
  });
});

const rerun = manifest.filter((row) => row.measured === undefined);

describe.each(rerun)('$scenario under $variant', (row) => {
  let result: ScenarioResult;
  beforeAll(() => {
    const scenario = scenarioOf(row);
    result = check(scenario, variantOf(row), {
      engine: 'fast',
      symmetry: row.symmetry ?? false,
      order: row.search ?? 'breadth',
      por: row.por ?? false,
      requiredWitnesses: scenario.witnesses,
    });
  });

  it(`is ${row.status} with the pinned state space`, () => {
    expect(result.status).toBe(row.status);
    expect(result.stats).toMatchObject({
      states: row.states,
      transitions: row.transitions,
      depth: row.depth,
    });
    expect(result.stats.unreducedStates).toBe(row.unreducedStates);
  });

  it('violates exactly the expected properties, each with a trace', () => {
    const violated = result.properties.filter((p) => p.status === 'violated');
    expect(violated.map((p) => p.name)).toEqual(row.violated);
    for (const p of violated) expect(p.trace?.steps.length).toBeGreaterThan(0);
    for (const p of result.properties.filter((q) => q.status !== 'violated')) {
      expect(p.status).toBe('holds');
    }
  });

  it('reaches every witness the scenario requires', () => {
    const missing = result.witnesses.filter((w) => w.required && !w.reached).map((w) => w.name);
    expect(missing).toEqual([]);
  });
});
