/**
 * The property helper: a plain predicate on a `ServingState` that also carries the sentence a
 * report prints, what it guards, when it is checked, and how to explain a violation.
 */
import type { VariableReads } from '../machines/layout.ts';
import type { RequestRegion } from '../machines/regionIds.ts';
import type { ServingState } from './vocabulary.ts';

/** When a property is evaluated: on every reachable state, or only where nothing can move. */
export type PropertyKind = 'state' | 'terminal';

/**
 * When a property can fail at all: `fires` holds in a state where the property's antecedent is
 * met (a rejected request exists, a slot was read, a room opened…). A complete search in which
 * no state fires the trigger shows the property holding vacuously, and `vacuity` says why in
 * words (`no request was rejected at intake`). Terminal properties' triggers are evaluated on
 * terminal states only.
 */
export interface Trigger {
  readonly fires: (s: ServingState) => boolean;
  /** Why a pass is vacuous when no explored state fires the trigger. */
  readonly vacuity: string;
}

/**
 * Everything a property and its trigger read of a state, whatever the state: the state-vector
 * variables (of every request and both pools, as `machines/layout.ts` names them) and the
 * request regions whose state they read. The search re-evaluates a property on a successor only
 * where one of these changed (`ExploreOptions.reads`), so a read left out could hide a
 * violation: `test/invariants/reads.test.ts` records every read on the reachable states of the
 * built-in and catalogue scenarios and fails on one that is not declared.
 */
export interface Reads extends VariableReads {
  readonly regions?: readonly RequestRegion[];
}

/** A checkable property: call it to test a state; read its fields to describe it. */
export interface Property {
  (s: ServingState): boolean;
  /** The property in one sentence. */
  readonly statement: string;
  /** The incident or upstream bug it guards. */
  readonly guards: string;
  readonly kind: PropertyKind;
  /** When the property can fail at all (see `Trigger`). */
  readonly trigger: Trigger;
  /** What the property and its trigger read (see `Reads`). */
  readonly reads: Reads;
  /** What is wrong in `s`, with names and numbers, or null when the property holds. */
  readonly explain: (s: ServingState) => string | null;
}

/**
 * Builds a property from a function that finds a violation. The predicate holds exactly when
 * `findViolation` returns null.
 */
export function property(
  statement: string,
  meta: {
    readonly guards: string;
    readonly kind?: PropertyKind;
    readonly trigger: Trigger;
    readonly reads: Reads;
  },
  findViolation: (s: ServingState) => string | null,
): Property {
  const holds = (s: ServingState) => findViolation(s) === null;
  return Object.assign(holds, {
    statement,
    guards: meta.guards,
    kind: meta.kind ?? 'state',
    trigger: meta.trigger,
    reads: meta.reads,
    explain: findViolation,
  });
}

/** A witness: a situation that must be reachable, so that a pass is not vacuous. */
export interface Witness {
  (s: ServingState): boolean;
  /** The situation in one sentence. */
  readonly statement: string;
}

/** Builds a witness from a predicate and its sentence. */
export function witness(statement: string, reached: (s: ServingState) => boolean): Witness {
  return Object.assign((s: ServingState) => reached(s), { statement });
}
