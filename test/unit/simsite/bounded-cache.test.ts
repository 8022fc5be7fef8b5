import { BoundedCache } from '../../../src/simsite/bounded-cache';

describe('simsite bounded cache', () => {
  it('keeps recent entries, forgets old ones, and never holds more than its budget', () => {
    const c = new BoundedCache<number, string>(10);
    for (let i = 0; i < 100; i++) c.set(i, `v${i}`);
    expect(c.get(99)).toBe('v99');
    expect(c.get(0)).toBeUndefined();
    expect(c.weight).toBeLessThanOrEqual(10);
  });

  it('promotes an old entry that is read again', () => {
    const c = new BoundedCache<number, number>(4);
    c.set(1, 1);
    c.set(2, 2); // young full: 1, 2 become old
    c.get(1); // promoted to young
    c.set(3, 3); // young full again: {1, 3} old, 2 dropped
    expect(c.get(1)).toBe(1);
    expect(c.get(2)).toBeUndefined();
  });

  it('weighs entries when given a weight function', () => {
    const c = new BoundedCache<string, string>(100, (v) => v.length);
    for (let i = 0; i < 20; i++) c.set(`k${i}`, 'x'.repeat(30));
    expect(c.weight).toBeLessThanOrEqual(100);
  });
});
