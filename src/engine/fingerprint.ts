/**
 * 64-bit state fingerprints: two independent 32-bit string hashes over the configuration key
 * and the context's JSON, run in one pass. Lane 1 is FNV-1a (prime 16777619); lane 2 is a
 * Murmur-style multiply (0x5bd1e995) with an xor-shift per character. Each lane ends with
 * Murmur3's `fmix32` avalanche so that nearby inputs spread over the whole range.
 */

function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Where `fingerprintInto` writes the two halves: `[hi, lo]`. */
export type FingerprintOut = Uint32Array;

/** Hashes `config` then `json` into `out[0]` and `out[1]`. */
export function fingerprintInto(config: string, json: string, out: FingerprintOut): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < config.length; i++) {
    const c = config.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ 0xffff, 0x01000193);
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  out[0] = fmix32(a ^ json.length);
  out[1] = fmix32(b ^ config.length);
}

/**
 * The birthday bound on a fingerprint collision among `n` distinct states, assuming uniform
 * 64-bit fingerprints: `n(n-1)/2 / 2^64`.
 */
export function collisionProbability(n: number): number {
  return (n * (n - 1)) / 2 / 2 ** 64;
}
