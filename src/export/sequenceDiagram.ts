/**
 * A counterexample as a Mermaid `sequenceDiagram`: tenants, router, both schedulers and pools and
 * the transfer channel as lifelines; one note per step (`N · EVENT rid` and what changed inside
 * the actor), then its messages. The last step's decisive message sits in a red `rect` and is
 * followed by the failure note. The mapping from steps to messages is `sequenceMessages.ts`,
 * shared with the SVG drawing.
 */
import type { Trace } from '../checker/outcome.ts';
import { escapeMermaid } from './escape.ts';
import { type SequenceMessage, sequenceModel } from './sequenceMessages.ts';

/** What a counterexample is of: names and the property's one-sentence statement. */
export interface TraceMeta {
  readonly scenario: string;
  readonly variant: string;
  readonly property: string;
  readonly statement: string;
}

/** The background of the decisive message and of the failure note. */
export const failureFill = 'rgb(255, 220, 220)';

function noteText(lines: readonly string[]): string {
  return lines.map(escapeMermaid).join('<br/>');
}

function messageLine(m: SequenceMessage): string {
  return `  ${m.from}${m.reply ? '-->>' : '->>'}${m.to}: ${escapeMermaid(m.text)}`;
}

/**
 * The Mermaid source of `trace`: participants in the order tenants (as they appear), router,
 * prefill scheduler, prefill pool, transfer, decode scheduler, decode pool (then timer or fault
 * if they act); every label escaped with `escapeMermaid`. Deterministic: the same trace and
 * meta give the same text.
 */
export function toSequenceMermaid(trace: Trace, meta: TraceMeta): string {
  const model = sequenceModel(trace, meta.property);
  const first = model.participants[0]?.id ?? 'router';
  const lastId = model.participants.at(-1)?.id ?? first;
  const title = `✗ ${meta.property} in ${meta.scenario} × ${meta.variant}`;
  const lines = ['sequenceDiagram', `  title ${escapeMermaid(title)}`];
  for (const p of model.participants)
    lines.push(`  participant ${p.id} as ${escapeMermaid(p.label)}`);
  lines.push(
    `  Note over ${first},${lastId}: ${noteText([`${meta.property}: ${meta.statement}`])}`,
  );
  for (const step of model.steps) {
    lines.push(`  Note over ${step.over}: ${noteText(step.note)}`);
    for (const m of step.messages) {
      if (!m.decisive) lines.push(messageLine(m));
      else lines.push(`  rect ${failureFill}`, `  ${messageLine(m)}`, '  end');
    }
  }
  const failureNote = `  Note over ${model.failure.over.join(',')}: ${noteText([model.failure.text])}`;
  const decisive = model.steps.at(-1)?.messages.some((m) => m.decisive) ?? false;
  if (decisive) lines.push(failureNote);
  else lines.push(`  rect ${failureFill}`, `  ${failureNote}`, '  end');
  return `${lines.join('\n')}\n`;
}
