/**
 * What the prefill and decode sides of a request share: arrival, intake with the two length
 * limits, and the terminal states. Each side differs only in its lifecycle after intake (see
 * `prefillRegion.ts` and `decodeRegion.ts`) and in what admission starts: prefill creates a KV
 * sender, which opens the room.
 */
import { and } from 'xstate';
import { forRequest, notify, roomAccepted } from './regionIds.ts';
import type { NodeRole, RequestId } from './scenario.ts';
import type { RegionConfig } from './servingSetup.ts';

/** A side's lifecycle after intake, for an admitted prompt or a one-token placeholder. */
export type Lifecycle = (rid: RequestId, kind: 'admitted' | 'placeholder') => RegionConfig;

/**
 * The region of one side of request `rid`: `idle` until dispatch, `received` until intake, then
 * the tokenizer limit (a clean 400), the scheduler limit (retired with its 400 under
 * `admissionRetire`, else the placeholder path), or admission; `done` holds the final states.
 */
export function sideRegion(rid: RequestId, side: NodeRole, lifecycle: Lifecycle): RegionConfig {
  const p = { rid };
  const s = { rid, side } as const;
  const schedulerRejects = {
    type: side === 'prefill' ? 'prefillSchedulerRejects' : 'decodeSchedulerRejects',
    params: p,
  } as const;
  const opensRoom = side === 'prefill' ? [notify(rid, 'SENDER_CREATED')] : [];
  const reject = [
    { type: 'markRejected', params: s } as const,
    { type: 'replyError', params: { ...s, status: 400 } } as const,
  ];
  return {
    initial: 'idle',
    states: {
      idle: {
        on: {
          DISPATCH: {
            // The router may refuse the request before posting it (see `routerRegion.ts`).
            guard: and([forRequest(rid), roomAccepted(rid)]),
            target: 'received',
          },
        },
      },
      received: {
        on: {
          REQUEST_ABORTED: {
            guard: forRequest(rid),
            target: 'done.aborted',
            actions: { type: 'replyError', params: { ...s, status: 499 } },
          },
          [side === 'prefill' ? 'PREFILL_INTAKE' : 'DECODE_INTAKE']: [
            {
              guard: { type: 'tokenizerRejects', params: p },
              target: 'done.clientError',
              actions: reject,
            },
            {
              guard: and([schedulerRejects, 'admissionRetire']),
              target: 'done.retired',
              actions: reject,
            },
            {
              guard: schedulerRejects,
              target: 'placeholder',
              actions: [{ type: 'swapForPlaceholder', params: s } as const, ...opensRoom],
            },
            {
              guard: forRequest(rid),
              target: 'admitted',
              actions: [{ type: 'admit', params: s } as const, ...opensRoom],
            },
          ],
        },
      },
      admitted: lifecycle(rid, 'admitted'),
      placeholder: lifecycle(rid, 'placeholder'),
      done: {
        // Entered only through explicit targets; `initial` is required of a compound state.
        initial: 'finished',
        states: {
          clientError: { type: 'final', tags: ['rejected'] },
          retired: { type: 'final', tags: ['rejected'] },
          finished: { type: 'final' },
          failed: { type: 'final' },
          aborted: { type: 'final' },
        },
      },
    },
  };
}
