import { seededRng } from '../../../src/core/rng';
import { benchBackoffMs, ProxyHealth } from '../../../src/fetchers/proxy-health';

describe('ProxyHealth', () => {
  it('scores success rate times speed, with a floor', () => {
    const h = new ProxyHealth({ size: 3, slowMs: 1000 });
    expect(h.score(0)).toBe(1);
    h.succeeded(0, 1000);
    expect(h.score(0)).toBeCloseTo(0.5, 6);
    h.succeeded(1, 0);
    expect(h.score(1)).toBe(1);
    for (let i = 0; i < 60; i++) h.failed(2);
    expect(h.score(2)).toBe(0.01);
  });

  it('counts failures in a row, reset by a success; refusals in a row, reset by a success', () => {
    const h = new ProxyHealth({ size: 1, slowMs: 1000 });
    expect([h.failed(0), h.failed(0), h.failed(0)]).toEqual([1, 2, 3]);
    h.resetRun(0);
    expect(h.failed(0)).toBe(1);
    expect([h.refused(0), h.refused(0)]).toEqual([1, 2]);
    h.succeeded(0, 10);
    expect([h.failed(0), h.refused(0)]).toEqual([1, 1]);
  });

  it('orders by health: every proxy once, healthy ones first in proportion to their scores, a sick one still tried', () => {
    const h = new ProxyHealth({ size: 3, slowMs: 1000 });
    for (let i = 0; i < 10; i++) h.failed(2);
    const rng = seededRng(3);
    const first = [0, 0, 0];
    let permutations = 0;
    for (let i = 0; i < 20_000; i++) {
      const order = h.order(rng);
      if ([...order].sort().join() === '0,1,2') permutations += 1;
      first[order[0]!]! += 1;
    }
    expect(permutations).toBe(20_000);
    const w2 = h.score(2);
    // P(first) = w / Σw for weighted sampling without replacement.
    expect(first[2]! / 20_000).toBeCloseTo(w2 / (2 + w2), 2);
    expect(first[2]).toBeGreaterThan(0);
    expect(Math.abs(first[0]! - first[1]!)).toBeLessThan(600);
  });

  it('bench backoff doubles per refusal in a row, capped', () => {
    expect([1, 2, 3, 4, 10, 100].map((n) => benchBackoffMs(n, 1000, 10_000))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
