/**
 * The structural path check: which variants let a rejected request reach decoding, whatever the
 * scenario. Counts are pinned, as a regression record of the statecharts' shape; a soundness test
 * checks that the structural graph contains every step the reference checker takes.
 */
import { valuePath } from '../../invariants/vocabulary.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed, variants } from '../../machines/variants.ts';
import { band, incident } from '../../scenarios/index.ts';
import { stateGraphOf } from '../../src/checker/stateGraph.ts';
import {
  findPaths,
  type LifecyclePath,
  type PathsReport,
  renderPaths,
  UnknownStateError,
} from '../../src/paths/index.ts';
import { productGraph } from '../../src/paths/productGraph.ts';

const events = (p: LifecyclePath) => p.steps.map((s) => s.event);
const between = (r: PathsReport, from: string, to: string) =>
  r.paths.filter((p) => p.from === from && p.to === to);
const handshake = [
  'PREFILL_INTAKE',
  'DECODE_PREALLOC',
  'PREFILL_BOOTSTRAPPED',
  'PREFILL_FORWARD',
  'SEND_KV',
  'KV_WRITE_DONE',
  'DECODE_COMMIT',
];
const notPrealloc = (e: string) => e !== 'DECODE_PREALLOC';

describe('findPaths', () => {
  it('finds the placeholder path from rejection to decoding under incident-2026', () => {
    const found = between(
      findPaths(variantNamed('incident-2026')),
      'prefill.placeholder',
      'decode.admitted.running',
    );
    expect(found.length).toBeGreaterThan(0);
    // The shortest starts after DECODE_PREALLOC: decode preallocated and sent its destination
    // before prefill rejected the prompt, so the room waits for the sender prefill then opens.
    expect(events(found[0] as LifecyclePath)).toEqual(handshake.filter(notPrealloc));
    expect(found[0]?.steps[0]?.moves).toEqual([
      { region: 'prefill', from: 'received', to: 'placeholder.bootstrapping' },
      { region: 'transfer', from: 'awaitingSender', to: 'waitingForInput' },
    ]);
    expect(found.some((p) => events(p).join() === handshake.join())).toBe(true);
    const withIntake = found.find((p) => events(p).includes('DECODE_INTAKE'));
    expect(withIntake && events(withIntake)).toEqual([
      'PREFILL_INTAKE',
      'DECODE_INTAKE',
      ...handshake.slice(1),
    ]);
  });

  it('keeps the handshake order on every path from the prefill placeholder', () => {
    for (const p of findPaths(variantNamed('incident-2026'), { from: ['prefill.placeholder'] })
      .paths) {
      const order = events(p).filter((e) => handshake.includes(e));
      expect([handshake, handshake.filter(notPrealloc)]).toContainEqual(order);
    }
  });

  it.each(['fixed', 'fixed-coverage'])('finds no path under %s', (name) => {
    expect(findPaths(variantNamed(name)).paths).toEqual([]);
  });

  it('finds no path from the prefill placeholder under retire-only, whose SEND_KV is retired', () => {
    expect(findPaths(variantNamed('retire-only'), { from: ['prefill.placeholder'] }).paths).toEqual(
      [],
    );
  });

  it('finds no path from the decode placeholder under retire-only: it ends at commit', () => {
    // #36988 retires aborted prefill results only. With admission retire off, a prompt that only
    // decode's (smaller) pool rejects becomes a one-token decode placeholder; it is committed,
    // but `process_batch_result_prebuilt` promotes its pending abort before any decode step.
    const r = findPaths(variantNamed('retire-only'), { from: ['decode.placeholder'] });
    expect(r.paths).toEqual([]);
    const committed = findPaths(variantNamed('retire-only'), {
      from: ['decode.placeholder'],
      to: ['decode.done.aborted'],
    });
    expect(committed.paths.some((p) => p.steps.at(-1)?.event === 'DECODE_COMMIT')).toBe(true);
  });

  it('finds paths under coverage-only from the prefill placeholder only', () => {
    // From the prefill placeholder to an admitted decode the check reads `coverageIncomplete`, a
    // data guard the structural check leaves open: it fails only when the prompt itself is one
    // token, a degenerate deployment, but structurally the edge exists.
    const r = findPaths(variantNamed('coverage-only'));
    expect(between(r, 'prefill.placeholder', 'decode.admitted.running').length).toBeGreaterThan(0);
    expect(r.paths.every((p) => p.from === 'prefill.placeholder')).toBe(true);
  });

  it('pins the configurations and paths of every built-in variant', () => {
    const counts = variants.map((v) => {
      const r = findPaths(v);
      return [v.name, r.configurations, r.paths.length, r.truncated];
    });
    expect(counts).toEqual([
      ['incident-2026', 193, 6, false],
      ['fixed', 146, 0, false],
      ['fixed-coverage', 146, 0, false],
      ['retire-only', 180, 0, false],
      ['coverage-only', 193, 6, false],
    ]);
  });

  it('defaults to every state tagged rejected and every state tagged decoding', () => {
    const r = findPaths(variantNamed('fixed'));
    expect(r.from).toEqual([
      'prefill.placeholder',
      'prefill.done.clientError',
      'prefill.done.retired',
      'decode.placeholder',
      'decode.done.clientError',
      'decode.done.retired',
    ]);
    expect(r.to).toEqual(['decode.admitted.running']);
    expect([r.fromLabel, r.toLabel]).toEqual(['a rejected state', 'a decoding state']);
  });

  it('starts each path with the step that enters its from-state and stops at the first to-state', () => {
    for (const p of findPaths(variantNamed('incident-2026')).paths) {
      const [region, ...rest] = p.from.split('.');
      const entered = p.steps[0]?.moves.find((m) => m.region === region);
      expect(entered?.to.startsWith(rest.join('.'))).toBe(true);
      const decode = p.steps.flatMap((s) => s.moves).filter((m) => m.region === 'decode');
      expect(decode.filter((m) => m.to.endsWith('running'))).toHaveLength(1);
      expect(`decode.${decode.at(-1)?.to}`).toBe(p.to);
    }
  });

  it('gives each path the configuration it starts from, where the first step’s moves begin', () => {
    const report = findPaths(variantNamed('incident-2026'));
    for (const p of report.paths) {
      expect(Object.keys(p.start)).toEqual(['router', 'prefill', 'transfer', 'decode']);
      for (const m of p.steps[0]?.moves ?? []) expect(p.start[m.region]).toBe(m.from);
      const [region, ...rest] = p.from.split('.');
      expect(p.start[region ?? '']?.startsWith(rest.join('.'))).toBe(false);
    }
    const shortest = between(report, 'prefill.placeholder', 'decode.admitted.running')[0];
    expect(shortest?.start).toEqual({
      router: 'awaiting',
      prefill: 'received',
      transfer: 'awaitingSender',
      decode: 'admitted.awaitingKv',
    });
  });

  it('returns paths shortest first, then by events, without duplicates', () => {
    const { paths } = findPaths(variantNamed('incident-2026'));
    const keys = paths.map((p) => [p.steps.length, events(p).join(' ')] as const);
    const sorted = [...keys].sort(
      (a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
    );
    expect(keys).toEqual(sorted);
    expect(new Set(paths.map((p) => JSON.stringify(p.steps))).size).toBe(paths.length);
  });

  it('keeps the shortest paths and flags truncation when maxPaths caps the search', () => {
    const all = findPaths(variantNamed('incident-2026'));
    const capped = findPaths(variantNamed('incident-2026'), { maxPaths: 2 });
    expect(capped.paths).toEqual(all.paths.slice(0, 2));
    expect([capped.truncated, all.truncated]).toEqual([true, false]);
  });

  it('matches a custom from-state by its descendants too', () => {
    const r = findPaths(variantNamed('incident-2026'), {
      from: ['prefill.placeholder.forwarded'],
      to: ['decode.admitted'],
    });
    expect(r.fromLabel).toBe('prefill.placeholder.forwarded');
    expect(r.paths.length).toBeGreaterThan(0);
    for (const p of r.paths) expect(p.steps[0]?.event).toBe('PREFILL_FORWARD');
  });

  it('rejects an unknown state path, naming it and listing the accepted ones', () => {
    const call = () => findPaths(variantNamed('fixed'), { to: ['decode.runing'] });
    expect(call).toThrow(UnknownStateError);
    expect(call).toThrow(
      /unknown state "decode\.runing"; accepted states: router\.idle, .*decode\.admitted\.running/,
    );
  });
});

describe('renderPaths', () => {
  it('prints a violation headline, then the shortest path of each from → to pair as numbered steps', () => {
    const text = renderPaths(findPaths(variantNamed('incident-2026')));
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '[violation] incident-2026: 6 path(s) from a rejected state to a decoding state (checked 193 configurations)',
    );
    expect(lines).toContain(
      '  1. PREFILL_INTAKE  prefill: received → placeholder.bootstrapping; transfer: awaitingSender → waitingForInput',
    );
    expect(lines.filter((l) => l.endsWith('shortest path (6 steps):'))).toEqual([
      'prefill.placeholder → decode.admitted.running, shortest path (6 steps):',
    ]);
    const head = lines.indexOf(
      'prefill.placeholder → decode.admitted.running, shortest path (6 steps):',
    );
    expect(lines[head + 1]).toBe(
      '  starts in router awaiting, prefill received, transfer awaitingSender, decode admitted.awaitingKv',
    );
    expect(lines.at(-1)).toBe('… and 5 longer or reordered path(s) (use --json)');
  });

  it('prints an ok headline with the number of configurations checked', () => {
    expect(renderPaths(findPaths(variantNamed('fixed')))).toBe(
      '[ok] fixed: no path from a rejected state to a decoding state (checked 146 configurations)',
    );
  });
});

