/**
 * Guards read three-valued on a product configuration, with every data guard left open.
 * Switch guards come from the variant, `stateIn` from the configuration, `isFor` is true (the
 * event is for this request), any other named guard is unknown. Which transition fires is decided
 * by case-splitting on the unknown data guards, so one data guard tested twice in a candidate
 * list (`and(prefillSchedulerRejects, admissionRetire)`, then `prefillSchedulerRejects`) keeps
 * one value: plain Kleene logic would let the placeholder branch fire under `fixed`.
 */
import { and, not, or, stateIn } from 'xstate';
import { faultGuards, switchGuards } from '../../machines/servingSetup.ts';
import {
  admissionRetireEffective,
  retireAbortedResultEffective,
  type Variant,
} from '../../machines/variants.ts';
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

/** A guard as XState stores it: a name, `{ type, params }`, or an `and`/`or`/`not`/`stateIn`. */
interface GuardShape {
  readonly type?: unknown;
  readonly params?: unknown;
  readonly check?: unknown;
  readonly guards?: readonly unknown[];
  readonly stateValue?: unknown;
}

// XState marks its guard combinators by their `check` function; compare against its own.
const checkOf = (g: unknown): unknown => (g as GuardShape).check;
const combinators = [
  ['and', checkOf(and([]))],
  ['or', checkOf(or([]))],
  ['not', checkOf(not('isFor'))],
] as const;
const stateInCheck = checkOf(stateIn('#paths'));

function switchValue(name: (typeof switchGuards)[number], v: Variant): boolean {
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

function named(type: string, params: unknown, variant: Variant): Guard {
  if (type === 'isFor') return { op: 'const', value: true };
  const sw = switchGuards.find((g) => g === type);
  if (sw) return { op: 'const', value: switchValue(sw, variant) };
  // A fault is possible in any deployment: the structure is read with every fault enabled.
  if (faultGuards.some((g) => g === type)) return { op: 'const', value: true };
  return { op: 'atom', key: `${type}${JSON.stringify(params ?? null)}` };
}

/** An XState guard read structurally, before any variant gives its switches a value. */
export type GuardTerm =
  | { readonly kind: 'named'; readonly type: string; readonly params: unknown }
  | { readonly kind: 'in'; readonly stateId: string }
  | { readonly kind: 'and' | 'or' | 'not'; readonly args: readonly GuardTerm[] };

/**
 * Reads an XState guard as a `GuardTerm`: a name or `{ type, params }` is `named`, `stateIn('#id')`
 * is `in` with the id without `#`, XState's `and`/`or`/`not` keep their arguments in order.
 * Undefined for a missing guard; throws for an inline guard function, which has no structure.
 */
export function parseGuard(g: unknown): GuardTerm | undefined {
  if (g === undefined) return undefined;
  if (typeof g === 'string') return { kind: 'named', type: g, params: undefined };
  const s = g as GuardShape;
  if (s.check === stateInCheck && typeof s.stateValue === 'string')
    return { kind: 'in', stateId: s.stateValue.replace(/^#/, '') };
  const comb = combinators.find(([, check]) => check === s.check);
  if (comb) return { kind: comb[0], args: (s.guards ?? []).map((a) => parseTerm(a)) };
  if (typeof s.type === 'string') return { kind: 'named', type: s.type, params: s.params };
  throw new Error(`paths: unsupported guard ${String(g)}`);
}

function parseTerm(g: unknown): GuardTerm {
  const term = parseGuard(g);
  if (!term) throw new Error('paths: an empty guard inside and/or/not');
  return term;
}

function compileTerm(t: GuardTerm, chart: Chart): Guard {
  if (t.kind === 'named') return named(t.type, t.params, chart.variant);
  if (t.kind !== 'in') return { op: t.kind, args: t.args.map((a) => compileTerm(a, chart)) };
  const node = chart.byId.get(t.stateId);
  if (!node) throw new Error(`paths: unsupported guard stateIn(#${t.stateId})`);
  return { op: 'in', node };
}

/** Compiles an XState guard of `chart`'s machine; a missing guard is `true`. */
export function compileGuard(g: unknown, chart: Chart): Guard {
  const term = parseGuard(g);
  return term ? compileTerm(term, chart) : { op: 'const', value: true };
}

/** Kleene evaluation of `g` in `config`, data guards read from `facts` (absent: unknown). */
export function evaluate(g: Guard, config: Config, facts: Facts): Truth {
  if (g.op === 'const') return g.value;
  if (g.op === 'atom') return facts.get(g.key);
  if (g.op === 'in') return isActive(config, g.node);
  const vs = g.args.map((a) => evaluate(a, config, facts));
  if (g.op === 'not') return vs[0] === undefined ? undefined : !vs[0];
  const dominant = g.op === 'or';
  if (vs.includes(dominant)) return dominant;
  return vs.includes(undefined) ? undefined : !dominant;
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
