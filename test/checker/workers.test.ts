/**
 * The parallel breadth-first search (`--workers`): with the level threshold and chunk size made
 * small, so that built-in scenarios hand their levels to worker threads, the result equals the
 * one-thread result in every field but the time: states, transitions, depth, verdicts,
 * shortest traces, witnesses, triggers and lifecycle coverage; with symmetry (whose
 * representatives must not depend on the thread) and under a state bound as well. The level
 * the workers take over at follows `from` and, once they have started, `early`. Options the
 * parallel search cannot honour are refused.
 */

import { describe, expect, it } from 'vitest';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { twins } from '../../scenarios/symmetric.ts';
import { checkAsync, workerRun } from '../../src/checker/check.ts';
import type { CheckOptions } from '../../src/checker/checkOptions.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { compileMachine } from '../../src/engine/compiledMachine.ts';
import { searching } from '../../src/engine/explore.ts';
import { exploreAsync } from '../../src/engine/index.ts';
import { initialState } from '../../src/engine/initialState.ts';
import type { WorkerPool } from '../../src/engine/parallel.ts';
import { Search } from '../../src/engine/search.ts';
import type { WorkerOptions } from '../../src/engine/types.ts';

/** Hand over any level of 8 states or more, 16 states to a message: many chunks, many merges. */
const eager = { workers: 2, workerLevels: { from: 8, chunk: 16 } } as const;

/** The result without its time, which is all that may differ between runs. */
function timeless(r: ScenarioResult): unknown {
  const { ms: _ms, ...stats } = r.stats;
  return { ...r, stats };
}

async function both(
  scenario: typeof incident,
  variant: string,
  options: CheckOptions = {},
): Promise<[ScenarioResult, ScenarioResult]> {
  const v = variantNamed(variant);
  const one = await checkAsync(scenario, v, options);
  const two = await checkAsync(scenario, v, { ...options, ...eager });
  return [one, two];
}

describe('two workers give the one-thread result', () => {
  it('on the incident under incident-2026: the leak, its shortest trace, every count', async () => {
    const [one, two] = await both(incident, 'incident-2026');
    expect(two.status).toBe('violation');
    expect(two.stats).toMatchObject({ states: 2195, transitions: 4244, depth: 26 });
    const leak = two.properties.find((p) => p.name === 'noCrossTenantRead');
    expect(leak?.status).toBe('violated');
    expect(leak?.trace?.steps.length).toBeGreaterThan(10);
    expect(two.coverage).toBeDefined();
    expect(timeless(two)).toEqual(timeless(one));
  }, 60_000);

  it('on the incident under fixed: ok, with the witnesses and the coverage', async () => {
    const [one, two] = await both(incident, 'fixed');
    expect(two.status).toBe('ok');
    expect(two.stats.states).toBe(319);
    expect(two.witnesses.length).toBeGreaterThan(0);
    expect(timeless(two)).toEqual(timeless(one));
  }, 60_000);

  it('with symmetry: the same representatives and orbit sums', async () => {
    const [one, two] = await both(twins, 'incident-2026', { symmetry: true });
    expect(two.stats.unreducedStates).toBeGreaterThan(two.stats.states);
    expect(timeless(two)).toEqual(timeless(one));
  }, 60_000);

  it('under a state bound: stopped at the same move', async () => {
    const [one, two] = await both(incident, 'fixed', { maxStates: 200 });
    expect(two.status).toBe('incomplete');
    expect(two.bound).toEqual({ reason: 'maxStates', limit: 200 });
    expect(timeless(two)).toEqual(timeless(one));
  }, 60_000);
});

