/**
 * A counterexample as a sequence of messages between the serving components, shared by the
 * Mermaid and the SVG sequence diagrams so that both always show the same thing. Everything is
 * derived from each step's actor, event, request and change records; a change no arrow stands for
 * (a pending abort, an aux slot, a prefix-cache page) becomes a line of the step's note. Text
 * here is raw: each renderer escapes it.
 */
import type { Trace, TraceChange, TraceStep } from '../checker/outcome.ts';
import { changeText, kvPollName, writerLabel } from './changeText.ts';
import { mermaidId } from './escape.ts';

/** One lifeline: `id` is safe as a Mermaid or SVG identifier, `label` is raw display text. */
export interface Participant {
  readonly id: string;
  readonly label: string;
}

/** One arrow. `from` and `to` are participant ids and always differ. */
export interface SequenceMessage {
  readonly from: string;
  readonly to: string;
  readonly text: string;
  /** A reply (drawn dashed): a side's reply to the router, or the router's to the client. */
  readonly reply: boolean;
  /** Whether this message is what breaks the property (only in the last step). */
  readonly decisive: boolean;
}

/** One trace step: a note over the acting participant, then its messages in change order. */
export interface SequenceStep {
  readonly step: number;
  /** The participant the note stands over: the actor, or whom a timer or fault acted on. */
  readonly over: string;
  /** Note lines: `N · EVENT rid` first, then what changed inside `over` itself. */
  readonly note: readonly string[];
  readonly messages: readonly SequenceMessage[];
}

/** The whole diagram: lifelines in display order, steps, and the failure note of the last step. */
export interface SequenceModel {
  readonly participants: readonly Participant[];
  readonly steps: readonly SequenceStep[];
  /** `✗ property: message`, over one or two participant ids (the decisive message's ends). */
  readonly failure: { readonly text: string; readonly over: readonly string[] };
}

/** The fixed lifelines after the tenants, by actor name as `eventActor` spells it. */
const components: readonly Participant[] = [
  { id: 'router', label: 'router' },
  { id: 'prefillScheduler', label: 'prefill scheduler' },
  { id: 'prefillPool', label: 'prefill pool' },
  { id: 'transfer', label: 'transfer' },
  { id: 'decodeScheduler', label: 'decode scheduler' },
  { id: 'decodePool', label: 'decode pool' },
];
const byLabel = new Map(components.map((p) => [p.label, p.id]));
/** Words Mermaid's sequence grammar reserves: never used bare as a participant id. */
const reserved = new Set(
  `end title note loop alt opt par and else rect box critical break participant actor activate
   deactivate autonumber over left right of links link properties details create destroy`.split(
    /\s+/,
  ),
);

function uniqueId(base: string, used: Set<string>): string {
  let id = reserved.has(base) ? `${base}_` : base;
  for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
  used.add(id);
  return id;
}

interface Context {
  /** Participant id by actor label, `tenant:<name>` for tenants. */
  readonly ids: ReadonlyMap<string, string>;
  /** Tenant of each request id the trace mentions. */
  readonly tenants: ReadonlyMap<string, string>;
}

/** Lifelines of `trace`: its tenants (first appearance), the six components, then timer/fault. */
export function sequenceParticipants(trace: Trace): Participant[] {
  return participantsAndIds(trace).participants;
}

function participantsAndIds(trace: Trace): {
  participants: Participant[];
  ids: Map<string, string>;
} {
  const used = new Set(components.map((p) => p.id));
  const ids = new Map<string, string>(byLabel);
  const tenants: Participant[] = [];
  const extras: Participant[] = [];
  for (const s of trace.steps) {
    if (!ids.has(`tenant:${s.tenant}`)) {
      const id = uniqueId(mermaidId(`t${s.tenant}`), used);
      ids.set(`tenant:${s.tenant}`, id);
      tenants.push({ id, label: `Tenant ${s.tenant}` });
    }
    if (!ids.has(s.actor)) {
      const id = uniqueId(mermaidId(s.actor), used);
      ids.set(s.actor, id);
      extras.push({ id, label: s.actor });
    }
  }
  return { participants: [...tenants, ...components, ...extras], ids };
}

function idOf(ctx: Context, label: string): string {
  return ctx.ids.get(label) ?? label;
}

/** The lifeline of `rid`'s tenant; the router's for a request no step names (a note line then). */
function tenantId(ctx: Context, rid: string): string {
  return ctx.ids.get(`tenant:${ctx.tenants.get(rid)}`) ?? idOf(ctx, 'router');
}

interface Route {
  readonly from: string;
  readonly to: string;
  readonly text: string;
  readonly reply: boolean;
  /** The note line this change becomes when `from === to`. */
  readonly note: string;
}

function arrow(from: string, to: string, text: string, reply = false): Route {
  return { from, to, text, reply, note: text };
}

/** A pool operation: sent by the acting scheduler or the transfer, else by `node`'s scheduler. */
function poolOp(ctx: Context, actor: string, node: string, text: string): Route {
  const sched = idOf(ctx, `${node} scheduler`);
  const from = actor === sched || actor === idOf(ctx, 'transfer') ? actor : sched;
  return arrow(from, idOf(ctx, `${node} pool`), text);
}

