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
});