/** Prefill admits what decode's smaller pool rejects: the decode-side placeholder is reachable. */
const decodeRejects: Scenario = {
  name: 'decode-rejects',
  description: 'Only decode’s scheduler rejects the prompt.',
  requests: [{ id: 'a', tenant: 'T', promptLen: 5, outputLen: 2 }],
  pageSize: 1,
  prefillPoolTokens: 20,
  decodePoolTokens: 10,
  contextLen: 20,
  reserve: 5,
  transferFaults: true,
  prefillChunks: 2,
  clientAborts: true,
  witnesses: [],
};

describe('productGraph', () => {
  it.each(variants.map((v) => [v.name, v] as const))(
    'contains every step the reference checker takes under %s',
    (_, v) => {
      const graph = productGraph(v);
      const edges = new Set(
        [...graph.edges].flatMap(([k, out]) => out.map((e) => `${k} ${e.event} ${e.target}`)),
      );
      const keyOf = (value: Readonly<Record<string, unknown>> | undefined) =>
        ['router', 'prefill', 'transfer', 'decode']
          .map((r) => `serving.r1.${r}.${valuePath(value?.[r])}`)
          .join('|');
      const missing: string[] = [];
      for (const scenario of [incident, band, decodeRejects]) {
        const g = stateGraphOf(scenario, v);
        g.states.forEach((s, i) => {
          for (const e of g.edges[i] ?? []) {
            const from = keyOf(s.value[e.event.rid]);
            const to = keyOf(g.states[e.to]?.value[e.event.rid]);
            const step = `${from} ${e.event.type} ${to}`;
            if (!graph.configs.has(from) || (from !== to && !edges.has(step))) missing.push(step);
          }
        });
      }
      expect(missing).toEqual([]);
    },
  );

  it('never enters a placeholder under fixed, although its guard repeats an open data guard', () => {
    const keys = [...productGraph(variantNamed('fixed')).configs.keys()];
    expect(keys.filter((k) => k.includes('placeholder'))).toEqual([]);
  });
});
