// Deterministic random numbers for generated test and benchmark inputs (same seed, same images).

/** A source of numbers in [0, 1). */
export type Rng = () => number;

/** Deterministic PRNG (mulberry32): a function returning numbers in [0, 1). */
export function rng(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal deviate drawn from `r` (Box-Muller). */
export const gauss = (r: Rng): number => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
