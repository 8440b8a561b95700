/**
 * The one place change records (`src/checker/change.ts`) become the sentences a reviewer reads
 * in a step table: the terminal, the reports, the ITF `changes` variable and the `text` of
 * `--json` all print these. Pure: a record in, a sentence out.
 */
import type { ChangeOf, KvWriter, TraceChange } from '../checker/outcome.ts';

const pollNames: Readonly<Record<string, string>> = {
  unopened: 'no room',
  awaitingSender: 'decode’s pages sent, no sender yet',
  abandoned: 'KVPoll Failed before any sender (decode aborted)',
  bootstrapping: 'KVPoll Bootstrapping',
  waitingForInput: 'KVPoll WaitingForInput',
  transferring: 'KVPoll Transferring',
  leased: 'prefill’s pages leased for decode’s READ (pull)',
  draining: 'KVPoll Failed, a write still in flight',
  success: 'KVPoll Success',
  failed: 'KVPoll Failed',
};

/** A transfer-region state by the room's KVPoll (`success` → `KVPoll Success`); others as given. */
export function kvPollName(state: string): string {
  return pollNames[state] ?? state;
}

/** `rid (tenant T)` for a writer (`?` for an unknown tenant), `nobody` for null. */
export function writerLabel(writer: KvWriter | null): string {
  return writer === null ? 'nobody' : `${writer.rid} (tenant ${writer.tenant ?? '?'})`;
}

function pageText(c: ChangeOf<'pageAllocated' | 'pageFreed'>): string {
  if (c.kind === 'pageAllocated') {
    const held = c.heldKvOf.length > 0 ? `, still holding KV of ${c.heldKvOf.join(', ')}` : '';
    return `${c.node} page ${c.page} allocated to ${c.rid}${held}`;
  }
  return c.cachedBy === null
    ? `${c.node} page ${c.page} freed by ${c.rid} (not scrubbed)`
    : `${c.node} page ${c.page} kept in the prefix cache, inserted by ${writerLabel(c.cachedBy)}`;
}

function replyText(c: ChangeOf<'reply'>): string {
  const label = c.side === 'client' ? 'client gets' : `${c.side} replies`;
  return `${c.rid} ${label} ${c.status} (${c.tokens} token(s))`;
}

/** The sentence of one change record, as kvcheck has always printed it. */
export function changeText(c: TraceChange): string {
  switch (c.kind) {
    case 'regionMoved':
      return `${c.rid} ${c.region}: ${c.from} → ${c.to}`;
    case 'roomPoll':
      return `${c.rid} room: ${kvPollName(c.from)} → ${kvPollName(c.to)}`;
    case 'placeholderSwapped':
      return `${c.rid} prompt swapped for a 1-token placeholder on ${c.side}`;
    case 'abortPending':
      return `${c.rid}: prefill hit an error; the abort is pending (to_finish)`;
    case 'kvArrived':
      return `${c.rid}: ${c.positions} position(s) of KV arrived on decode`;
    case 'committed':
      return `${c.rid} committed with seq_len ${c.seqLen}`;
    case 'auxSlotTaken':
      return `decode metadata slot ${c.slot} taken by ${c.rid}`;
    case 'auxSlotFreed':
      return `decode metadata slot ${c.slot} freed by ${c.rid} (room reset)`;
    case 'auxDataWritten':
      return `decode metadata slot ${c.slot} now holds the aux data of ${c.rid}`;
    case 'foreignFirstToken':
      return `${c.rid} takes its first token from aux data written for another room`;
    case 'releaseDeferred':
      return `${c.rid} decode pages kept until the in-flight write drains`;
    case 'kvOffloaded':
      return `${c.rid} retracted: KV of ${c.positions} position(s) copied to host, its decode pages freed`;
    case 'kvLoaded':
      return `${c.rid} resumed: KV of ${c.positions} position(s) loaded back from host`;
    case 'prefixReused':
      return `${c.rid} reuses prefill cache page(s) ${c.pages.join(', ')} (locked)`;
    case 'pageAllocated':
    case 'pageFreed':
      return pageText(c);
    case 'slotWritten': {
      const at = c.slot === null ? '' : ` slot ${c.slot}`;
      return `${c.node} page ${c.page}${at} written by ${writerLabel(c.writer)} (was ${c.was ?? 'never written'})`;
    }
    case 'slotRead': {
      const mark = c.foreign ? ' ← another tenant’s KV' : '';
      return `${c.rid} reads ${c.node} page ${c.page}, last written by ${writerLabel(c.writer)}${mark}`;
    }
    case 'reply':
      return replyText(c);
  }
}
