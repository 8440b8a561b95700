/**
 * The compact fingerprint store: at most 16 bytes of memory per stored state, as TLC's
 * fingerprint set keeps its parent links on disk. Memory holds an open-addressing table of the
 * states' 64-bit fingerprints (two words a slot, (0, 0) empty, linear probing, grown by half
 * when it is four-fifths full, so between 10 and 15 bytes a state) and the latest block of 256
 * trace records (4 KiB). Each state's record (its fingerprint, its parent's index and the event that reached
 * it, 16 bytes) goes to a temporary file, a block at a time; the file is unlinked as soon as it
 * is open, so nothing is left behind, and closed by `dispose` (or when the store is collected).
 * A disposed store that wrote little keeps its file open for the thread's next store
 * (`spareFile`): a run's fixed cost is then a few writes, not a file made and dropped.
 *
 * It cannot tell which stored state a duplicate equals (`indexed` is false): runs that draw the
 * state graph (`onTransition`) keep the indexed `FingerprintStore`. Trace reconstruction asks
 * `isAt`, which compares a state's fingerprint with the one recorded at an index. It reads the
 * file back a block at a time and keeps the last `readBackBlocks` blocks it read, so the traces
 * of a run cost a few reads, not a read per step.
 */
import {
  closeSync,
  mkdtempSync,
  openSync,
  readSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Fingerprinted, type HashHint, type KeyedConfig, type StateStore } from './stateStore.ts';

/** Words of one trace record: fingerprint high, low, parent index, event. */
const recordWords = 4;
/** Records in the in-memory block (4 KiB), written to the file when full. */
const blockRecords = 256;
/**
 * Blocks of records read back from the file that a store keeps (256 KiB), so that the traces of
 * one run, which share their first steps and read each record's parent and event, read each
 * block once.
 */
const readBackBlocks = 64;
/** The table grows when more than this share of its slots is used. */
const maxLoad = 0.8;

const closeFile = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed by `dispose`.
  }
});

/**
 * A trace file a disposed store left open for the next one, or -1. At most `spareBytes` of it
 * hold old records, which the next store overwrites from the start: a store reads only the
 * records it wrote. The process's exit closes it, and the file, unlinked, is then gone.
 */
let spareFile = -1;

/** Largest trace file kept open for the next store (64 MiB: four million records). */
const spareBytes = 64 * 1024 * 1024;

/** An open, already unlinked temporary file for trace records: the spare one, or a new one. */
function traceFile(): number {
  if (spareFile !== -1) {
    const fd = spareFile;
    spareFile = -1;
    return fd;
  }
  const dir = mkdtempSync(join(tmpdir(), 'kvcheck-trace-'));
  const path = join(dir, 'records');
  const fd = openSync(path, 'w+');
  unlinkSync(path);
  rmdirSync(dir);
  return fd;
}

/** Compact fingerprint store: a fingerprint table in memory, trace records on disk. */
export class CompactStore extends Fingerprinted implements StateStore {
  size = 0;
  readonly indexed = false;
  private slots: Uint32Array;
  private capacity = 512;
  private readonly block = new Uint32Array(recordWords * blockRecords);
  /** Index of the first record in `block`; records below it are in the file. */
  private blockBase = 0;
  private fd = -1;
  /**
   * Blocks read back from the file, by block number, in the order they were read: at most
   * `readBackBlocks`, the first read leaving first. A block on disk never changes.
   */
  private readonly readBack = new Map<number, Uint32Array>();

  /**
   * `vector`: see `Fingerprinted`. `shared`: the table lives in a `SharedArrayBuffer`, so that
   * the search's worker threads can look fingerprints up in it (`table`, `tableHas`).
   */
  constructor(
    vector = false,
    private readonly shared = false,
  ) {
    super(vector);
    this.slots = this.newSlots(this.capacity);
  }

  add(config: KeyedConfig, context: unknown, parent: number, hint: HashHint): number {
    this.prints.of(config, context, hint);
    const h = this.fp[0] as number;
    return this.addFingerprint(h, this.fp[1] as number, parent);
  }

  /**
   * Adds the state whose 64-bit fingerprint is (`h`, `l`), reached from `parent`: its new index,
   * or -1 when the fingerprint is stored already.
   */
  addFingerprint(h: number, l0: number, parent: number): number {
    const l = fingerprintLow(h, l0);
    const slot = this.slotOf(h, l);
    if (this.slots[2 * slot + 1] !== 0) return -1;
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = l;
    const index = this.size++;
    this.record(index, h, l, parent);
    if (this.size > this.capacity * maxLoad) this.grow();
    return index;
  }

  /** Whether the fingerprint (`h`, `l`) is stored. */
  hasFingerprint(h: number, l: number): boolean {
    return tableHas(this.slots, h, l);
  }

  has(config: KeyedConfig, context: unknown): boolean {
    this.prints.of(config, context, null);
    return this.hasFingerprint(this.fp[0] as number, this.fp[1] as number);
  }

  /**
   * The fingerprint table as it is now (shared when the store was made `shared`): read it with
   * `tableHas`. Growing replaces it, so a reader holding an older table sees fewer states.
   */
  table(): Uint32Array {
    return this.slots;
  }

  isAt(config: KeyedConfig, context: unknown, index: number): boolean {
    if (index < 0 || index >= this.size) return false;
    this.prints.of(config, context, null);
    const h = this.fp[0] as number;
    const r = this.read(index);
    return r[0] === h && r[1] === fingerprintLow(h, this.fp[1] as number);
  }

  setEvent(index: number, event: number): void {
    if (index < this.blockBase) throw new RangeError(`record ${index} is already on disk`);
    this.block[recordWords * (index - this.blockBase) + 3] = event;
  }

