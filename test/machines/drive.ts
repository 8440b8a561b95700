/**
 * Drives the composed machine through XState's own `transition()`, one named event at a time,
 * for the mechanism tests: every step must be enabled, and a snapshot projects onto the
 * `ServingState` the properties read.
 */
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { DecodedContext, RequestState } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';

/** A snapshot of the composed machine. */
export type Snapshot = SnapshotFrom<ServingMachine>;

/** An external event type and the request it names, written `'DISPATCH a1'`. */
export type Step = `${ExternalEvent['type']} ${string}`;

/** A running machine: its snapshot, stepped in place. */
export interface Driver {
  snapshot: Snapshot;
  /** Sends each step in order; throws naming the first one that changes nothing. */
  run(...steps: readonly Step[]): Driver;
  /** Whether `step` is enabled now (it would change the snapshot). */
  enabled(step: Step): boolean;
  /** The snapshot's context, decoded. */
  ctx(): DecodedContext;
  /** The decoded record of request `rid`. */
  req(rid: string): RequestState;
  /** Where `rid`'s `region` is, as the snapshot's value. */
  at(rid: string, region: 'router' | 'prefill' | 'transfer' | 'decode'): unknown;
  /** The snapshot as the properties read it. */
  state(): ServingState;
}

function eventOf(step: Step): ExternalEvent {
  const [type, rid] = step.split(' ');
  return { type, rid } as ExternalEvent;
}

/** A driver for `scenario` under `variant`, at the initial snapshot. */
export function drive(scenario: Scenario, variant: Variant): Driver {
  const machine = createServingMachine(scenario, variant);
  const [initial] = initialTransition(machine);
  const d: Driver = {
    snapshot: initial,
    run(...steps) {
      for (const step of steps) {
        const [next] = transition(machine, d.snapshot, eventOf(step));
        if (next === d.snapshot) throw new Error(`${step} is disabled`);
        d.snapshot = next;
      }
      return d;
    },
    enabled(step) {
      const [next] = transition(machine, d.snapshot, eventOf(step));
      return next !== d.snapshot;
    },
    ctx() {
      return decodeContext(d.snapshot.context);
    },
    req(rid) {
      const r = d.ctx().requests[rid];
      if (!r) throw new Error(`no request ${rid}`);
      return r;
    },
    at(rid, region) {
      return (d.snapshot.value as Record<string, Record<string, unknown>>)[rid]?.[region];
    },
    state() {
      return { value: d.snapshot.value as ServingState['value'], context: d.snapshot.context };
    },
  };
  return d;
}

/** One request from dispatch to its last chunk in flight (decode preallocated, KV sent). */
export function toInflight(rid: string): Step[] {
  return [
    `DISPATCH ${rid}`,
    `PREFILL_INTAKE ${rid}`,
    `DECODE_INTAKE ${rid}`,
    `DECODE_PREALLOC ${rid}`,
    `PREFILL_BOOTSTRAPPED ${rid}`,
    `PREFILL_FORWARD ${rid}`,
    `SEND_KV ${rid}`,
  ];
}
