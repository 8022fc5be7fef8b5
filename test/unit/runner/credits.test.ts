import { Credits } from '../../../src/runner/credits';

describe('Credits', () => {
  it('never hands out more than the limit', () => {
    const c = new Credits(3);
    c.take(2);
    expect(c.free).toBe(1);
    expect(() => c.take(2)).toThrow(/taking 2 credits with 1 free/);
    c.take(1);
    expect(c.free).toBe(0);
    expect(() => c.release(4)).toThrow(/released more/);
  });

  it('wakes waiters on release and resolves drained when nothing is in flight', async () => {
    const c = new Credits(1);
    c.take(1);
    let woke = false;
    const waiting = c.whenFree().then(() => (woke = true));
    const drained = c.drained();
    await Promise.resolve();
    expect(woke).toBe(false);
    c.release();
    await waiting;
    await drained;
    expect(woke).toBe(true);
    expect(c.used).toBe(0);
  });

  it('trades a fetch credit for a settling one while one is free, and releases whichever the job holds', async () => {
    const c = new Credits(2, 1);
    c.take(2);
    expect(c.free).toBe(0);
    let woke = false;
    const waiting = c.whenFree().then(() => (woke = true));
    expect(c.settle()).toBe(true);
    await waiting;
    expect(woke).toBe(true);
    expect({ free: c.free, used: c.used, settling: c.settlingUsed }).toEqual({ free: 1, used: 2, settling: 1 });
    // No settling credit left: the next job keeps its fetch credit until its ack.
    expect(c.settle()).toBe(false);
    c.take(1);
    expect({ free: 0, used: 3 }).toEqual({ free: c.free, used: c.used });
    const drained = c.drained();
    c.release(1, true);
    c.release(2);
    await drained;
    expect({ used: c.used, settling: c.settlingUsed }).toEqual({ used: 0, settling: 0 });
    expect(() => c.release(1, true)).toThrow(/released more/);
  });

  it('never settles with no settling credits (max_settling 0)', () => {
    const c = new Credits(1, 0);
    c.take(1);
    expect(c.settle()).toBe(false);
    expect(c.free).toBe(0);
  });

  it('whenFree(n) resolves at once only when n fetch credits are free, else at the next release', async () => {
    const c = new Credits(4);
    c.take(4);
    let woke = false;
    const waiting = c.whenFree(2).then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    c.release();
    await waiting;
    expect(woke).toBe(true);
    let atOnce = false;
    void c.whenFree(2).then(() => (atOnce = true));
    await Promise.resolve();
    expect(atOnce).toBe(false);
    c.release();
    await Promise.resolve();
    expect(atOnce).toBe(true);
    await expect(c.whenFree(2)).resolves.toBeUndefined();
  });
});
