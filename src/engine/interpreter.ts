/**
 * XState 5.33.3's `macrostep` over engine states (a configuration view and a context):
 * - the first microstep takes the transitions selected for the event in the state as it is
 *   (`transitionNode` + `StateNode.next`, see `selection.ts`): guards see the context before
 *   the microstep; a done snapshot still takes this first microstep;
 * - raised and done events are then processed in order, each as a further microstep selected
 *   against the configuration and context of that moment, while the snapshot is active;
 * - the event is enabled only if XState would return a new snapshot object (see `Work`).
 * The microstep itself is in `microstep.ts`.
 */
import type { EventObject } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import type { ConfigView, EngineState, ViewCache } from './configView.ts';
import type { GuardArgs } from './machineSpec.ts';
import { several, Work } from './microstep.ts';
import { ReusedList } from './reusedList.ts';
import { buildPlan, runPlan, selectByParts, selectDirect, type Transitions } from './selection.ts';
import { WordSlab } from './slab.ts';
import { recordingWords, type WordLog } from './wordRecorder.ts';

/** More microsteps than this in one macrostep is taken as an endless raise loop. */
const maxMicrosteps = 100_000;

/** A reusable interpreter for one compiled machine; results are read from `next*`. */
export class Interpreter {
  private readonly work: Work;
  private readonly moment: { flags: Uint8Array; done: boolean } = {
    flags: new Uint8Array(0),
    done: false,
  };
  /** The transitions a step selects, one microstep at a time. */
  private readonly selected: Transitions = new ReusedList();
  /** The configuration after the last enabled `step`. */
  nextView: ConfigView | null = null;
  /** The context after the last enabled `step`. */
  nextContext: unknown = undefined;

  constructor(
    readonly m: CompiledMachine,
    readonly views: ViewCache,
  ) {
    this.work = new Work(m, views.words, views.doneWord);
  }

  /**
   * Selects the transitions for `event` in `view` (with `moment` set to it) into `selected`;
   * returns whether there are any. A configuration put together from parts selects by its
   * parts' plans (`selectByParts`), any other by its own plan, built on first use.
   */
  private select(view: ConfigView, args: GuardArgs, selected: Transitions): boolean {
    if (view.parts !== null) {
      return selectByParts(this.m, view.parts, args, this.moment, selected);
    }
    const type = args.event.type;
    let plan = view.plans.get(type);
    if (plan === undefined) {
      plan = buildPlan(this.m, type, view.flags, view.done, null);
      view.plans.set(type, plan);
    }
    return plan !== null && runPlan(plan, args, this.moment, selected);
  }

  /**
   * Takes `event` in `state`. Returns false when it is not enabled: no transition is selected,
   * or the macrostep leaves XState's snapshot object as it was (no `assign` ran, no microstep
   * changed the configuration, the root did not complete), exactly when
   * `transition(machine, snapshot, event)[0] === snapshot`. Otherwise the next state is in
   * `nextView` and `nextContext`.
   */
  step(state: EngineState, event: EventObject): boolean {
    const view = state.view;
    const selected = this.selected;
    selected.clear();
    this.moment.flags = view.flags;
    this.moment.done = view.done;
    // One arguments object for every guard of the selection, as a selection is one moment:
    // XState makes one per guard, a garbage object a guard call.
    if (!this.select(view, { context: state.context, event }, selected)) return false;
    const w = this.work;
    w.flags.set(view.flags);
    w.context = state.context;
    w.done = view.done;
    w.zobrist = view.zobrist;
    w.changed = false;
    w.only = null;
    w.queue.clear();
    w.scratch.owned = null;
    w.microstep(selected, event);
    this.moment.flags = w.flags;
    this.moment.done = false;
    for (let head = 0; !w.done && head < w.queue.length; head++) {
      if (head > maxMicrosteps) throw new Error('Infinite loop detected: endless raised events');
      const next = w.queue.at(head);
      // The microstep before is over: its selection is free for this one's.
      selected.clear();
      const args = { context: w.context, event: next };
      if (selectDirect(this.m, 0, this.m.table(next.type), args, this.moment, selected)) {
        w.microstep(selected, next);
      }
    }
    w.queue.clear();
    w.scratch.owned = null;
    if (!w.changed) return false;
    this.nextView = this.nextViewOf(view);
    this.nextContext = w.context;
    return true;
  }

  /**
   * The configuration the work area holds after a macrostep from `view`. When the macrostep
   * took one transition in one microstep, the configuration is a function of `view` and that
   * transition alone (its exit set depends on the configuration, its entry set on nothing), so
   * `view` caches it by the transition; otherwise it is looked up by its flags.
   */
  private nextViewOf(view: ConfigView): ConfigView {
    const w = this.work;
    const only = w.only;
    if (only === null || only === several) return this.views.of(w.flags, w.done, w.zobrist);
    let after = view.after;
    if (after === null) {
      after = new Map();
      view.after = after;
    }
    let next = after.get(only);
    if (next === undefined) {
      next = this.views.of(w.flags, w.done, w.zobrist);
      after.set(only, next);
    }
    return next;
  }

  /**
   * `context` (a step's `nextContext`) with words of its own: a vector context whose words are
   * the interpreter's reused scratch buffer gets a copy, anything else is returned as it is.
   * Whatever keeps a step's result beyond the next step must keep the detached context.
   */
  detach(context: unknown): unknown {
    const words = (context as { words?: unknown } | null)?.words;
    if (words === undefined || words !== this.work.scratch.buffer) return context;
    return { ...(context as object), words: this.slab.copy(words as Int32Array) };
  }

  /** Where detached words are copied to. */
  private readonly slab = new WordSlab();

  /**
   * `step(state, event)` with every word of the vector context that its guards and in-place
   * updates read or write logged into `log` (`wordRecorder.ts`): for the partial-order
   * reduction's self-check, never in a search. Returns whether the event is enabled; the next
   * state's words are recorded words, so it is not kept.
   */
  stepRecorded(state: EngineState, event: EventObject, log: WordLog): boolean {
    const words = (state.context as { words?: unknown } | null)?.words;
    if (!(words instanceof Int32Array)) throw new TypeError('stepRecorded: not a vector context');
    const recorded = recordingWords(words.slice(), log);
    const context = { ...(state.context as object), words: recorded };
    this.work.scratch.log = log;
    try {
      return this.step({ view: state.view, context }, event);
    } finally {
      this.work.scratch.log = null;
    }
  }

  /** Takes `event` in `state` and returns the next state (detached), or null if not enabled. */
  stepTo(state: EngineState, event: EventObject): EngineState | null {
    if (!this.step(state, event) || this.nextView === null) return null;
    return { view: this.nextView, context: this.detach(this.nextContext) };
  }
}
