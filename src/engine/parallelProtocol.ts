/**
 * The messages between the parallel search's main thread (`parallel.ts`) and its worker threads
 * (`parallelWorker.ts`), and the layout of the integer records they carry.
 */
import type { WorkerRecipe } from './types.ts';

/** Main → worker, once: build the run. The worker answers `ready` (or `failed`). */
export interface InitMessage {
  readonly type: 'init';
  readonly recipe: WorkerRecipe;
}

/**
 * Main → worker: expand `count` states, the packed records back to back in `records`
 * (`stateRecords.ts`), and look their successors up in `table` (a `CompactStore`'s shared
 * table; absent: the last one sent). `spare`: buffers of the worker's earlier messages that the
 * main thread has merged, handed back for the worker to write its next messages into.
 */
export interface ExpandMessage {
  readonly type: 'expand';
  readonly seq: number;
  readonly count: number;
  readonly records: Uint8Array;
  /** Each record's words hashed (`hashWords`), two halves a state: the hint for its successors. */
  readonly hashes: Uint32Array;
  readonly table?: Uint32Array;
  readonly spare: readonly ArrayBuffer[];
}

/** Ints per expanded state in `ExpandedMessage.parents`. */
export const parentInts = 4;
/** Offsets in a parent record: enabled events, terminal verdicts, journal range. */
export const P = { enabled: 0, terminal: 1, journalFrom: 2, journalTo: 3 } as const;

/** Ints per enabled move in `ExpandedMessage.moves`. */
export const moveInts = 10;
/**
 * Offsets in a move record: the worker's event id (-1 unless the successor is a candidate:
 * only a new state's event is stored); the successor's fingerprint (high, low, as the
 * fingerprinter computed it); the byte offset of its record in `candidates`, or -1 when the
 * table held it already; the invariants it violates (bit i: invariant i); its orbit size; the
 * journal range its callbacks added; a candidate's words hashed (two halves), which go with
 * its record to the worker that expands it.
 */
export const M = {
  event: 0,
  high: 1,
  low: 2,
  candidate: 3,
  violated: 4,
  orbit: 5,
  journalFrom: 6,
  journalTo: 7,
  wordsA: 8,
  wordsB: 9,
} as const;

/**
 * Worker → main: the expansion of chunk `seq`, state by state in order (`parents`), each
 * followed by its enabled moves in event order (`moves`); the successors not found in the table
 * as packed state records, back to back (`candidates`, index -1); and what the worker's tables
 * gained since its last message: events (as JSON, in id order) and journal entries. Every array
 * is transferred.
 */
export interface ExpandedMessage {
  readonly type: 'expanded';
  readonly seq: number;
  readonly parents: Int32Array;
  readonly moves: Int32Array;
  readonly candidates: Uint8Array;
  readonly events: readonly string[];
  readonly journal: readonly string[];
}

/** Worker → main. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | ExpandedMessage
  | { readonly type: 'failed'; readonly message: string; readonly stack?: string };
