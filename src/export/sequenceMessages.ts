/**
 * A counterexample as a sequence of messages between the serving components, shared by the
 * Mermaid and the SVG sequence diagrams so that both always show the same thing. Everything is
 * derived from each step's actor, event, request and the stable sentence prefixes that
 * `src/checker/stepChanges.ts` writes; a sentence this module does not recognise becomes a line of
 * the step's note, never an error. Text here is raw: each renderer escapes it.
 */
import type { Trace, TraceStep } from '../checker/outcome.ts';
import { type Change, parseChange } from './changeSentences.ts';
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
}

function arrow(from: string, to: string, text: string, reply = false): Route {
  return { from, to, text, reply };
}

/** Where a change lands, who sends it, and the arrow's text; `from === to` makes it a note line. */
function route(ctx: Context, actor: string, c: Change): Route {
  const sched = (node: string) => idOf(ctx, `${node} scheduler`);
  const pool = (node: string) => idOf(ctx, `${node} pool`);
  const router = idOf(ctx, 'router');
  const transfer = idOf(ctx, 'transfer');
  const poolOp = (node: string, text: string) =>
    arrow(actor === sched(node) || actor === transfer ? actor : sched(node), pool(node), text);
  switch (c.kind) {
    case 'region':
      return arrow(actor, c.region === 'router' ? router : sched(c.region), c.text);
    case 'room':
      return arrow(actor, transfer, `${c.rid} room → ${c.to}`);
    case 'swap':
      return arrow(actor, sched(c.node), c.text);
    case 'arrived':
    case 'committed':
      return arrow(actor, sched('decode'), c.text);
    case 'allocated': {
      const holding = c.holding === '' ? '' : `, still holding KV of ${c.holding}`;
      return poolOp(c.node, `allocate page ${c.page} to ${c.rid}${holding}`);
    }
    case 'freed':
      return poolOp(c.node, `free page ${c.page} (${c.rid}, not scrubbed)`);
    case 'written': {
      const slot = c.slot === '' ? '' : ` slot ${c.slot}`;
      const was = c.was === 'never written' ? '' : `, was ${c.was}`;
      return poolOp(c.node, `write page ${c.page}${slot} (${c.writer.split(' ')[0]}${was})`);
    }
    case 'read': {
      const text = `${c.rid} reads page ${c.page} ← ${c.writer}${c.foreign ? ' ✗ another tenant' : ''}`;
      return arrow(sched(c.node), pool(c.node), text);
    }
    case 'reply':
      return arrow(
        sched(c.side),
        router,
        `${c.rid} replies ${c.status} (${c.tokens} token(s))`,
        true,
      );
    case 'client':
      return arrow(
        router,
        tenantId(ctx, c.rid),
        `${c.rid}: ${c.status} (${c.tokens} token(s))`,
        true,
      );
    case 'other':
      return arrow(actor, actor, c.text);
  }
}

/** The first participant a change lands on: whom a timer or fault acts on. */
function firstTarget(ctx: Context, changes: readonly Change[]): string | null {
  const first = changes.find((c) => c.kind !== 'other');
  return first ? route(ctx, '', first).to : null;
}

type Routed = Route & { readonly change: Change };

/** An allocation followed by the same request's write of the whole page becomes one arrow. */
function mergeAllocateWrite(routed: readonly Routed[]): Routed[] {
  const dropped = new Set<number>();
  const out = routed.map((r) => {
    const c = r.change;
    if (c.kind !== 'allocated' || c.holding !== '') return r;
    const j = routed.findIndex(
      ({ change: w }) =>
        w.kind === 'written' &&
        w.node === c.node &&
        w.page === c.page &&
        w.slot === '' &&
        w.writer.startsWith(`${c.rid} `),
    );
    if (j < 0) return r;
    dropped.add(j);
    return { ...r, text: `allocate + write page ${c.page} (${c.rid})` };
  });
  return out.filter((_, i) => !dropped.has(i));
}

/** One step's note and messages; `decisiveStep` marks what breaks the property. */
function stepModel(ctx: Context, s: TraceStep, decisiveStep: boolean): SequenceStep {
  const changes = s.changes.map(parseChange);
  const acting = idOf(ctx, s.actor);
  const target = components.some((p) => p.id === acting) ? null : firstTarget(ctx, changes);
  const over = target ?? acting;
  const note = [`${s.step} · ${s.event} ${s.rid}`];
  const messages: SequenceMessage[] = [];
  const push = (from: string, to: string, text: string) =>
    messages.push({ from, to, text, reply: false, decisive: false });
  if (s.event === 'DISPATCH') push(tenantId(ctx, s.rid), acting, `request ${s.rid}`);
  if (target !== null) push(acting, target, `${s.event} ${s.rid}`);
  const routed = mergeAllocateWrite(
    changes.map((change) => ({ ...route(ctx, over, change), change })),
  );
  for (const r of routed) {
    if (r.from === r.to) {
      note.push('text' in r.change ? r.change.text : r.text);
      continue;
    }
    const foreign = r.change.kind === 'read' && r.change.foreign;
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
