/**
 * Recorded words (`wordRecorder.ts`) log exactly the words an access touches, through indices
 * and through the array methods the serving updates use, and refuse any access they cannot
 * account for.
 */
import { describe, expect, it } from 'vitest';
import { recordedTarget, recordingWords, wordLog } from '../../src/engine/wordRecorder.ts';

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe('recorded words', () => {
  it('log index reads and writes and act on the real array', () => {
    const target = new Int32Array([5, 6, 7, 8]);
    const log = wordLog();
    const w = recordingWords(target, log);
    w[2] = (w[0] as number) + (w[1] as number);
    expect([...target]).toEqual([5, 6, 11, 8]);
    expect(sorted(log.reads)).toEqual([0, 1]);
    expect(sorted(log.writes)).toEqual([2]);
    expect(w instanceof Int32Array).toBe(true);
    expect(w.length).toBe(4);
    expect(recordedTarget(w)).toBe(target);
  });

  it('log the ranges of fill, copyWithin and subarray, relative indices included', () => {
    const log = wordLog();
    const w = recordingWords(new Int32Array([1, 2, 3, 4, 5, 6]), log);
    w.fill(0, -2);
    expect(sorted(log.writes)).toEqual([4, 5]);
    w.copyWithin(3, 0, 2);
    expect(sorted(log.reads)).toEqual([0, 1]);
    expect(sorted(log.writes)).toEqual([3, 4, 5]);
    expect(Array.from(w.subarray(1, 3))).toEqual([2, 3]);
    expect(sorted(log.reads)).toEqual([0, 1, 2]);
  });

  it('copy whole with slice into recorded words on the same log, as an XState assign does', () => {
    const log = wordLog();
    const target = new Int32Array([1, 2, 3]);
    const copy = recordingWords(target, log).slice();
    copy[0] = 9;
    expect([...target]).toEqual([1, 2, 3]);
    expect(sorted(log.writes)).toEqual([0]);
    expect(recordedTarget(copy)).not.toBe(target);
  });

  it('throw on an access they cannot log', () => {
    const w = recordingWords(new Int32Array(2), wordLog());
    expect(() => w.indexOf(0)).toThrow(/unrecorded access to indexOf/);
    expect(() => w.set([1])).toThrow(/unrecorded access to set/);
  });
});
