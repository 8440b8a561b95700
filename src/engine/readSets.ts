/**
 * Which invariants a step can change (`ExploreOptions.reads`): each invariant names the words of
 * the vector context and the state nodes it reads, and a new state need be checked only against
 * the invariants that read something in which it differs from the state it was reached from.
 * The others hold there as they held in that state: an invariant is a function of what it reads,
 * and the search checked the parent against every invariant not yet violated (by induction, the
 * parent's verdicts are exact). The words that differ come from the fingerprint, which finds
 * them anyway (`StateStore.changedCount`); the state nodes are compared only when the step
 * changed the configuration.
 */
import { type CompiledMachine, nodePaths } from './compiledMachine.ts';
import type { ConfigView } from './configView.ts';
import type { InvariantReads } from './types.ts';

/**
 * Invariants beyond this many (of a run's list) are checked on every state: the due bits are one
 * int32, as `failing` takes one word of `checksPerWord` verdicts (`search.ts`).
 */
const tracked = 32;

/** `n` and every node below it. */
function subtree(m: CompiledMachine, n: number): number[] {
  const out = [n];
  for (let i = 0; i < out.length; i++) out.push(...(m.children[out[i] as number] ?? []));
  return out;
}

/** The invariants each word and each state node of a run is read by, as bits (see the module doc). */
export class ReadSets {
  /** Per word index, the bits of the invariants that read it. */
  private readonly byWord: Int32Array;
  /** Per state node, the bits of the invariants that read its activity. */
  private readonly byNode: Int32Array;
  /** The state nodes some invariant reads. */
  private readonly nodes: Int32Array;
  /** Bits of the invariants (of the first 32) checked on every state: those `reads` does not name. */
  private readonly always: number;
  /** Bits of the invariants that read some state node (all due when `done` changes). */
  private readonly configuration: number;

  /**
   * `names`: the run's invariants in order; `reads`: what some of them read. Throws a
   * `TypeError` on a name that is not an invariant's or a state path the machine does not have.
   */
  constructor(
    m: CompiledMachine,
    names: readonly string[],
    reads: Readonly<Record<string, InvariantReads>>,
  ) {
    for (const name of Object.keys(reads)) {
      if (!names.includes(name)) {
        throw new TypeError(`explore: reads names ${name}, which is not an invariant`);
      }
    }
    const paths = nodePaths(m);
    const byPath = new Map(paths.map((p, n) => [p, n]));
    const maxWord = Math.max(-1, ...Object.values(reads).flatMap((r) => r.words));
    this.byWord = new Int32Array(maxWord + 1);
    this.byNode = new Int32Array(m.size);
    let always = 0;
    let configuration = 0;
    names.forEach((name, i) => {
      const r = reads[name];
      if (i >= tracked) return;
      const bit = 1 << i;
      if (r === undefined) {
        always |= bit;
        return;
      }
      for (const w of r.words) {
        if (!Number.isInteger(w) || w < 0) {
          throw new TypeError(`explore: reads of ${name}: ${w} is not a word index`);
        }
        this.byWord[w] = (this.byWord[w] as number) | bit;
      }
      for (const path of r.states) {
        const n = byPath.get(path);
        if (n === undefined || path === '') {
          throw new TypeError(`explore: reads of ${name}: the machine has no state node ${path}`);
        }
        for (const d of subtree(m, n)) this.byNode[d] = (this.byNode[d] as number) | bit;
        configuration |= bit;
      }
    });
    this.always = always;
    this.configuration = configuration;
    const read: number[] = [];
    this.byNode.forEach((bits, n) => {
      if (bits !== 0) read.push(n);
    });
    this.nodes = Int32Array.from(read);
  }

  /**
   * The bits of the first 32 invariants (bit i: the run's invariant i) to check on a state in
   * configuration `to` reached from one in `from`, whose words differ in
   * `changed[0 .. count)`; all bits (-1) when `count` is -1 (the words were not compared).
   */
  due(from: ConfigView, to: ConfigView, count: number, changed: Int32Array): number {
    if (count < 0) return -1;
    let bits = this.always;
    const byWord = this.byWord;
    const words = byWord.length;
    for (let k = 0; k < count; k++) {
      const w = changed[k] as number;
      if (w < words) bits |= byWord[w] as number;
    }
    if (from === to) return bits;
    if (from.done !== to.done) return bits | this.configuration;
    const a = from.flags;
    const b = to.flags;
    const nodes = this.nodes;
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k] as number;
      if (a[n] !== b[n]) bits |= this.byNode[n] as number;
    }
    return bits;
  }
}
