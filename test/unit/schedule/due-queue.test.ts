import { DueQueue } from '../../../src/schedule/simulation/policies/due-queue';
import { VisitQueue } from '../../../src/schedule/simulation/policies/visit-queue';

describe('DueQueue', () => {
  it('hands out due subjects earliest first, skips rescheduled entries, and fills from the next due', () => {
    const q = new DueQueue(5);
    [50, 10, 40, 30, 20].forEach((due, id) => q.schedule(id, due));
    q.schedule(0, 5);
    const out: number[] = [];
    q.take(25, 10, false, out);
    expect(out).toEqual([0, 1, 4]);
    // Taken at 25, due at 5, 10 and 20: 40 ms late in all.
    expect(q.drainLateness().latenessHours).toBeCloseTo(40 / 3 / 3_600_000, 15);
    expect(q.drainLateness().latenessHours).toBe(0);
    expect(q.overdueCount(100)).toBe(2);
    q.take(25, 1, true, out);
    expect(out).toEqual([3]);
    q.take(1000, 10, true, out);
    expect(out).toEqual([2]);
    q.take(1000, 10, true, out);
    expect(out).toEqual([]);
  });

  it('reports the intervals the taken visits were planned for beside their lateness', () => {
    const q = new DueQueue(3);
    q.schedule(0, 100, Number.NEGATIVE_INFINITY, 60);
    q.schedule(1, 200, Number.NEGATIVE_INFINITY, 180);
    q.schedule(2, 900, Number.NEGATIVE_INFINITY, 0);
    const out: number[] = [];
    q.take(210, 10, false, out);
    expect(out).toEqual([0, 1]);
    const drained = q.drainLateness();
    expect(drained.latenessHours).toBeCloseTo(60 / 3_600_000, 15);
    expect(drained.intervalHours).toBeCloseTo(30 / 3_600_000, 15);
    // Subject 0: 110 late on an interval of 40; subject 1: 10 late on 20 (not 120 over 60).
    expect(drained.latenessInIntervals).toBeCloseTo((110 / 40 + 10 / 20) / 2, 12);
    expect(q.drainLateness().intervalHours).toBeNaN();
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

describe('DueQueue fill (issue 21)', () => {
  it('never pulls a subject forward before its notBefore time, and looks past those it may not pull', () => {
    const q = new DueQueue(3);
    q.schedule(0, 100, 90);
    q.schedule(1, 200, 50);
    q.schedule(2, 300, 80);
    const out: number[] = [];
    q.take(60, 5, true, out);
    expect(out).toEqual([1]);
    q.take(85, 5, true, out);
    expect(out).toEqual([2]);
    q.take(95, 5, true, out);
    expect(out).toEqual([0]);
  });

  it('refuses a due time that is not finite', () => {
    expect(() => new DueQueue(1).schedule(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('VisitQueue', () => {
  it('keeps room for due revisits while the first sweep runs, and gives the sweep what revisits leave', () => {
    const q = new VisitQueue(10);
    const out: number[] = [];
    q.take(0, 4, true, out);
    expect(out).toEqual([0, 1, 2, 3]);
    for (const id of out) q.visited(id);
    [0, 1, 2, 3].forEach((id) => q.due.schedule(id, 10 + id));
    q.take(13, 4, true, out);
    // Two revisits (half the tick), then two first visits.
    expect(out).toEqual([0, 1, 4, 5]);
    for (const id of [4, 5]) q.visited(id);
    expect(q.unvisitedCount).toBe(4);
    q.visited(9);
    q.take(13, 10, false, out);
    expect(out).toEqual([2, 3, 6, 7, 8]);
  });
});
