/**
 * Guards read three-valued on a product configuration, with every data guard left open.
 * Switch guards come from the variant, `stateIn` from the configuration, `isFor` is true (the
 * event is for this request), the guards of shared bootstrap rooms are false (the request has a
 * room of its own), fault guards are true unless the chart reads them as switched off
 * (`Chart.faultsOff`), any other named guard is unknown. Which transition fires is decided
 * by case-splitting on the unknown data guards, so one data guard tested twice in a candidate
 * list (`and(prefillSchedulerRejects, admissionRetire)`, then `prefillSchedulerRejects`) keeps
 * one value: plain Kleene logic would let the placeholder branch fire under `fixed`.
 */
import { faultGuards, switchGuards } from '../../machines/servingSetup.ts';
import {
  admissionRetireEffective,
  retireAbortedResultEffective,
  type Variant,
} from '../../machines/variants.ts';
import type { GuardTerm } from '../engine/index.ts';
import { type Chart, type ChartNode, type Config, isActive } from './statechart.ts';

/** A compiled guard. */
export type Guard =
  | { readonly op: 'const'; readonly value: boolean }
  | { readonly op: 'atom'; readonly key: string }
  | { readonly op: 'in'; readonly node: ChartNode }
  | { readonly op: 'and' | 'or' | 'not'; readonly args: readonly Guard[] };

/** Three-valued truth: `undefined` is unknown. */
export type Truth = boolean | undefined;

/** Values assumed for data guards, keyed by guard name and params. */
export type Facts = ReadonlyMap<string, boolean>;

/** The value `variant` gives switch guard `name` (`admissionRetire` as it is effective). */
export function switchValue(name: (typeof switchGuards)[number], v: Variant): boolean {
  switch (name) {
    case 'admissionRetire':
      return admissionRetireEffective(v.switches);
    case 'retireAbortedResult':
      return retireAbortedResultEffective(v.switches);
    case 'routerFailFast':
      return v.switches.routerPolicy === 'failFast';
    default:
      return v.switches[name];
  }
}

/** Data guards that read what other incarnations of a shared bootstrap room did. */
const sharedRoomGuards: readonly string[] = ['roomSucceeded', 'roomFailed', 'roomHeld'];

function named(type: string, params: unknown, chart: Chart): Guard {
  const { variant } = chart;
  if (type === 'isFor' || type === 'isForRoom') return { op: 'const', value: true };
  // The structure is read for one request with a bootstrap room of its own: what another
  // incarnation of a shared room does is the model checker's to explore (catalogue B9).
  if (sharedRoomGuards.includes(type)) return { op: 'const', value: false };
  const sw = switchGuards.find((g) => g === type);
  if (sw) return { op: 'const', value: switchValue(sw, variant) };
  // A fault is possible in any deployment: the structure is read with every fault enabled,
  // unless the chart was read for scenarios that switch the mechanism off.
  const fault = faultGuards.find((g) => g === type);
  if (fault) return { op: 'const', value: chart.faultsOff?.has(fault) !== true };
  return { op: 'atom', key: `${type}${JSON.stringify(params ?? null)}` };
}

function compileTerm(t: GuardTerm, chart: Chart): Guard {
  if (t.kind === 'named') return named(t.type, t.params, chart);
  if (t.kind === 'opaque') throw new Error(`paths: unsupported guard ${t.name}`);
  if (t.kind !== 'in') return { op: t.kind, args: t.args.map((a) => compileTerm(a, chart)) };
  const node = chart.byId.get(t.stateId);
  // Pull mode's transfer region lacks push-only states (`bootstrapping`) that the shared prefill
  // and decode regions test: such a state is never active, as XState's `stateIn` reads it.
  if (!node && chart.transfer === 'pull') return { op: 'const', value: false };
  if (!node) throw new Error(`paths: unsupported guard stateIn(#${t.stateId})`);
  return { op: 'in', node };
}

/** Compiles a guard of `chart`'s machine (as the config writes it); a missing guard is `true`. */
export function compileGuard(term: GuardTerm | undefined, chart: Chart): Guard {
  return term ? compileTerm(term, chart) : { op: 'const', value: true };
}

/** Kleene's `and` or `or` of `vs`: decided by a dominant value, else unknown if any is. */
export function kleene(op: 'and' | 'or', vs: readonly Truth[]): Truth {
  const dominant = op === 'or';
  if (vs.includes(dominant)) return dominant;
  return vs.includes(undefined) ? undefined : !dominant;
}

/** Kleene evaluation of `g` in `config`, data guards read from `facts` (absent: unknown). */
export function evaluate(g: Guard, config: Config, facts: Facts): Truth {
  if (g.op === 'const') return g.value;
  if (g.op === 'atom') return facts.get(g.key);
  if (g.op === 'in') return isActive(config, g.node);
  const vs = g.args.map((a) => evaluate(a, config, facts));
  if (g.op === 'not') return vs[0] === undefined ? undefined : !vs[0];
  return kleene(g.op, vs);
}

function openAtom(g: Guard, facts: Facts): string | undefined {
  if (g.op === 'atom') return facts.has(g.key) ? undefined : g.key;
  if (g.op === 'const' || g.op === 'in') return undefined;
  return g.args.map((a) => openAtom(a, facts)).find((k) => k !== undefined);
}

/**
 * The transitions that can fire among `candidates` (document order, deepest state first):
 * XState takes the first whose guard is true, so a candidate can fire when its guard can be true
 * while every earlier one is false. `undefined` in the result: none fires, the region stays.
 */
export function firing<C extends { readonly guard: Guard }>(
  candidates: readonly C[],
  config: Config,
  facts: Facts = new Map(),
): (C | undefined)[] {
  for (const c of candidates) {
    const v = evaluate(c.guard, config, facts);
    if (v === false) continue;
    const atom = openAtom(c.guard, facts);
    if (v === true || atom === undefined) return [c];
    const cases = [true, false].map((b) => new Map(facts).set(atom, b));
    return [...new Set(cases.flatMap((f) => firing(candidates, config, f)))];
  }
  return [undefined];
}
