import { seededRng } from '../../../src/core/rng';

describe('seededRng', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = seededRng(42);
    const b = seededRng(42);
    const c = seededRng(43);
    const sa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(sa);
  });

  it('is uniform enough on [0, 1)', () => {
    const r = seededRng(7);
    const bins = new Array<number>(10).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      bins[Math.floor(x * 10)]! += 1;
    }
    for (const count of bins) expect(Math.abs(count - n / 10)).toBeLessThan(600);
  });
});
