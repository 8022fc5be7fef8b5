import { bloomFalsePositiveRate, bloomSize } from '../../../src/sources/frontier/bloom';

describe('bloomSize', () => {
  it('matches the textbook sizing (1M items at 1 % → ~9.59 bits/item, 7 hashes)', () => {
    const s = bloomSize(1_000_000, 0.01);
    expect(s.bits).toBe(9_585_059);
    expect(s.hashes).toBe(7);
    expect(bloomFalsePositiveRate(s, 1_000_000)).toBeCloseTo(0.01, 3);
  });

  it('refuses impossible sizes', () => {
    expect(() => bloomSize(0, 0.01)).toThrow(RangeError);
    expect(() => bloomSize(10, 1)).toThrow(RangeError);
    expect(() => bloomSize(1e12, 1e-9)).toThrow(/exceeds a Redis string/);
  });
});
