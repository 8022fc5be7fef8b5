import { seededRng, type Rng } from '../core/rng';

/** Mixes several integers into one 32-bit seed, so every user, post and comment gets its own stream. */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    // Split doubles into two 32-bit halves so large ids (and negative numbers) still mix in fully.
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = Math.imul(h ^ lo, 0x01000193);
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    h = Math.imul(h ^ hi, 0x01000193);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function streamRng(...parts: number[]): Rng {
  return seededRng(mixSeed(...parts));
}

/** Exponential inter-arrival time for a Poisson process of the given rate (events per unit). */
export function expSample(rng: Rng, rate: number): number {
  return -Math.log(1 - rng.next()) / rate;
}

export function normalSample(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function logNormalSample(rng: Rng, median: number, sigma: number): number {
  return median * Math.exp(sigma * normalSample(rng));
}

/** Pareto with minimum 1: heavy-tailed weights for the follower graph. */
export function paretoSample(rng: Rng, alpha: number): number {
  return Math.pow(1 - rng.next(), -1 / alpha);
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng.next() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

export function chance(rng: Rng, p: number): boolean {
  return rng.next() < p;
}

/** Integer in [lo, hi], inclusive. */
export function intBetween(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng.next() * (hi - lo + 1));
}
