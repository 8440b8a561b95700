/**
 * 64-bit fingerprints from two independent 32-bit lanes: Murmur3's block step with different
 * seeds and constants per lane, each finished with Murmur3's `fmix32`. A state's fingerprint
 * combines its configuration's hash (`hashString` of the configuration key) with its context's
 * structural hash (`structuralHash.ts`), or with the hash of its words for a vector context
 * (`vectorContext.ts`).
 */

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** One Murmur3 block step, lane a. */
export function mixA(h: number, k0: number): number {
  let k = Math.imul(k0, 0xcc9e2d51);
  k = Math.imul(rotl(k, 15), 0x1b873593);
  return (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
}

/** One Murmur3-style block step with other constants, lane b. */
export function mixB(h: number, k0: number): number {
  let k = Math.imul(k0, 0x85ebca77);
  k = Math.imul(rotl(k, 17), 0xc2b2ae3d);
  return (Math.imul(rotl(h ^ k, 11), 9) + 0x27d4eb2f) | 0;
}

/** Murmur3's finaliser. */
export function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 64-bit hash as two 32-bit halves. */
export interface Hash64 {
  readonly a: number;
  readonly b: number;
}

/** Hashes a string into both lanes. */
export function hashString(s: string, seedA: number, seedB: number): Hash64 {
  let a = seedA;
  let b = seedB;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = mixA(a, c);
    b = mixB(b, c);
  }
  return { a: fmix32(a ^ s.length), b: fmix32(b ^ s.length) };
}

/** Combines a configuration hash and a context hash into the final 64-bit fingerprint. */
export function combine(config: Hash64, context: Hash64, out: Uint32Array): void {
  combineHalves(config, context.a, context.b, out);
}

/**
 * `combine` with the context hash given as its halves `a` and `b`. For a fixed configuration
 * each output half is a bijection of the matching context half, so two contexts whose hashes
 * differ (in either half) never share a fingerprint there.
 */
export function combineHalves(config: Hash64, a: number, b: number, out: Uint32Array): void {
  out[0] = fmix32(mixA(mixA(0x811c9dc5, config.a), a));
  out[1] = fmix32(mixB(mixB(0x9747b28c, config.b), b));
}

/**
 * The birthday bound on a fingerprint collision among `n` distinct states, assuming uniform
 * 64-bit fingerprints: `n(n-1)/2 / 2^64`.
 */
export function collisionProbability(n: number): number {
  return (n * (n - 1)) / 2 / 2 ** 64;
}
