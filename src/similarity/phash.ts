/**
 * Perceptual hash helpers. The stored `perceptual_hash` of a scan is the 64-bit DCT hash of its page's
 * text area (src/similarity/image.ts computes it); similarity scores compare it with hammingDistance.
 * Not the `image-hash` package: hashing the whole file, it found 41-54 % of the corpus copies that this
 * hash of the text area finds 79 % of, none of the re-photographed ones, and took 1.5-1.9 times as long
 * (docs/decisions/2026-11-26-own-perceptual-hash.md).
 */
/** Bits that differ between two hashes (0..64). */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) { n += Number(x & 1n); x >>= 1n; }
  return n;
}

/**
 * 64-bit DCT hash (pHash) of an n x n grid of values: the 8 x 8 lowest frequencies of its 2-D DCT-II
 * without the DC term, one bit each for "above the median of those 63", as 16 hex digits (the DC bit is
 * always 0). Low frequencies survive re-encoding, resizing and blur; comparing with hammingDistance.
 */
export function dctHash(values: ArrayLike<number>, n: number): string {
  const k = 8;
  const cos: number[] = [];
  for (let u = 0; u < k; u++) for (let x = 0; x < n; x++) cos.push(Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n)));
  // rows first: r[y][u] = sum_x v[y][x] cos(u, x)
  const rows = new Float64Array(n * k);
  for (let y = 0; y < n; y++) {
    for (let u = 0; u < k; u++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += values[y * n + x]! * cos[u * n + x]!;
      rows[y * k + u] = s;
    }
  }
  const coef: number[] = [];
  for (let v = 0; v < k; v++) {
    for (let u = 0; u < k; u++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += rows[y * k + u]! * cos[v * n + y]!;
      coef.push(s);
    }
  }
  const ac = coef.slice(1);
  const median = [...ac].sort((a, b) => a - b)[ac.length >> 1]!;
  let bits = 0n;
  for (let i = 0; i < coef.length; i++) bits = (bits << 1n) | (i > 0 && coef[i]! > median ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
}