/** The arrow of a page or slot change: allocation, free (to the free list), write, read. */
function pageRoute(ctx: Context, actor: string, c: TraceChange): Route | null {
  switch (c.kind) {
    case 'pageAllocated': {
      const held = c.heldKvOf.length === 0 ? '' : `, still holding KV of ${c.heldKvOf.join(', ')}`;
      return poolOp(ctx, actor, c.node, `allocate page ${c.page} to ${c.rid}${held}`);
    }
    case 'pageFreed':
      return c.cachedBy === null
        ? poolOp(ctx, actor, c.node, `free page ${c.page} (${c.rid}, not scrubbed)`)
        : null;
    case 'slotWritten': {
      const slot = c.slot === null ? '' : ` slot ${c.slot}`;
      const was = c.was === null ? '' : `, was ${c.was}`;
      const text = `write page ${c.page}${slot} (${c.writer?.rid ?? 'nobody'}${was})`;
      return poolOp(ctx, actor, c.node, text);
    }
    case 'slotRead': {
      const mark = c.foreign ? ' ✗ another tenant' : '';
      const text = `${c.rid} reads page ${c.page} ← ${writerLabel(c.writer)}${mark}`;
      return arrow(idOf(ctx, `${c.node} scheduler`), idOf(ctx, `${c.node} pool`), text);
    }
    default:
      return null;
  }
}

/**
 * Where a change lands, who sends it, and the arrow's text; `from === to` makes it a note line.
 * Null for a change no arrow stands for: its sentence is a note line.
 */
function route(ctx: Context, actor: string, c: TraceChange): Route | null {
  const sched = (node: string) => idOf(ctx, `${node} scheduler`);
  const router = idOf(ctx, 'router');
  switch (c.kind) {
    case 'regionMoved':
      return arrow(actor, c.region === 'router' ? router : sched(c.region), changeText(c));
    case 'roomPoll': {
      const to = arrow(actor, idOf(ctx, 'transfer'), `${c.rid} room → ${kvPollName(c.to)}`);
      return { ...to, note: changeText(c) };
    }
    case 'placeholderSwapped':
      return arrow(actor, sched(c.side), changeText(c));
    case 'kvArrived':
    case 'committed':
      return arrow(actor, sched('decode'), changeText(c));
    case 'reply': {
      const tokens = `${c.status} (${c.tokens} token(s))`;
      return c.side === 'client'
        ? arrow(router, tenantId(ctx, c.rid), `${c.rid}: ${tokens}`, true)
        : arrow(sched(c.side), router, `${c.rid} replies ${tokens}`, true);
    }
    default:
      return pageRoute(ctx, actor, c);
  }
}

/** The first participant a change lands on: whom a timer or fault acts on. */
function firstTarget(ctx: Context, changes: readonly TraceChange[]): string | null {
  for (const c of changes) {
    const r = route(ctx, '', c);
    if (r !== null) return r.to;
  }
  return null;
}

type Routed = Route & { readonly change: TraceChange };

/** The route of `change` from `over`, or a note line over `over` when no arrow stands for it. */
function routed(ctx: Context, over: string, change: TraceChange): Routed {
  const r = route(ctx, over, change);
  if (r !== null) return { ...r, change };
  const text = changeText(change);
  return { from: over, to: over, text, reply: false, note: text, change };
}

/** An allocation followed by the same request's write of the whole page becomes one arrow. */
function mergeAllocateWrite(routes: readonly Routed[]): Routed[] {
  const dropped = new Set<number>();
  const out = routes.map((r) => {
    const c = r.change;
    if (c.kind !== 'pageAllocated' || c.heldKvOf.length > 0) return r;
    const j = routes.findIndex(
      ({ change: w }) =>
        w.kind === 'slotWritten' &&
        w.node === c.node &&
        w.page === c.page &&
        w.slot === null &&
        w.writer?.rid === c.rid,
    );
    if (j < 0) return r;
    dropped.add(j);
    const text = `allocate + write page ${c.page} (${c.rid})`;
    return { ...r, text, note: text };
  });
  return out.filter((_, i) => !dropped.has(i));
}

/** One step's note and messages; `decisiveStep` marks what breaks the property. */
function stepModel(ctx: Context, s: TraceStep, decisiveStep: boolean): SequenceStep {
  const acting = idOf(ctx, s.actor);
  const target = components.some((p) => p.id === acting) ? null : firstTarget(ctx, s.changes);
  const over = target ?? acting;
  const note = [`${s.step} · ${s.event} ${s.rid}`];
  const messages: SequenceMessage[] = [];
  const push = (from: string, to: string, text: string) =>
    messages.push({ from, to, text, reply: false, decisive: false });
  if (s.event === 'DISPATCH') push(tenantId(ctx, s.rid), acting, `request ${s.rid}`);
  if (target !== null) push(acting, target, `${s.event} ${s.rid}`);
  const routes = mergeAllocateWrite(s.changes.map((change) => routed(ctx, over, change)));
  for (const r of routes) {
    if (r.from === r.to) {
      note.push(r.note);
      continue;
    }
    const foreign = r.change.kind === 'slotRead' && r.change.foreign;
    messages.push({
      from: r.from,
      to: r.to,
      text: r.text,
      reply: r.reply,
      decisive: decisiveStep && foreign,
    });
  }
  const last = messages.at(-1);
  if (decisiveStep && last && !messages.some((m) => m.decisive)) {
    messages[messages.length - 1] = { ...last, decisive: true };
  }
  return { step: s.step, over, note, messages };
}

/** The sequence model of `trace`; the failure note reads `✗ <property>: <trace.message>`. */
export function sequenceModel(trace: Trace, property: string): SequenceModel {
  const { participants, ids } = participantsAndIds(trace);
  const ctx: Context = { ids, tenants: new Map(trace.steps.map((s) => [s.rid, s.tenant])) };
  const steps = trace.steps.map((s, i) => stepModel(ctx, s, i === trace.steps.length - 1));
  const last = steps.at(-1);
  const decisive = last?.messages.find((m) => m.decisive);
  const over = decisive
    ? [decisive.from, decisive.to]
    : [last?.over ?? participants[0]?.id ?? 'router'];
  return { participants, steps, failure: { text: `✗ ${property}: ${trace.message}`, over } };
}