  parentOf(index: number): number {
    return index <= 0 || index >= this.size ? -1 : (this.read(index)[2] as number) | 0;
  }

  eventOf(index: number): number {
    return index < 0 || index >= this.size ? 0 : (this.read(index)[3] as number);
  }

  /**
   * The table and the block being filled. Blocks read back to rebuild traces (at most
   * `readBackBlocks`, whatever the size of the run) are not state storage and are not counted.
   */
  bytes(): number {
    return this.slots.byteLength + this.block.byteLength;
  }

  /** Bytes of trace records written to the temporary file. */
  diskBytes(): number {
    return this.blockBase * recordWords * 4;
  }

  /**
   * Gives the trace file up; the store can no longer rebuild traces from it. The file is
   * closed, or kept open for the thread's next store when it holds at most `spareBytes` and
   * none is kept yet.
   */
  dispose(): void {
    if (this.fd === -1) return;
    closeFile.unregister(this);
    this.readBack.clear();
    if (spareFile === -1 && this.diskBytes() <= spareBytes) spareFile = this.fd;
    else closeSync(this.fd);
    this.fd = -1;
  }

  /** The slot holding fingerprint (h, l), or the empty slot where it belongs. */
  private slotOf(h: number, l: number): number {
    return slotIn(this.slots, h, l);
  }

  private newSlots(capacity: number): Uint32Array {
    return this.shared
      ? new Uint32Array(new SharedArrayBuffer(8 * capacity))
      : new Uint32Array(2 * capacity);
  }

  private grow(): void {
    const old = this.slots;
    this.capacity = Math.ceil(this.capacity * 1.5);
    this.slots = this.newSlots(this.capacity);
    for (let k = 1; k < old.length; k += 2) {
      const l = old[k] as number;
      if (l === 0) continue;
      const h = old[k - 1] as number;
      const slot = this.slotOf(h, l);
      this.slots[2 * slot] = h;
      this.slots[2 * slot + 1] = l;
    }
  }

  private record(index: number, h: number, l: number, parent: number): void {
    if (index - this.blockBase >= blockRecords) this.flush();
    const w = recordWords * (index - this.blockBase);
    this.block[w] = h;
    this.block[w + 1] = l;
    this.block[w + 2] = parent;
    this.block[w + 3] = 0;
  }

  /** Writes the full block to the trace file and starts an empty one after it. */
  private flush(): void {
    if (this.fd === -1) {
      this.fd = traceFile();
      closeFile.register(this, this.fd, this);
    }
    const bytes = new Uint8Array(this.block.buffer, 0, this.block.byteLength);
    writeSync(this.fd, bytes, 0, bytes.length, this.blockBase * recordWords * 4);
    this.blockBase += this.block.length / recordWords;
    this.block.fill(0);
  }

  /**
   * The record of `index`, from the block being filled or from the file, which is read a whole
   * block at a time (valid until the next record is written).
   */
  private read(index: number): Uint32Array {
    if (index >= this.blockBase) {
      const w = recordWords * (index - this.blockBase);
      return this.block.subarray(w, w + recordWords);
    }
    const b = Math.floor(index / blockRecords);
    const w = recordWords * (index - b * blockRecords);
    return this.blockOnDisk(b).subarray(w, w + recordWords);
  }

  /** Block `b` of the file (the `b * blockRecords`th record on), read back or kept. */
  private blockOnDisk(b: number): Uint32Array {
    const kept = this.readBack.get(b);
    if (kept !== undefined) return kept;
    const block = new Uint32Array(recordWords * blockRecords);
    readSync(this.fd, new Uint8Array(block.buffer), 0, block.byteLength, b * block.byteLength);
    if (this.readBack.size >= readBackBlocks) {
      const oldest = this.readBack.keys().next();
      if (oldest.done !== true) this.readBack.delete(oldest.value);
    }
    this.readBack.set(b, block);
    return block;
  }
}

/**
 * Probes `slots` (a table of (high, low) pairs, linear probing from the slot the high word scales
 * to) for fingerprint (h, l): the slot holding it, or `-1 - slot` for the empty slot where it
 * belongs. Each slot's words are read once, so the answer is what the probe saw (see `tableHas`).
 */
function probe(slots: Uint32Array, h: number, l: number): number {
  const cap = slots.length >>> 1;
  let slot = Math.floor((h / 4294967296) * cap);
  for (;;) {
    const sl = slots[2 * slot + 1] as number;
    if (sl === 0) return -1 - slot;
    if (sl === l && slots[2 * slot] === h) return slot;
    slot = slot + 1 === cap ? 0 : slot + 1;
  }
}

/** The slot of `slots` holding fingerprint (h, l), or the empty slot where it belongs. */
function slotIn(slots: Uint32Array, h: number, l: number): number {
  const slot = probe(slots, h, l);
  return slot < 0 ? -1 - slot : slot;
}

/**
 * Whether the fingerprint (`h`, `l`), as the fingerprinter computed it, is in `slots`, a
 * `CompactStore`'s `table()`. A worker thread may read a shared table while the store adds to it:
 * a slot it finds empty may be filled a moment later, so a miss means only "not stored when
 * looked at", and a hit is a stored state. The answer is the probe's own: reading the empty
 * slot's word again, as this did until 2026-12-07, could find another state just written there
 * and call a new state stored, which lost it (and the moves from it) from a parallel search.
 */
export function tableHas(slots: Uint32Array, h: number, l: number): boolean {
  return probe(slots, h, fingerprintLow(h, l)) >= 0;
}

/** The low word of a fingerprint as stored: never 0, which marks an empty slot. */
function fingerprintLow(h: number, l: number): number {
  return l === 0 ? (h | 1) >>> 0 || 1 : l;
}