describe('the level the workers take over at', () => {
  const machine = createServingMachine(incident, variantNamed('incident-2026'));
  const compiled = compileMachine(machine);
  const recipe = { module: 'unused', name: 'unused', arg: null };

  /**
   * The size of the level a search hands over with `levels` (0: it runs to the end itself),
   * with its workers `ready` or still starting, or (`started` false) not started at all.
   */
  function handedOver(levels: Partial<WorkerOptions>, ready: boolean, started = true): number {
    const start = started ? 0 : Number.POSITIVE_INFINITY;
    const workers: WorkerOptions = { count: 2, recipe, start, ...levels };
    const search = new Search(compiled, { events: servingEvents(['a1', 'b1']), workers });
    if (started) search.startedWorkers(() => ready);
    search.start(initialState(machine, compiled, search.views, undefined));
    expect(search.advance(Number.POSITIVE_INFINITY)).toBe(true);
    return search.handed?.length ?? 0;
  }

  it('is the first of `early` states once the workers have started', () => {
    const size = handedOver({ from: 10_000, early: 20 }, true);
    expect(size).toBeGreaterThanOrEqual(20);
    expect(size).toBeLessThan(10_000);
  });

  it('waits for `from` states while they are starting, and the search ends on its own below it', () => {
    expect(handedOver({ from: 10_000, early: 20 }, false)).toBe(0);
    expect(handedOver({ from: 30, early: 10_000 }, false)).toBeGreaterThanOrEqual(30);
  });

  it('is none before the workers are started, whatever the level', () => {
    expect(handedOver({ from: 30, early: 20 }, true, false)).toBe(0);
  });

  it('is the first of `early` states once workers started late are ready, `from` aside', () => {
    const late = (ready: boolean): number => {
      const workers: WorkerOptions = { count: 2, recipe, start: 1, from: 30, early: 20 };
      const search = new Search(compiled, { events: servingEvents(['a1', 'b1']), workers });
      search.start(initialState(machine, compiled, search.views, undefined));
      // The search returns for its workers to be started once it has stored one state.
      expect(search.advance(Number.POSITIVE_INFINITY)).toBe(false);
      search.startedWorkers(() => ready);
      expect(search.advance(Number.POSITIVE_INFINITY)).toBe(true);
      return search.handed?.length ?? 0;
    };
    // Not ready: the search does not wait at a level of `from` states; it runs to the end.
    expect(late(false)).toBe(0);
    expect(late(true)).toBeGreaterThanOrEqual(20);
    // Workers started with the search are waited for at `from`.
    expect(handedOver({ from: 30, early: 20 }, false)).toBeGreaterThanOrEqual(30);
  });
});

describe('workers that start late (`start`)', () => {
  const machine = createServingMachine(incident, variantNamed('fixed'));
  const events = servingEvents(incident.requests.map((r) => r.id));
  // A recipe no worker can build: the search rejects if and only if the workers start.
  const broken = {
    module: new URL('../../src/checker/check.ts', import.meta.url).href,
    name: 'noSuchRecipe',
    arg: null,
  };

  it('are never started by a search that stores fewer states, which runs on one thread', async () => {
    const one = await exploreAsync(machine, { events });
    const late = await exploreAsync(
      machine,
      { events, workers: { count: 2, recipe: broken, from: 8, start: 100_000 } },
      1,
    );
    expect(late.status).toBe('ok');
    expect(late.stats).toEqual({ ...one.stats, ms: late.stats.ms });
  });

  /**
   * Runs the search to its end with `levels`, in slices of a minute (so that it stops for the
   * workers, not for the clock), with a stand-in for the pool that never gets ready; returns
   * the search and the stored states each time the pool was started.
   */
  function withStandIn(levels: Partial<WorkerOptions>) {
    const compiled = compileMachine(machine);
    const workers: WorkerOptions = { count: 2, recipe: broken, ...levels };
    const search = new Search(compiled, { events, workers });
    const startedAt: number[] = [];
    const pool = { settled: false, terminate: async () => {} } as unknown as WorkerPool;
    const initial = initialState(machine, compiled, search.views, undefined);
    const run = searching(search, initial, 60_000, () => {
      startedAt.push(search.store.size);
      return pool;
    });
    while (!run.next().done) {}
    return { search, startedAt };
  }

  it('are started once the search has stored that many states, within a slice', () => {
    const { search, startedAt } = withStandIn({ start: 50, early: 10_000 });
    expect(startedAt).toEqual([50]);
    expect(search.workersStarted).toBe(true);
    // Never ready, so never handed a level: the search ended on one thread.
    expect(search.handed).toBeNull();
    expect(search.store.size).toBe(319);
  });

  it('are started with the search by default', () => {
    expect(withStandIn({ early: 10_000, from: 10_000 }).startedAt).toEqual([0]);
  });

  it('give the one-thread result when they take over', async () => {
    const v = variantNamed('incident-2026');
    const one = await checkAsync(incident, v);
    const late = await checkAsync(incident, v, {
      workers: 2,
      workerLevels: { start: 1, early: 8, chunk: 16 },
    });
    expect(timeless(late)).toEqual(timeless(one));
  }, 60_000);
});

