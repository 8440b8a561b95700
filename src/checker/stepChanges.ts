/**
 * What one step changed, in sentences a reviewer reads in a step table: region states (the
 * room's KVPoll by name), page owners and last writers, attention reads and replies.
 */

import {
  regionPath,
  requestIds,
  type ServingState,
  tenantOf,
} from '../../invariants/vocabulary.ts';
import { type ExternalEvent, eventActor } from '../../machines/events.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import { nodeOwnerOf } from '../../machines/prefixCache.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import type { RegionSnapshot, Trace, TraceStep } from './outcome.ts';

const pollNames: Readonly<Record<string, string>> = {
  unopened: 'no room',
  bootstrapping: 'KVPoll Bootstrapping',
  waitingForInput: 'KVPoll WaitingForInput',
  transferring: 'KVPoll Transferring',
  draining: 'KVPoll Failed, a write still in flight',
  success: 'KVPoll Success',
  failed: 'KVPoll Failed',
};

/** Every region's state, by request and region. */
export function regionSnapshot(s: ServingState): RegionSnapshot {
  const out: Record<string, Record<string, string>> = {};
  for (const rid of requestIds(s)) {
    const regions: Record<string, string> = {};
    for (const region of requestRegions) regions[region] = regionPath(s, rid, region);
    out[rid] = regions;
  }
  return out;
}

function writerLabel(s: ServingState, rid: string | null): string {
  return rid === null ? 'nobody' : `${rid} (tenant ${tenantOf(s, rid) ?? '?'})`;
}

function poolChanges(node: string, a: PagePool, b: PagePool, next: ServingState): string[] {
  const out: string[] = [];
  for (let page = 0; page < b.owner.length; page++) {
    const was = a.owner[page] ?? null;
    const now = b.owner[page] ?? null;
    const slots = a.writer.slice(page * a.pageSize, (page + 1) * a.pageSize);
    if (was === null && now !== null) {
      const kept = slots.filter((w) => w !== null);
      const holds = kept.length ? `, still holding KV of ${[...new Set(kept)].join(', ')}` : '';
      out.push(`${node} page ${page} allocated to ${now}${holds}`);
    } else if (was !== null && now === null) {
      const cachedBy = node === 'prefill' ? nodeOwnerOf(next.context, page) : null;
      out.push(
        cachedBy === null
          ? `${node} page ${page} freed by ${was} (not scrubbed)`
          : `${node} page ${page} kept in the prefix cache, inserted by ${writerLabel(next, cachedBy)}`,
      );
    }
    for (let off = 0; off < b.pageSize; off++) {
      const slot = page * b.pageSize + off;
      const w0 = a.writer[slot] ?? null;
      const w1 = b.writer[slot] ?? null;
      if (w0 !== w1) {
        const at = b.pageSize > 1 ? ` slot ${off}` : '';
        out.push(
          `${node} page ${page}${at} written by ${writerLabel(next, w1)} (was ${w0 ?? 'never written'})`,
        );
      }
    }
  }
  return out;
}

/** What the optional mechanisms (aux slots, the prefix cache, deferred release) changed. */
function mechanismChanges(a: ServingState, b: ServingState, rid: string): string[] {
  const ra = a.context.requests[rid];
  const rb = b.context.requests[rid];
  if (!ra || !rb) return [];
  const out: string[] = [];
  if (rb.auxSlot !== ra.auxSlot && rb.auxSlot !== undefined && rb.auxSlot !== null)
    out.push(`decode metadata slot ${rb.auxSlot} taken by ${rid}`);
  if (rb.auxSlot !== ra.auxSlot && (rb.auxSlot ?? null) === null && ra.auxSlot != null)
    out.push(`decode metadata slot ${ra.auxSlot} freed by ${rid} (room reset)`);
  if (rb.auxIn !== ra.auxIn && rb.auxIn !== undefined && rb.auxIn !== null)
    out.push(`decode metadata slot ${rb.auxIn} now holds the aux data of ${rid}`);
  if (rb.firstTokenForeign && !ra.firstTokenForeign)
    out.push(`${rid} takes its first token from aux data written for another room`);
  if (rb.releaseDeferred && !ra.releaseDeferred)
    out.push(`${rid} decode pages kept until the in-flight write drains`);
  const locked = rb.prefixPages ?? [];
  if (locked.length > 0 && (ra.prefixPages ?? []).length === 0)
    out.push(`${rid} reuses prefill cache page(s) ${locked.join(', ')} (locked)`);
  return out;
}

