/**
 * Static structure of a machine: ancestry, transition domains and entry sets, computed once per
 * transition with XState 5.33.3's own algorithms (`getTransitionDomain`, `computeEntrySet`,
 * `addDescendantStatesToEnter`, `addAncestorStatesToEnter`), minus history, which the subset
 * refuses. Without history an entry set does not depend on the configuration, so it can be
 * precomputed; exit sets do depend on it and are computed at run time from the domain.
 *
 * A domain of -1 stands for XState's `undefined` domain (a reentering transition whose sources
 * and targets have no common proper ancestor); XState's `isDescendant(x, undefined)` is true for
 * every node, the root included, and so is `isDescendant(x, -1)` here.
 */
import type { NodeSpec } from './machineSpec.ts';

/** Node orders, parents and children, with XState's ancestry predicates. */
export class Structure {
  constructor(readonly nodes: readonly NodeSpec[]) {}

  private node(n: number): NodeSpec {
    const node = this.nodes[n];
    if (!node) throw new Error(`no state node with order ${n}`);
    return node;
  }

  /** XState's `isDescendant`: strict descendant; everything descends from -1. */
  isDescendant(child: number, ancestor: number): boolean {
    if (ancestor === -1) return true;
    for (let m = this.node(child).parent; m !== -1; m = this.node(m).parent) {
      if (m === ancestor) return true;
    }
    return false;
  }

  /** XState's `getProperAncestors(n, to)`: parents of `n` up to, excluding, `to` (-1: all). */
  properAncestors(n: number, to: number): number[] {
    const out: number[] = [];
    if (n === to) return out;
    for (let m = this.node(n).parent; m !== -1 && m !== to; m = this.node(m).parent) out.push(m);
    return out;
  }

  /** XState's `findLeastCommonAncestor`: -1 when there is none. */
  leastCommonAncestor(ns: readonly number[]): number {
    const [head, ...tail] = ns;
    if (head === undefined) return -1;
    for (const anc of this.properAncestors(head, -1)) {
      if (tail.every((n) => this.isDescendant(n, anc))) return anc;
    }
    return -1;
  }

  /** XState's `getTransitionDomain` (no history). */
  domain(source: number, targets: readonly number[], reenter: boolean): number {
    if (!reenter && targets.every((t) => t === source || this.isDescendant(t, source))) {
      return source;
    }
    const lca = this.leastCommonAncestor([...targets, source]);
    if (lca !== -1) return lca;
    return reenter ? -1 : 0;
  }

  /** XState's `computeEntrySet` for one transition, sorted in entry (document) order. */
  entrySet(source: number, targets: readonly number[], reenter: boolean): number[] {
    const enter = new Set<number>();
    const domain = this.domain(source, targets, reenter);
    for (const s of targets) {
      if (source !== s || source !== domain || reenter) enter.add(s);
      this.addDescendants(s, enter);
    }
    const rootReenter = this.node(source).parent === -1 && reenter;
    for (const s of targets) {
      const ancestors = this.properAncestors(s, domain);
      if (domain !== -1 && this.node(domain).kind === 'parallel') ancestors.push(domain);
      this.addAncestors(ancestors, rootReenter ? -1 : domain, enter);
    }
    return [...enter].sort((a, b) => a - b);
  }

  private hasEntryBelow(child: number, enter: Set<number>): boolean {
    for (const s of enter) if (this.isDescendant(s, child)) return true;
    return false;
  }

  private addDescendants(n: number, enter: Set<number>): void {
    const node = this.node(n);
    if (node.kind === 'compound') {
      enter.add(node.initial);
      this.addDescendants(node.initial, enter);
    } else if (node.kind === 'parallel') {
      for (const child of node.children) {
        if (this.hasEntryBelow(child, enter)) continue;
        enter.add(child);
        this.addDescendants(child, enter);
      }
    }
  }

  private addAncestors(ancestors: readonly number[], domain: number, enter: Set<number>): void {
    for (const anc of ancestors) {
      if (domain === -1 || this.isDescendant(anc, domain)) enter.add(anc);
      const node = this.node(anc);
      if (node.kind !== 'parallel') continue;
      for (const child of node.children) {
        if (this.hasEntryBelow(child, enter)) continue;
        enter.add(child);
        this.addDescendants(child, enter);
      }
    }
  }
}

/** XState's `matchesEventDescriptor`: exact, `*`, or a `prefix.*` partial descriptor. */
export function matchesEventDescriptor(eventType: string, descriptor: string): boolean {
  if (descriptor === eventType || descriptor === '*') return true;
  if (!descriptor.endsWith('.*')) return false;
  const partial = descriptor.split('.');
  const tokens = eventType.split('.');
  for (let i = 0; i < partial.length; i++) {
    if (partial[i] === '*') return i === partial.length - 1;
    if (partial[i] !== tokens[i]) return false;
  }
  return true;
}
