/**
 * The findings of the shipped examples, with the deployment's own numbers in each message, and
 * how the deployed variant decides a reject path's severity.
 */
import { findVariant } from '../../machines/variants.ts';
import { promptBands } from '../../src/deployment/bands.ts';
import { rejectEffect } from '../../src/deployment/findings.ts';
import { lintDeployment } from '../../src/deployment/lint.ts';
import { example, givenPools } from './helpers.ts';

const summary = (file: string) =>
  lintDeployment(example(file)).findings.map((f) => [f.severity, f.id, f.role ?? '', f.band]);

describe('the incident as reported', () => {
  const report = lintDeployment(example('incident.yaml'));

  it('is an error: the window exceeds prefill’s pool and decode accepts what prefill rejects', () => {
    expect(report.status).toBe('error');
    expect(summary('incident.yaml')).toEqual([
      ['error', 'contextExceedsPool', 'prefill', { from: 681_274, to: 1_048_575 }],
      ['error', 'limitsDisagree', '', { from: 681_274, to: 1_048_569 }],
      ['warning', 'rejectBand', '', { from: 1_048_570, to: 1_048_575 }],
      ['warning', 'headroomBelow2x', 'decode', undefined],
    ]);
  });

  it('says so in the deployment’s numbers', () => {
    const [exceeds, disagree] = report.findings;
    expect(exceeds?.message).toContain(
      'The context window (1,048,576 tokens) exceeds the prefill pool (681,280 tokens)',
    );
    expect(exceeds?.message).toContain('prompts of 681,274 to 1,048,575 tokens (367,302 lengths)');
    expect(exceeds?.message).toContain('min(1,048,575, 681,279) − 5 = 681,274');
    expect(disagree?.message).toContain('681,274 to 1,048,569 tokens (367,296 lengths)');
    expect(disagree?.message).toContain('a cross-tenant leak');
  });

  it('splits the prompts the tokenizer accepts into three bands', () => {
    expect(report.bands).toEqual([
      { kind: 'accepted', from: 1, to: 681_273, lengths: 681_273 },
      { kind: 'prefillRejects', from: 681_274, to: 1_048_569, lengths: 367_296 },
      { kind: 'bothReject', from: 1_048_570, to: 1_048_575, lengths: 6 },
    ]);
  });
});

describe('the other examples', () => {
  it('after the fix: warnings for headroom below twice the window, the band as info', () => {
    expect(lintDeployment(example('incident-fixed.yaml')).status).toBe('clean');
    expect(summary('incident-fixed.yaml')).toEqual([
      ['warning', 'headroomBelow2x', 'prefill', undefined],
      ['warning', 'headroomBelow2x', 'decode', undefined],
      ['info', 'rejectBand', '', { from: 1_048_570, to: 1_048_575 }],
    ]);
  });

  it('GQA: prefill’s headroom, naming the changes that would open the gap', () => {
    const r = lintDeployment(example('llama-70b-1m.yaml'));
    expect(r.status).toBe('clean');
    expect(summary('llama-70b-1m.yaml')).toEqual([
      ['warning', 'headroomBelow2x', 'prefill', undefined],
      ['info', 'rejectBand', '', { from: 1_048_570, to: 1_048_575 }],
    ]);
    expect(r.findings[0]?.message).toContain('tpSize 4 gives 452,192 tokens');
    expect(r.findings[0]?.message).toContain('kvCacheDtype fp32 gives 668,464 tokens');
  });

  it('MLA on the engine before the fixes: only the reserve band, handed off', () => {
    const r = lintDeployment(example('deepseek-v3.yaml'));
    expect(r.status).toBe('clean');
    expect(summary('deepseek-v3.yaml')).toEqual([
      ['warning', 'rejectBand', '', { from: 163_834, to: 163_839 }],
    ]);
    expect(r.findings[0]?.message).toContain('still hand it off');
  });
});

describe('severity follows the variant', () => {
  it('makes the incident’s pools a clean client error under fixed', () => {
    const r = lintDeployment(givenPools(681_280, 1_048_576, 'fixed'));
    expect(r.status).toBe('clean');
    const severities = Object.fromEntries(r.findings.map((f) => [f.id, f.severity]));
    // A pool below the window still breaks what the window advertises: at least a warning.
    expect(severities).toEqual({
      contextExceedsPool: 'warning',
      limitsDisagree: 'info',
      rejectBand: 'info',
      headroomBelow2x: 'warning',
    });
  });

  it('makes decode-only rejections a clean client error under fixed: prefill’s bootstrap times out', () => {
    const r = lintDeployment(givenPools(1_048_576, 681_280, 'fixed'));
    expect(r.status).toBe('clean');
    expect(r.findings.map((f) => [f.severity, f.id, f.role])).toEqual([
      ['warning', 'contextExceedsPool', 'decode'],
      ['warning', 'headroomBelow2x', 'prefill'],
      ['info', 'limitsDisagree', undefined],
      ['info', 'rejectBand', undefined],
    ]);
    const disagree = r.findings.find((f) => f.id === 'limitsDisagree');
    expect(disagree?.message).toContain('bootstrap timeout fails the room (500)');
    expect(disagree?.message).not.toContain('noDeadlock');
  });

  it('reads the barrier switches', () => {
    const effect = (variant: string) => {
      const v = findVariant(variant);
      if (!v) throw new Error(variant);
      return (['prefillRejects', 'decodeRejects', 'bothReject'] as const).map((k) =>
        rejectEffect(v.switches, k),
      );
    };
    expect(effect('incident-2026')).toEqual(['leak', 'handedOff', 'handedOff']);
    expect(effect('fixed')).toEqual(['clean', 'clean', 'clean']);
    expect(effect('retire-only')).toEqual(['spent', 'handedOff', 'spent']);
    expect(effect('coverage-only')).toEqual(['handedOff', 'handedOff', 'handedOff']);
  });

  it('reports a decode pool below prefill’s as decode-only rejections', () => {
    const r = lintDeployment(givenPools(1_048_576, 681_280));
    expect(r.findings.map((f) => [f.severity, f.id, f.role])).toEqual([
      ['warning', 'contextExceedsPool', 'decode'],
      ['warning', 'limitsDisagree', undefined],
      ['warning', 'rejectBand', undefined],
      ['warning', 'headroomBelow2x', 'prefill'],
    ]);
  });
});

describe('promptBands', () => {
  it('always leaves the reserve band, even with pools far above the window', () => {
    expect(promptBands(10, { prefill: 4, decode: 4 })).toEqual([
      { kind: 'accepted', from: 1, to: 3, lengths: 3 },
      { kind: 'bothReject', from: 4, to: 9, lengths: 6 },
    ]);
  });

  it('has no accepted band when a limit admits no prompt', () => {
    expect(promptBands(10, { prefill: 3, decode: -3 }).map((b) => b.kind)).toEqual([
      'decodeRejects',
      'bothReject',
    ]);
    expect(promptBands(10, { prefill: -1, decode: -3 })).toEqual([
      { kind: 'bothReject', from: 1, to: 9, lengths: 9 },
    ]);
  });
});

describe('the package entry point', () => {
  it('exports the deployment API', async () => {
    const kvcheck = await import('kvcheck');
    const r = kvcheck.lintDeployment(example('incident.yaml'));
    expect(r.findings[0]?.id).toBe('contextExceedsPool');
    expect(kvcheck.poolCapacity(example('deepseek-v3.yaml').prefill).tokens).toBe(488_896);
  });
});
