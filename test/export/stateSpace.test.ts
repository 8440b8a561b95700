/**
 * The reachable state graph as DOT, and `kvcheck state-space`: the incident projected onto b1's
 * lifecycle as a golden file, the size limit, and the command's input checks.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { properties } from '../../invariants/index.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import {
  type StateGraph,
  shortestPathToAny,
  stateGraphOf,
  violatingVertices,
} from '../../src/checker/stateGraph.ts';
import { runStateSpace, type StateSpaceArgs } from '../../src/cli/stateSpaceCommand.ts';
import { UsageError } from '../../src/cli/usageError.ts';
import { GraphTooLargeError, toStateSpaceDot } from '../../src/export/stateSpaceDot.ts';
import { incidentTrace } from './fixtures.ts';

let graph: StateGraph;
beforeAll(() => {
  graph = stateGraphOf(incident, variantNamed('incident-2026'));
});

function capture() {
  const out: string[] = [];
  return { out, io: { out: (t: string) => out.push(t), err: () => {}, colour: false } };
}

const base: StateSpaceArgs = {
  scenario: ['incident'],
  config: [],
  variant: ['incident-2026'],
  invariant: [],
  format: 'dot',
};

describe('toStateSpaceDot', () => {
  it('refuses the whole incident graph over 50 nodes, in one line that says what to do', () => {
    expect(() => toStateSpaceDot(graph, { maxNodes: 50 })).toThrow(GraphTooLargeError);
    try {
      toStateSpaceDot(graph, { maxNodes: 50 });
    } catch (e) {
      const message = e instanceof Error ? e.message : '';
      expect(message).toContain(`${graph.states.length} nodes`);
      expect(message).toContain('limit of 50');
      expect(message).toContain('--project <rid>');
      expect(message).not.toContain('\n');
    }
  });

  it('draws every vertex of a small graph, initial state marked', () => {
    const small: StateGraph = {
      states: graph.states.slice(0, 2),
      edges: [[{ event: { type: 'DISPATCH', rid: 'a1' }, to: 1 }], []],
      expanded: [true, true],
    };
    const dot = toStateSpaceDot(small, { violating: new Set([1]), path: [0, 1] });
    expect(dot).toContain('n0 [label="a1 P:idle T:unopened D:idle R:idle\\lb1 P:idle');
    expect(dot).toContain('peripheries=2');
    expect(dot).toContain('__start -> n0;');
    expect(dot).toMatch(/n1 \[[^\]]*fillcolor/);
    expect(dot).toContain('n0 -> n1 [label="DISPATCH a1", color="#1f5fbf"');
  });

  it('refuses a projection onto a request the graph does not have', () => {
    expect(() => toStateSpaceDot(graph, { project: 'zz' })).toThrow(/accepted: a1, b1/);
  });
});

describe('violating vertices and the path to them', () => {
  it('agree with the checker’s shortest counterexample', () => {
    const prop = properties.noCrossTenantRead;
    if (!prop) throw new Error('missing property');
    const violating = violatingVertices(graph, [prop]);
    const path = shortestPathToAny(graph, violating);
    expect(path[0]).toBe(0);
    expect(path).toHaveLength(incidentTrace('noCrossTenantRead').trace.steps.length + 1);
    expect(violating.has(path.at(-1) ?? -1)).toBe(true);
  });
});

describe('runStateSpace', () => {
  // incident × incident-2026 has violating states: exit 1, and the drawing is written anyway.
  it('matches the golden DOT of incident × incident-2026 projected onto b1', async () => {
    const { out, io } = capture();
    expect(await runStateSpace({ ...base, project: 'b1' }, io)).toBe(1);
    const dot = out.join('');
    expect(dot).toMatchSnapshot();
    expect(dot).toContain('penwidth=2.5');
    expect(dot).toContain('fillcolor');
  });

  it('draws the same graph with either engine', async () => {
    const fast = capture();
    const graph = capture();
    expect(await runStateSpace({ ...base, project: 'b1' }, fast.io)).toBe(1);
    expect(await runStateSpace({ ...base, project: 'b1', engine: 'graph' }, graph.io)).toBe(1);
    expect(graph.out.join('')).toBe(fast.out.join(''));
  });

  it('writes the DOT into the folder --out, and prints its path', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kvcheck-')), 'graphs');
    const file = join(dir, 'incident.incident-2026.b1.state-space.dot');
    const { out, io } = capture();
    const args = { ...base, project: 'b1', invariant: ['noCrossTenantRead'], out: dir };
    expect(await runStateSpace(args, io)).toBe(1);
    expect(out).toEqual([`${file}\n`]);
    // The title names the property the drawing checks, with counts as everywhere else.
    expect(readFileSync(file, 'utf8')).toMatch(
      /^digraph "incident × incident-2026: 2,195 reachable states; violated: noCrossTenantRead"/,
    );
  });

  it('renders SVG through Graphviz with --format svg', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kvcheck-'));
    const file = join(dir, 'incident.incident-2026.b1.state-space.svg');
    const args = { ...base, project: 'b1', format: 'svg', out: dir };
    expect(await runStateSpace(args, capture().io)).toBe(1);
    const svg = readFileSync(file, 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('PREFILL_INTAKE');
  });

  it.each<[string, Partial<StateSpaceArgs>, RegExp]>([
    ['two scenarios', { scenario: ['incident', 'band'] }, /exactly one scenario.*got 2/],
    ['no scenario', { scenario: [] }, /exactly one scenario.*none given/],
    ['no variant', { variant: [] }, /exactly one variant.*none given/],
    [
      'an unknown request',
      { project: 'c9' },
      /unknown --project request id "c9"; accepted: a1, b1/,
    ],
    ['an unknown format', { format: 'png' }, /unknown format "png"; accepted: dot, svg/],
    ['an unknown property', { invariant: ['nope'] }, /unknown invariant "nope"/],
    ['a bad --max-nodes', { maxNodes: '0' }, /--max-nodes: must be a whole number >= 1/],
    ['a graph over --max-nodes', { maxNodes: '50' }, /2195 nodes, more than the limit of 50/],
  ])('refuses %s with a UsageError', async (_, change, message) => {
    const { io } = capture();
    const error = await runStateSpace({ ...base, ...change }, io).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: expect.stringMatching(message) });
  });
});
