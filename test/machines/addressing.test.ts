/**
 * Every transition of a request's regions must be addressed to that request. XState takes every
 * enabled transition of a parallel state in one macrostep, so a transition guarded only by
 * `stateIn` or a switch also fires on another request's event (a bug the model once had:
 * PREFILL_BOOTSTRAPPED, PREFILL_RELEASE and a placeholder's SEND_KV moved both requests).
 */
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variants } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';

interface GuardLike {
  readonly type?: unknown;
  readonly params?: { readonly rid?: unknown };
  readonly guards?: readonly unknown[];
  readonly check?: unknown;
}

interface NodeLike {
  readonly path: readonly string[];
  readonly states: Readonly<Record<string, NodeLike>>;
  readonly transitions: ReadonlyMap<string, readonly { readonly guard?: unknown }[]>;
}

/** Whether `guard` is true only for events whose `rid` is `rid` (an `and` with such a part). */
function addressedTo(guard: unknown, rid: string): boolean {
  if (guard === undefined || typeof guard === 'string') return false;
  const g = guard as GuardLike;
  if (g.params?.rid === rid) return true;
  const isAnd = typeof guard === 'function' && g.check !== undefined && g.guards !== undefined;
  return isAnd && (g.guards ?? []).some((part) => addressedTo(part, rid)) && !isNot(guard);
}

function isNot(guard: unknown): boolean {
  return typeof guard === 'function' && (guard as { name?: string }).name === 'not';
}

function unaddressed(node: NodeLike): string[] {
  const out: string[] = [];
  const rid = node.path[0];
  if (rid !== undefined) {
    for (const [event, list] of node.transitions) {
      list.forEach((t, i) => {
        if (!addressedTo(t.guard, rid)) out.push(`${node.path.join('.')} ${event}[${i}]`);
      });
    }
  }
  for (const child of Object.values(node.states)) out.push(...unaddressed(child));
  return out;
}

describe.each(variants.map((v) => [v.name, v] as const))('the %s machine', (_, variant) => {
  it('guards every transition of a request with that request’s id', () => {
    const machine = createServingMachine(incident, variant);
    const root = machine.root as unknown as NodeLike;
    expect(unaddressed(root)).toEqual([]);
  });
});
