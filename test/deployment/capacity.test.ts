/**
 * Pool capacity as SGLang's profile_max_num_token computes it, checked against arithmetic done by
 * hand for the shipped examples, plus the rules for KV heads per rank, MLA, the cap and pages.
 */
import { attentionTp, kvHeadsPerRank, poolCapacity } from '../../src/deployment/capacity.ts';
import { lintDeployment } from '../../src/deployment/lint.ts';
import { parseDeployment } from '../../src/deployment/loadDeployment.ts';
import { example } from './helpers.ts';

describe('the shipped examples', () => {
  it('gives the incident’s pools as reported, page-aligned and unchanged', () => {
    // 681,280 = 10,645 pages of 64; 1,048,576 = 16,384 pages of 64.
    const r = lintDeployment(example('incident.yaml'));
    expect(r.pools.prefill.tokens).toBe(681_280);
    expect(r.pools.decode.tokens).toBe(1_048_576);
    // maxReqInputLen = min(1,048,575, 681,279) − 5 = 681,274; min(1,048,575, 1,048,575) − 5.
    expect(r.limits).toEqual({ prefill: 681_274, decode: 1_048_570 });
  });

  it('gives the fixed incident pools of 2,040,000 tokens', () => {
    // 2,040,000 = 31,875 pages of 64; limit min(1,048,575, 2,039,999) − 5 = 1,048,570.
    const r = lintDeployment(example('incident-fixed.yaml'));
    expect(r.pools.prefill.tokens).toBe(2_040_000);
    expect(r.pools.decode.tokens).toBe(2_040_000);
    expect(r.limits).toEqual({ prefill: 1_048_570, decode: 1_048_570 });
  });

  it('computes the GQA model’s pools by hand', () => {
    const r = lintDeployment(example('llama-70b-1m.yaml'));
    // prefill: 8 KV heads over TP 8 = 1 per rank; cell = 1 × (128 + 128) × 80 × 2 B = 40,960 B.
    // rest = 80 × 0.85 − 16.5 − 0.5 = 51 GiB; 51 × 2^30 / 40,960 = 51 × 131,072 / 5
    //      = 1,336,934.4 → 1,336,934; pages of 16: 83,558 × 16 = 1,336,928.
    expect(r.pools.prefill).toMatchObject({
      kvHeadsPerRank: 1,
      cellBytes: 40_960,
      profiledTokens: 1_336_934,
      tokens: 1_336_928,
    });
    // decode: fp8, cell = 1 × 256 × 80 × 1 B = 20,480 B; rest = 80 × 0.88 − 16.5 − 1.5
    //      = 52.4 GiB; 52.4 × 2^30 / 20,480 = 52.4 × 52,428.8 = 2,747,269.12 → 2,747,269;
    //      pages of 16: 171,704 × 16 = 2,747,264.
    expect(r.pools.decode).toMatchObject({
      cellBytes: 20_480,
      profiledTokens: 2_747_269,
      tokens: 2_747_264,
    });
    expect(r.limits).toEqual({ prefill: 1_048_570, decode: 1_048_570 });
  });

  it('computes the MLA model’s pools by hand', () => {
    const r = lintDeployment(example('deepseek-v3.yaml'));
    // prefill: cell = (512 + 64) × 61 × 2 B = 70,272 B; rest = 140 × 0.8 − 78 − 2 = 32 GiB;
    //   32 × 2^30 / 70,272 = 34,359,738,368 / 70,272 = 488,953.5 → 488,953;
    //   pages of 64: 7,639 × 64 = 488,896.
    expect(r.pools.prefill).toMatchObject({
      cellBytes: 70_272,
      profiledTokens: 488_953,
      tokens: 488_896,
    });
    expect(r.pools.prefill.kvHeadsPerRank).toBeUndefined();
    // decode: fp8, cell = 576 × 61 × 1 B = 35,136 B; rest = 140 × 0.85 − 78 − 4 = 37 GiB;
    //   37 × 2^30 / 35,136 = 1,130,704.9 → 1,130,704; pages of 64: 17,667 × 64 = 1,130,688.
    expect(r.pools.decode).toMatchObject({
      cellBytes: 35_136,
      profiledTokens: 1_130_704,
      tokens: 1_130_688,
    });
    // context 163,840: limit min(163,839, pool − 1) − 5 = 163,834 on both sides.
    expect(r.limits).toEqual({ prefill: 163_834, decode: 163_834 });
  });
});