/** The changes from `a` to `b`, one sentence each, in a fixed order. */
export function stepChanges(a: ServingState, b: ServingState): string[] {
  const out: string[] = [];
  for (const rid of requestIds(b)) {
    for (const region of requestRegions) {
      const was = regionPath(a, rid, region);
      const now = regionPath(b, rid, region);
      if (was === now) continue;
      if (region === 'transfer')
        out.push(`${rid} room: ${pollNames[was] ?? was} → ${pollNames[now] ?? now}`);
      else out.push(`${rid} ${region}: ${was} → ${now}`);
    }
    const ra = a.context.requests[rid];
    const rb = b.context.requests[rid];
    if (!ra || !rb) continue;
    if (rb.prefillLen === 1 && rb.rejectedOnPrefill && ra.prefillLen !== 1) {
      out.push(`${rid} prompt swapped for a 1-token placeholder on prefill`);
    }
    if (rb.decodeLen === 1 && rb.rejectedOnDecode && ra.decodeLen !== 1) {
      out.push(`${rid} prompt swapped for a 1-token placeholder on decode`);
    }
    // An abort recorded while prefill stays where it is: an error left pending (`to_finish`).
    const stays = (region: 'prefill' | 'decode') =>
      regionPath(a, rid, region) === regionPath(b, rid, region);
    if (rb.aborted && !ra.aborted && !rb.clientAborted && stays('prefill') && stays('decode')) {
      out.push(`${rid}: prefill hit an error; the abort is pending (to_finish)`);
    }
    if (rb.kvArrived !== ra.kvArrived)
      out.push(`${rid}: ${rb.kvArrived} position(s) of KV arrived on decode`);
    if (rb.committed && !ra.committed) out.push(`${rid} committed with seq_len ${rb.seqLen}`);
    out.push(...mechanismChanges(a, b, rid));
  }
  out.push(...poolChanges('prefill', a.context.prefillPool, b.context.prefillPool, b));
  out.push(...poolChanges('decode', a.context.decodePool, b.context.decodePool, b));
  for (const rid of requestIds(b)) {
    const ra = a.context.requests[rid];
    const rb = b.context.requests[rid];
    if (!ra || !rb) continue;
    for (const read of rb.reads.filter(
      (x) => !ra.reads.some((y) => y.node === x.node && y.page === x.page && y.writer === x.writer),
    )) {
      const foreign = read.writer !== null && tenantOf(b, read.writer) !== tenantOf(b, rid);
      const mark = foreign ? ' ← another tenant’s KV' : '';
      out.push(
        `${rid} reads ${read.node} page ${read.page}, last written by ${writerLabel(b, read.writer)}${mark}`,
      );
    }
    for (const [label, before, after] of [
      ['prefill replies', ra.prefillReply, rb.prefillReply],
      ['decode replies', ra.decodeReply, rb.decodeReply],
      ['client gets', ra.clientReply, rb.clientReply],
    ] as const) {
      if (after && after !== before)
        out.push(`${rid} ${label} ${after.status} (${after.tokens} token(s))`);
    }
  }
  return out;
}

/**
 * A trace told step by step: from `initial`, each event and the state it led to, with the
 * acting component, the request's tenant, what changed and where every region stands.
 */
export function traceFrom(
  initial: ServingState,
  path: readonly { readonly event: ExternalEvent; readonly state: ServingState }[],
  message: string,
): Trace {
  let prev = initial;
  const steps = path.map(({ event, state }, i): TraceStep => {
    const step = {
      step: i + 1,
      actor: eventActor[event.type],
      event: event.type,
      rid: event.rid,
      tenant: state.context.tenants[event.rid] ?? '?',
      changes: stepChanges(prev, state),
      regions: regionSnapshot(state),
    };
    prev = state;
    return step;
  });
  return { message, steps };
}
