import { createHash } from 'node:crypto';

/**
 * Bloom filter sizing (m bits, k hashes) for n expected items at false-positive rate p:
 * m = −n·ln p / (ln 2)², k = (m/n)·ln 2. Redis strings hold at most 2^32 bits.
 */
export interface BloomSize {
  bits: number;
  hashes: number;
}

export function bloomSize(capacity: number, falsePositiveRate: number): BloomSize {
  if (!(capacity > 0)) throw new RangeError('bloom capacity must be positive');
  if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) throw new RangeError('bloom false-positive rate must be in (0, 1)');
  const bits = Math.ceil((-capacity * Math.log(falsePositiveRate)) / Math.LN2 ** 2);
  if (bits > 2 ** 32) throw new RangeError(`bloom of ${bits} bits exceeds a Redis string (2^32 bits); shard it or lower the capacity`);
  const hashes = Math.max(1, Math.round((bits / capacity) * Math.LN2));
  return { bits, hashes };
}

/** Expected false-positive rate after inserting n items: (1 − e^(−kn/m))^k. */
export function bloomFalsePositiveRate(size: BloomSize, inserted: number): number {
  return (1 - Math.exp((-size.hashes * inserted) / size.bits)) ** size.hashes;
}

/**
 * The bit positions offerScript sets for a subject (double hashing over sha1 words 2 and 3; the
 * Lua computes the same), for measuring a filter held in Redis. Redis numbers bits from the most
 * significant bit of each byte.
 */
export function bloomPositions(subject: string, size: BloomSize): number[] {
  const d = createHash('sha1').update(subject).digest();
  const h1 = d.readUInt32BE(8);
  const h2 = d.readUInt32BE(12);
  return Array.from({ length: size.hashes }, (_, j) => (h1 + j * h2) % size.bits);
}

/** Whether every position of `subject` is set in a Bloom filter's bytes (as GET returns them). */
export function bloomMayContain(bits: Uint8Array, subject: string, size: BloomSize): boolean {
  return bloomPositions(subject, size).every((p) => (((bits[p >> 3] ?? 0) >> (7 - (p & 7))) & 1) === 1);
}
