/**
 * Lint and model checker agree: for each built-in barrier variant and each band of prompt
 * lengths, the effect lint predicts from the variant's switches is what `check --deployment`
 * finds on the band's abstract scenario (leak: a cross-tenant read; handed off: a rejected
 * prompt's KV is sent, no cross-tenant read; spent: nothing sent, but the rejected request held
 * a room, pages or a forward; clean: ok). A request that never finishes
 * (`noDeadlock`) matches no effect: lint never predicts one.
 */
import { findVariant } from '../../machines/variants.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { abstractScenarios } from '../../src/deployment/abstractScenario.ts';
import type { BandKind } from '../../src/deployment/bands.ts';
import { type RejectEffect, rejectEffect } from '../../src/deployment/findings.ts';
import { lintDeployment } from '../../src/deployment/lint.ts';
import { givenPools } from './helpers.ts';

/** Pools whose bands include `kind`: the incident's, its mirror, and both above the window. */
const poolsFor: Record<Exclude<BandKind, 'accepted'>, [number, number]> = {
  prefillRejects: [681_280, 1_048_576],
  decodeRejects: [1_048_576, 681_280],
  bothReject: [2_040_000, 2_040_000],
};

const violated = (r: ScenarioResult, name: string) =>
  r.properties.some((p) => p.name === name && p.status === 'violated');

/** What the model checker's result says happened, in lint's words. */
function observed(r: ScenarioResult): RejectEffect {
  if (violated(r, 'noCrossTenantRead')) return 'leak';
  if (violated(r, 'rejectedNeverHandedOff')) return 'handedOff';
  if (violated(r, 'rejectedHoldsNothing')) return 'spent';
  if (r.status === 'ok') return 'clean';
  throw new Error(
    `unexpected verdict: ${r.properties.filter((p) => p.status === 'violated').map((p) => p.name)}`,
  );
}

const variantNames = ['incident-2026', 'fixed', 'fixed-coverage', 'retire-only', 'coverage-only'];
const kinds = Object.keys(poolsFor) as Exclude<BandKind, 'accepted'>[];

describe.each(variantNames)('under %s', (name) => {
  it.each(kinds)('lint’s effect for %s is the model checker’s', (kind) => {
    const variant = findVariant(name);
    if (!variant) throw new Error(name);
    const [prefill, decode] = poolsFor[kind];
    const mapping = abstractScenarios(lintDeployment(givenPools(prefill, decode, name)));
    const run = mapping.runs.find((r) => r.kind === kind);
    if (!run) throw new Error(`no ${kind} band`);
    const result = check(run.scenario, variant, { requiredWitnesses: run.scenario.witnesses });
    expect(result.status).not.toBe('incomplete');
    expect(observed(result)).toBe(rejectEffect(variant.switches, kind));
  });
});
