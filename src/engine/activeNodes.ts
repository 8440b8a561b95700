/**
 * Active state nodes of a snapshot from either engine, so that one `events` function serves
 * `explore` and `xstate/graph`: this engine's snapshots carry them as `activeNodes`, XState's
 * snapshots are read by the one module that reads XState internals.
 */
import type { AnyMachineSnapshot } from 'xstate';
import type { ActiveNode, SnapshotLike } from './types.ts';
import { xstateActiveNodes } from './xstateInternals.ts';

/**
 * A snapshot of either engine: this engine's `SnapshotLike`, or an XState machine snapshot (what
 * `getAdjacencyMap` from `xstate/graph` hands to its `events` function).
 */
export type AnySnapshot = SnapshotLike<unknown> | AnyMachineSnapshot;

/**
 * The active state nodes of `snapshot`, in document order, as `ActiveNode`s: equal paths and
 * own event types for the same configuration whichever engine made the snapshot. Do not mutate
 * them.
 */
export function activeNodesOf(snapshot: AnySnapshot): readonly ActiveNode[] {
  return 'activeNodes' in snapshot ? snapshot.activeNodes : xstateActiveNodes(snapshot);
}
