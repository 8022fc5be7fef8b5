import { DueQueue } from '../../../src/schedule/simulation/policies/due-queue';

describe('DueQueue', () => {
  it('hands out due subjects earliest first, skips rescheduled entries, and fills from the next due', () => {
    const q = new DueQueue(5);
    [50, 10, 40, 30, 20].forEach((due, id) => q.schedule(id, due));
    q.schedule(0, 5);
    const out: number[] = [];
    q.take(25, 10, false, out);
    expect(out).toEqual([0, 1, 4]);
    // Taken at 25, due at 5, 10 and 20: 40 ms late in all.
    expect(q.drainMeanLatenessHours()).toBeCloseTo(40 / 3 / 3_600_000, 15);
    expect(q.drainMeanLatenessHours()).toBe(0);
    expect(q.overdueCount(100)).toBe(2);
    q.take(25, 1, true, out);
    expect(out).toEqual([3]);
    q.take(1000, 10, true, out);
    expect(out).toEqual([2]);
    q.take(1000, 10, true, out);
    expect(out).toEqual([]);
  });

  it('stays small however often subjects are rescheduled', () => {
    const q = new DueQueue(10);
    for (let k = 0; k < 10_000; k++) q.schedule(k % 10, k);
    expect(q.length).toBeLessThanOrEqual(4 * 10 + 16);
    const out: number[] = [];
    q.take(1e9, 100, false, out);
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
