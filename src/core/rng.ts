/** Seeded randomness, injected so that jitter, simulations and tests are reproducible. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
}

/** sfc32 seeded through splitmix32: fast, 128-bit state, good enough for simulation and jitter. */
export function seededRng(seed: number): Rng {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  return {
    next(): number {
      const t = (((a + b) >>> 0) + d) >>> 0;
      d = (d + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) >>> 0;
      return t / 4294967296;
    },
  };
}

export const mathRandomRng: Rng = { next: () => Math.random() };
