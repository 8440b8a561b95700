/**
 * The vocabulary's fast readers against their plain definitions: `regionAt` and `regionIn` read
 * a state value without building its dot path, `valuePath` remembers the paths of the value
 * objects it has seen, and the request views are rebound to a state's words only when they are
 * bound to another's. Each must answer as the plain definition does.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  regionAt,
  regionIn,
  regionPath,
  type ServingState,
  valuePath,
} from '../../invariants/vocabulary.ts';
import { requestView, requestViews } from '../../machines/servingView.ts';
import { pinnedSeed } from '../seed.ts';
import { buildState } from './buildState.ts';

const seed = pinnedSeed(20261207);

/** Segments that share prefixes, so that a segment-by-character comparison is tested at its edges. */
const segment = fc.constantFrom('a', 'ab', 'abc', 'b', 'done', 'don', 'running', 'run');

/** A state value of depth 1 to 3 (a string leaf, or nested single-key objects). */
const stateValue = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .map((segs): unknown =>
    segs
      .slice(0, -1)
      .reduceRight<unknown>((inner, key) => ({ [key]: inner }), segs[segs.length - 1]),
  );

/** A dot path of 1 to 4 segments. */
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segs) => segs.join('.'));

/** The context of every state below: only the state values differ. */
const context = buildState().context;

/** A state whose request a1 has its `decode` region at `value`. */
function stateAt(value: unknown): ServingState {
  return { value: { a1: { decode: value } }, context };
}

describe('region readers', () => {
  test.prop([stateValue, path], { seed, numRuns: 2000 })(
    'regionAt and regionIn answer as comparing the dot path would',
    (value, p) => {
      const s = stateAt(value);
      const at = regionPath(s, 'a1', 'decode');
      expect(regionAt(s, 'a1', 'decode', p)).toBe(at === p);
      expect(regionIn(s, 'a1', 'decode', p)).toBe(at === p || at.startsWith(`${p}.`));
    },
  );

  it('reads the shapes at the edges of a segment', () => {
    const s = stateAt({ admitted: { running: 'x' } });
    expect(regionAt(s, 'a1', 'decode', 'admitted.running.x')).toBe(true);
    expect(regionIn(s, 'a1', 'decode', 'admitted.running')).toBe(true);
    expect(regionIn(s, 'a1', 'decode', 'admitted.run')).toBe(false);
    expect(regionAt(s, 'a1', 'decode', 'admitted.running')).toBe(false);
    expect(regionAt(s, 'a1', 'decode', 'admittedXrunning.x')).toBe(false);
    expect(regionIn(stateAt('done'), 'a1', 'decode', 'don')).toBe(false);
    expect(regionAt(stateAt(undefined), 'a1', 'decode', '')).toBe(true);
  });
});

describe('valuePath', () => {
  it('gives each value object its own path, the second time from what it remembered', () => {
    const running = Object.freeze({ admitted: 'running' });
    const waiting = { admitted: 'waiting' };
    expect(valuePath(running)).toBe('admitted.running');
    expect(valuePath(waiting)).toBe('admitted.waiting');
    expect(valuePath(running)).toBe('admitted.running');
    expect(valuePath({ done: { finished: '' } })).toBe('done.finished');
    expect(valuePath('idle')).toBe('idle');
    expect(valuePath(null)).toBe('');
  });
});

describe('request views', () => {
  it('are bound to the state asked for, after one of them was bound to another state', () => {
    const first = buildState({ requests: { a1: { seqLen: 3 }, b1: { seqLen: 4 } } });
    const second = buildState({ requests: { a1: { seqLen: 5 }, b1: { seqLen: 6 } } });
    expect(requestViews(first.context).map((r) => r.seqLen)).toEqual([3, 4]);
    expect(requestView(second.context, 'b1').seqLen).toBe(6);
    expect(requestViews(first.context).map((r) => r.seqLen)).toEqual([3, 4]);
    expect(requestViews(second.context).map((r) => r.seqLen)).toEqual([5, 6]);
    expect(requestView(second.context, 'a1').seqLen).toBe(5);
    expect(requestViews(second.context).map((r) => r.seqLen)).toEqual([5, 6]);
  });
});