const gqa = (over: Record<string, unknown>) =>
  parseDeployment(
    {
      name: 't',
      variant: 'fixed',
      contextLen: 4096,
      prefill: { maxTotalTokens: 100_000 },
      decode: {
        model: { layers: 2, kvHeads: 8, headDim: 64 },
        kvCacheDtype: 'bf16',
        gpuMemoryGiB: 1,
        memFractionStatic: 1,
        weightsGiB: 0,
        ...over,
      },
    },
    't.yaml',
  ).decode;

describe('poolCapacity', () => {
  it('shares KV heads across TP ranks, and replicates one head when TP exceeds them', () => {
    expect(kvHeadsPerRank(8, 1)).toBe(8);
    expect(kvHeadsPerRank(8, 4)).toBe(2);
    expect(kvHeadsPerRank(8, 16)).toBe(1);
    // 1 GiB / (heads × (64 + 64) × 2 layers × 2 B) = 2^30 / (heads × 512).
    expect(poolCapacity(gqa({ tpSize: 1 })).tokens).toBe(2 ** 30 / (8 * 512));
    expect(poolCapacity(gqa({ tpSize: 4 })).tokens).toBe(2 ** 30 / (2 * 512));
    expect(poolCapacity(gqa({ tpSize: 16 })).tokens).toBe(2 ** 30 / 512);
  });

  it('divides heads by the attention TP size under DP attention', () => {
    const role = gqa({ tpSize: 8, dpSize: 2 });
    expect(attentionTp(role)).toBe(4);
    expect(poolCapacity(role).kvHeadsPerRank).toBe(2);
  });

  it('uses vHeadDim when it differs from headDim', () => {
    // cell = 8 × (64 + 32) × 2 × 2 = 3,072 B; 2^30 / 3,072 = 349,525.33 → 349,525.
    expect(
      poolCapacity(gqa({ model: { layers: 2, kvHeads: 8, headDim: 64, vHeadDim: 32 } })).tokens,
    ).toBe(349_525);
  });

  it('caps the computed capacity at maxTotalTokens, then aligns it to pages', () => {
    const capped = poolCapacity(gqa({ maxTotalTokens: 100_000, pageSize: 64 }));
    expect(capped.cappedAt).toBe(100_000);
    expect(capped.tokens).toBe(99_968); // 1,562 pages of 64
    const uncapped = poolCapacity(gqa({ maxTotalTokens: 10_000_000 }));
    expect(uncapped.cappedAt).toBeUndefined();
    expect(uncapped.tokens).toBe(262_144);
  });

  it('subtracts weights, other reservations and the non-static share of memory', () => {
    // rest = 10 × 0.75 − 2 − 0.5 = 5 GiB; cell 4,096 B: 5 × 2^30 / 4,096 = 1,310,720.
    const role = gqa({ gpuMemoryGiB: 10, memFractionStatic: 0.75, weightsGiB: 2, otherGiB: 0.5 });
    expect(poolCapacity(role).restBytes).toBe(5 * 2 ** 30);
    expect(poolCapacity(role).tokens).toBe(1_310_720);
  });
});

describe('sensitivity', () => {
  it('varies dtype, TP size (weights rescaled) and memory fraction of computed pools only', () => {
    const r = lintDeployment(example('llama-70b-1m.yaml'));
    const row = (p: string, v: string) =>
      r.sensitivity.find((x) => x.role === 'prefill' && x.parameter === p && x.value === v);
    // fp32 doubles the cell: 51 × 2^30 / 81,920 = 668,467.2 → 668,467 → 41,779 × 16 = 668,464.
    expect(row('kvCacheDtype', 'fp32')).toMatchObject({
      tokens: 668_464,
      headroom: 'belowContext',
    });
    // TP 4: 2 heads per rank, cell 81,920 B; weights 16.5 × 8 / 4 = 33 GiB;
    // rest = 68 − 33 − 0.5 = 34.5 GiB; 34.5 × 2^30 / 81,920 = 452,198.4 → 28,262 × 16 = 452,192.
    expect(row('tpSize', '4')).toMatchObject({ tokens: 452_192, maxReqInputLen: 452_186 });
    expect(row('memFractionStatic', '0.85')).toMatchObject({ current: true, tokens: 1_336_928 });
    expect(r.sensitivity.filter((x) => x.current)).toHaveLength(6);
    expect(lintDeployment(example('incident.yaml')).sensitivity).toEqual([]);
  });
});
