/**
 * The expected outcome of every built-in scenario under every built-in variant: the verdict,
 * the properties violated, and the size of the state space (distinct states, transitions,
 * depth), as TLA+ Examples' manifest.json records them. `kvcheck all` compares against it and
 * the exhaustive tests pin it: a change to a count is a change to the model, made on purpose.
 */

/** What one scenario × variant must produce. */
export interface Expectation {
  readonly scenario: string;
  readonly variant: string;
  /** The verdict of an exhaustive run: built-in scenarios are never bounded. */
  readonly status: 'ok' | 'violation';
  /** Violated properties, in registry order. */
  readonly violated: readonly string[];
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
}

const leak = [
  'rejectedNeverHandedOff',
  'noCrossTenantRead',
  'coverageBeforeCommit',
  'errorReachesClient',
];

/** Expectations for the built-in scenarios and variants. */
export const manifest: readonly Expectation[] = [
  {
    scenario: 'incident',
    variant: 'incident-2026',
    status: 'violation',
    violated: leak,
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'incident',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 126,
    transitions: 273,
    depth: 18,
  },
  {
    scenario: 'incident',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 126,
    transitions: 273,
    depth: 18,
  },
  {
    scenario: 'incident',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 747,
    transitions: 1323,
    depth: 22,
  },
  {
    scenario: 'incident',
    variant: 'coverage-only',
    status: 'violation',
    violated: ['rejectedNeverHandedOff'],
    states: 1098,
    transitions: 2069,
    depth: 24,
  },
  {
    scenario: 'pool-2x',
    variant: 'incident-2026',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'pool-2x',
    variant: 'coverage-only',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'band',
    variant: 'incident-2026',
    status: 'violation',
    violated: ['rejectedNeverHandedOff'],
    states: 1328,
    transitions: 2596,
    depth: 25,
  },
  {
    scenario: 'band',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 108,
    transitions: 234,
    depth: 17,
  },
  {
    scenario: 'band',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 108,
    transitions: 234,
    depth: 17,
  },
  {
    scenario: 'band',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 717,
    transitions: 1290,
    depth: 22,
  },
  {
    scenario: 'band',
    variant: 'coverage-only',
    status: 'violation',
    violated: ['rejectedNeverHandedOff'],
    states: 1328,
    transitions: 2596,
    depth: 25,
  },
  {
    scenario: 'happy',
    variant: 'incident-2026',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'fixed',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'fixed-coverage',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'retire-only',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
  {
    scenario: 'happy',
    variant: 'coverage-only',
    status: 'ok',
    violated: [],
    states: 2115,
    transitions: 4038,
    depth: 26,
  },
];

/** The expectation for one scenario × variant, if the manifest has one. */
export function expectationFor(scenario: string, variant: string): Expectation | undefined {
  return manifest.find((e) => e.scenario === scenario && e.variant === variant);
}

/**
 * Whether `kvcheck paths` finds a statechart path from a rejected state to a decoding state
 * under each variant. `retire-only` has one: #36988 retires a rejected prefill result, but a
 * prompt that only decode's scheduler rejects still becomes a decode placeholder that commits
 * and runs a step over its own one-token KV (no leak, but a rejected request is decoded).
 */
export const structuralPaths: Readonly<Record<string, boolean>> = {
  'incident-2026': true,
  fixed: false,
  'fixed-coverage': false,
  'retire-only': true,
  'coverage-only': true,
};
