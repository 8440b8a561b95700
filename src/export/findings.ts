/**
 * The findings a design review opens with: for each violated property, its shortest
 * counterexample in a few plain steps (the steps whose changes make the failure: a page freed
 * unscrubbed, a prompt swapped for a placeholder, a page handed over still holding another
 * request's KV, a commit, a foreign read), where each other variant blocks that trace
 * (`replayTrace`), and the structural path check per variant, the one claim that holds for every
 * prompt length.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import type { TraceChange } from '../checker/change.ts';
import type { TraceStep } from '../checker/outcome.ts';
import { findPaths } from '../paths/index.ts';
import { replayText, replayTrace } from '../replay/replay.ts';
import { changeText } from './changeText.ts';
import type { Counterexample, Finding, KeyStep, StructuralFinding } from './reportModel.ts';

/** What makes a change of a trace decisive: the requests and pages the failure goes through. */
interface Decisive {
  /** Requests swapped for a placeholder or reading another tenant's KV. */
  readonly subjects: ReadonlySet<string>;
  /** `node page rid`: a page later handed to another request still holding `rid`'s KV. */
  readonly handedOn: ReadonlySet<string>;
}

function decisiveOf(steps: readonly TraceStep[]): Decisive {
  const subjects = new Set<string>();
  const handedOn = new Set<string>();
  for (const c of steps.flatMap((s) => s.changes)) {
    if (c.kind === 'placeholderSwapped' || (c.kind === 'slotRead' && c.foreign))
      subjects.add(c.rid);
    if (c.kind === 'pageAllocated') {
      for (const r of c.heldKvOf) if (r !== c.rid) handedOn.add(`${c.node} ${c.page} ${r}`);
    }
  }
  return { subjects, handedOn };
}

/**
 * Whether `c` is one of the changes that make the failure: a placeholder swap, a foreign read, a
 * page handed over still holding another request's KV, the unscrubbed free that left it there,
 * and the commit of a request the failure is about.
 */
function decisive(c: TraceChange, d: Decisive): boolean {
  switch (c.kind) {
    case 'placeholderSwapped':
      return true;
    case 'committed':
      return d.subjects.has(c.rid);
    case 'pageFreed':
      return c.cachedBy === null && d.handedOn.has(`${c.node} ${c.page} ${c.rid}`);
    case 'pageAllocated':
      return c.heldKvOf.some((r) => r !== c.rid);
    case 'slotRead':
      return c.foreign;
    default:
      return false;
  }
}

/** The steps of `steps` with decisive changes, each told by them (first sentence of each kind). */
export function keyStepsOf(steps: readonly TraceStep[]): KeyStep[] {
  const d = decisiveOf(steps);
  return steps.flatMap((s) => {
    const changes = s.changes.filter((c) => decisive(c, d));
    if (changes.length === 0) return [];
    const seen = new Set<string>();
    const texts = changes.filter((c) => !seen.has(c.kind) && seen.add(c.kind)).map(changeText);
    return [{ step: s.step, event: s.event, rid: s.rid, text: texts.join('; ') }];
  });
}

/**
 * One finding per violated property, from its shortest counterexample in `counterexamples`
 * (the first of equal length), with the trace replayed under every other variant of `variants`.
 */
export function findingsOf(
  counterexamples: readonly Counterexample[],
  scenarios: readonly Scenario[],
  variants: readonly Variant[],
): Finding[] {
  const best = new Map<string, number>();
  counterexamples.forEach((c, i) => {
    const at = best.get(c.property);
    const shorter =
      at === undefined || c.trace.steps.length < (counterexamples[at]?.trace.steps.length ?? 0);
    if (shorter) best.set(c.property, i);
  });
  return [...best.values()].map((i) => {
    const c = counterexamples[i] as Counterexample;
    const scenario = scenarios.find((s) => s.name === c.scenario);
    const replays = scenario
      ? variants
          .filter((v) => v.name !== c.variant)
          .map((v) => ({
            variant: v.name,
            text: replayText(
              replayTrace(scenario, v, c.trace.steps, c.property),
              v.name,
              c.property,
            ),
          }))
      : [];
    return {
      property: c.property,
      statement: c.statement,
      scenario: c.scenario,
      variant: c.variant,
      steps: c.trace.steps.length,
      counterexample: i,
      keySteps: keyStepsOf(c.trace.steps),
      replays,
    };
  });
}

/** The structural path check of each variant: how many rejected → decoding paths it has. */
export function structuralFindings(variants: readonly Variant[]): StructuralFinding[] {
  return variants.map((v) => ({ variant: v.name, paths: findPaths(v).paths.length }));
}
