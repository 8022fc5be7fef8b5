import { maxSumSegment, splitAtDips, topSegments } from '../../../src/extractors/segments';
import { gaussianSmooth } from '../../../src/extractors/scoring';

describe('maximum-sum segments', () => {
  it('finds the maximum-sum contiguous run (Kadane)', () => {
    expect(maxSumSegment([-5, 3, 4, -2, 6, -10, 2])).toEqual({ start: 1, end: 4, sum: 11 });
    expect(maxSumSegment([-1, -2])).toBeUndefined();
  });

  it('returns further disjoint segments above a share of the best one, in document order', () => {
    const values = [-9, 10, 10, -30, 8, -30, 1, -30];
    expect(topSegments(values, 0.3)).toEqual([{ start: 1, end: 2, sum: 20 }, { start: 4, end: 4, sum: 8 }]);
    expect(topSegments(values, 0.5)).toEqual([{ start: 1, end: 2, sum: 20 }]);
  });

  it('splits a segment that bridges a deep dip', () => {
    const values = [150, 50, -40, -40, -40, 200];
    const whole = maxSumSegment(values)!;
    expect(whole).toEqual({ start: 0, end: 5, sum: 280 });
    expect(splitAtDips(values, whole, 100)).toEqual([{ start: 0, end: 1, sum: 200 }, { start: 5, end: 5, sum: 200 }]);
    expect(splitAtDips(values, whole, 150)).toEqual([whole]);
  });
});

describe('Gaussian smoothing', () => {
  it('keeps a constant sequence constant, also at the ends', () => {
    expect(gaussianSmooth([3, 3, 3, 3], 1).map((v) => +v.toFixed(9))).toEqual([3, 3, 3, 3]);
  });

  it('spreads a spike to its neighbours symmetrically and keeps it highest', () => {
    const s = gaussianSmooth([0, 0, 10, 0, 0], 1);
    expect(s[1]).toBeCloseTo(s[3]!);
    expect(s[2]).toBeGreaterThan(s[1]!);
    expect(s[1]).toBeGreaterThan(0);
  });
});