describe('the progress of workers', () => {
  it('says how many threads expand: one, then the workers once they take over', async () => {
    const arg = { scenario: incident, variant: variantNamed('incident-2026'), options: {} };
    // The run `checkAsync` makes, with a progress report at every check of the limits.
    const run = workerRun(arg);
    const module = new URL('../../src/checker/check.ts', import.meta.url).href;
    const threads: number[] = [];
    const result = await exploreAsync(run.machine, {
      ...run.options,
      workers: { count: 2, recipe: { module, name: 'workerRun', arg }, from: 8, chunk: 16 },
      progressIntervalMs: 0,
      onProgress: (p) => threads.push(p.threads),
    });
    expect(result.stats.states).toBe(2195);
    expect(threads[0]).toBe(1);
    expect(threads.at(-1)).toBe(2);
    expect(new Set(threads)).toEqual(new Set([1, 2]));
  }, 60_000);
});

describe('a worker that fails', () => {
  it('rejects the search with the error of the worker that could not start, and ends the workers', async () => {
    const machine = createServingMachine(incident, variantNamed('fixed'));
    const recipe = {
      module: new URL('../../src/checker/check.ts', import.meta.url).href,
      name: 'noSuchRecipe',
      arg: null,
    };
    const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort');
    const before = ports().length;
    const run = exploreAsync(machine, {
      events: servingEvents(incident.requests.map((r) => r.id)),
      workers: { count: 2, recipe, from: 8, chunk: 16 },
    });
    const error: Error = await run.then(
      () => new Error('the search did not reject'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/exports no function noSuchRecipe/);
    // The worker's stack names the source file (the bundle's source map), not the bundle.
    expect(error.stack).toMatch(/src\/engine\/parallelWorker\.ts:\d+:\d+/);
    expect(error.stack).not.toMatch(/kvcheck-worker-/);
    // Both workers were ended (each held a port open, and with it the process).
    expect(ports().length).toBe(before);
  }, 60_000);
});

describe('options the parallel search refuses', () => {
  const fixed = variantNamed('fixed');
  it.each([
    [{ workers: 0 }, /workers must be a whole number of at least 1, not 0/],
    [{ workers: 1.5 }, /workers must be a whole number of at least 1, not 1.5/],
    [{ workers: 2, exact: true }, /not with exact/],
    [{ workers: 2, order: 'depth' }, /not with order depth/],
    [{ workers: 2, engine: 'graph' }, /not with the graph engine/],
    [{ workers: 2, workerLevels: { chunk: 0 } }, /workerLevels.chunk must be a whole number/],
    [
      { workers: 2, workerLevels: { start: -1 } },
      /workerLevels.start must be a whole number of at least 0, not -1/,
    ],
  ] as [CheckOptions, RegExp][])('%j', async (options, message) => {
    await expect(checkAsync(incident, fixed, options)).rejects.toThrow(message);
  });

  it('refuses a machine of your own, which a worker thread cannot rebuild', async () => {
    const machine = createServingMachine(incident, fixed);
    await expect(checkAsync(incident, fixed, { workers: 2, machine })).rejects.toThrow(
      /not with a machine of your own/,
    );
  });
});
