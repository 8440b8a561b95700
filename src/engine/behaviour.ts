/**
 * Guards and actions compiled into plain closures that call the machine's implementations
 * directly, with the arguments XState 5.33.3 passes them (`evaluateGuard`,
 * `resolveAndExecuteActionsWithContext`, `resolveAssign`, `resolveRaise`):
 * - a guard sees `{ context, event }` and its reference's params (static, or a function of
 *   `{ context, event }`); `and`/`or`/`not` short-circuit in order; `stateIn('#id')` tests the
 *   active configuration, any other `stateIn` value goes through `matchesState`;
 * - `assign` sees the context left by the previous action of the same microstep and yields
 *   `Object.assign({}, context, partial)`; the object form evaluates each key in order;
 * - an `assign` made by `vectorAssign` runs its in-place update instead: the first one of a
 *   macrostep copies the context it is given (`{ ...context, words: context.words.slice() }`),
 *   which the macrostep then owns (`StepScratch.owned`); each later one that is given that very
 *   copy mutates it in place, and one given any other object (a plain `assign` replaced the
 *   context in between) copies again. The resulting context equals the one XState builds. The
 *   copy's words are the step's reused buffer, and so is the copy itself while the steps copy
 *   the same context (the successors of one state): both are valid until the next step;
 * - `raise` appends its event to the macrostep's internal queue.
 */
import { createEmptyActor, type EventObject, matchesState, type StateValue } from 'xstate';
import type { ActionArgs, ActionSpec, GuardArgs, GuardSpec, ParamsFn } from './machineSpec.ts';
import {
  type AnyInPlaceUpdate,
  inPlaceUpdateOf,
  isVectorContext,
  type VectorContext,
} from './vectorContext.ts';
import { recordedTarget, recordingWords, type WordLog } from './wordRecorder.ts';
import { inertActorParts } from './xstateInternals.ts';

/** What a guard may read besides context and event: the active configuration. */
export interface Moment {
  readonly flags: Uint8Array;
  readonly done: boolean;
}

/**
 * A compiled guard. `args` is the selection's: one object for every guard one selection
 * evaluates (they all see the same context and event), where XState makes one per guard call.
 * A guard is a pure function of it and does not keep it.
 */
export type GuardFn = (args: GuardArgs, at: Moment) => boolean;

/**
 * What the actions of one macrostep share: `owned` is the context copy the macrostep made for
 * in-place updates (null until one runs). The interpreter resets it at the start of every step.
 * The copy's words are `buffer`, one array reused by every step (allocating a typed array per
 * successor costs more than the rest of a step): a step's result that is kept beyond the next
 * step must be detached first (`Interpreter.detach`).
 */
export interface StepScratch {
  owned: unknown;
  buffer: Int32Array | null;
  /**
   * The last copy made of a context (its words are `buffer`), and the names of that context's
   * static fields (all but `words`). A step from any context whose static fields are the same
   * objects reuses it instead of spreading the context again: the static fields are the same in
   * every state of a run (`vectorContext.ts`), so the shell is made about once per run, and a
   * context a plain `assign` gave another static field gets a copy of its own.
   */
  shell: unknown;
  statics: string[];
  /** The `{ event }` argument of in-place updates, reused (an update must not keep it). */
  readonly args: { event: EventObject };
  /**
   * Recording (`Interpreter.stepRecorded`, never in a search): the copy's words are recorded
   * words logging into this log (`wordRecorder.ts`); null otherwise.
   */
  log: WordLog | null;
}

/**
 * A compiled action: returns the next context (a new object whenever XState would build one, so
 * the caller can tell that an assign ran, except an in-place update given `step.owned`, which
 * returns it mutated); `raise` appends to `queue`.
 */
export type ActionFn = (
  context: unknown,
  event: EventObject,
  queue: RaiseQueue,
  step: StepScratch,
) => unknown;

/** Where `raise` puts its event: the macrostep's internal queue (`microstep.ts`). */
export interface RaiseQueue {
  /** Appends `event`, to be processed after the events queued before it. */
  push(event: EventObject): void;
}

/** Builds the state value of a configuration (for `stateIn` with a value). */
export type StateValueOf = (at: Moment) => StateValue;

function resolveParams(
  params: unknown,
  paramsFn: ParamsFn | null,
  context: unknown,
  event: EventObject,
): unknown {
  return paramsFn ? paramsFn({ context, event }) : params;
}

/** Compiles `spec` into a closure; `stateValueOf` serves `stateIn` with a state value. */
export function compileGuard(spec: GuardSpec, stateValueOf: StateValueOf): GuardFn {
  switch (spec.kind) {
    case 'predicate': {
      const { fn, params, paramsFn } = spec;
      // `args` is the selection's: one object for every guard it evaluates (`GuardFn`).
      if (paramsFn) return (args) => fn(args, paramsFn(args));
      return (args) => fn(args, params);
    }
    case 'and': {
      const subs = spec.guards.map((g) => compileGuard(g, stateValueOf));
      return (args, at) => {
        for (let i = 0; i < subs.length; i++) if (!(subs[i] as GuardFn)(args, at)) return false;
        return true;
      };
    }
    case 'or': {
      const subs = spec.guards.map((g) => compileGuard(g, stateValueOf));
      return (args, at) => {
        for (let i = 0; i < subs.length; i++) if ((subs[i] as GuardFn)(args, at)) return true;
        return false;
      };
    }
    case 'not': {
      const sub = compileGuard(spec.guard, stateValueOf);
      return (args, at) => !sub(args, at);
    }
    case 'stateInNode': {
      const order = spec.order;
      return (_args, at) => at.flags[order] === 1;
    }
    case 'stateInValue': {
      const value = spec.value as StateValue;
      return (_args, at) => matchesState(value, stateValueOf(at));
    }
    case 'missing': {
      const message = `Guard '${spec.name}' is not implemented.'.`;
      return () => {
        throw new Error(message);
      };
    }
    case 'throws': {
      const message = spec.message;
      return () => {
        throw new Error(message);
      };
    }
  }
}

const actor = createEmptyActor();
const { self, system } = inertActorParts(actor);

function refuseSpawn(): never {
  throw new Error('unsupported: spawn inside assign');
}

const noContext =
  'Cannot assign to undefined `context`. Ensure that `context` is defined in the machine config.';

/** An in-place update, run on the macrostep's own copy of the context (see the module doc). */
function compileInPlace(
  update: AnyInPlaceUpdate,
  params: unknown,
  paramsFn: ParamsFn | null,
): ActionFn {
  return (context, event, _queue, step) => {
    if (!context) throw new Error(noContext);
    const p = resolveParams(params, paramsFn, context, event);
    let owned = step.owned;
    if (owned !== context) {
      if (!isVectorContext(context)) {
        throw new TypeError('vectorAssign: the context has no Int32Array `words`');
      }
      const from = context.words;
      let buffer = step.buffer;
      if (buffer === null || buffer.length !== from.length || buffer === from) {
        buffer = new Int32Array(from.length);
        step.buffer = buffer;
      }
      const log = step.log;
      if (log === null) {
        buffer.set(from);
        owned = step.shell;
        if (
          owned === null ||
          (owned as VectorContext).words !== buffer ||
          !sameStatics(owned, context, step)
        ) {
          owned = { ...context, words: buffer };
          step.shell = owned;
          step.statics = Object.keys(context).filter((k) => k !== 'words');
        }
      } else {
        buffer.set(recordedTarget(from) ?? from);
        owned = { ...context, words: recordingWords(buffer, log) };
      }
      step.owned = owned;
    }
    const args = step.args;
    args.event = event;
    update(owned as VectorContext, args, p);
    return owned;
  };
}

/** Whether `context`'s static fields (`step.statics`) are those of `shell`, object for object. */
function sameStatics(shell: unknown, context: object, step: StepScratch): boolean {
  const keys = step.statics;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if ((shell as Record<string, unknown>)[k] !== (context as Record<string, unknown>)[k])
      return false;
  }
  return true;
}

function compileAssign(spec: Extract<ActionSpec, { kind: 'assign' }>): ActionFn {
  const { assignment, params, paramsFn } = spec;
  const update = inPlaceUpdateOf(assignment);
  if (update) return compileInPlace(update, params, paramsFn);
  return (context, event) => {
    if (!context) throw new Error(noContext);
    const p = resolveParams(params, paramsFn, context, event);
    const args: ActionArgs = { context, event, spawn: refuseSpawn, self, system };
    let partial: unknown;
    if (typeof assignment === 'function') {
      partial = assignment(args, p);
    } else {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(assignment)) {
        const a = assignment[key];
        out[key] = typeof a === 'function' ? a(args, p) : a;
      }
      partial = out;
    }
    return Object.assign({}, context, partial);
  };
}

function compileRaise(spec: Extract<ActionSpec, { kind: 'raise' }>): ActionFn {
  const { event: raised, params, paramsFn } = spec;
  if (typeof raised !== 'function') {
    return (context, _event, queue) => {
      queue.push(raised);
      return context;
    };
  }
  return (context, event, queue) => {
    const p = resolveParams(params, paramsFn, context, event);
    queue.push(raised({ context, event, self, system }, p));
    return context;
  };
}

/** Compiles `spec`; `noop` actions compile to null. */
function compileAction(spec: ActionSpec): ActionFn | null {
  switch (spec.kind) {
    case 'assign':
      return compileAssign(spec);
    case 'raise':
      return compileRaise(spec);
    case 'noop':
      return null;
  }
}

/** Compiles a list of actions, dropping no-ops. */
export function compileActions(specs: readonly ActionSpec[]): ActionFn[] {
  const out: ActionFn[] = [];
  for (const s of specs) {
    const fn = compileAction(s);
    if (fn) out.push(fn);
  }
  return out;
}
