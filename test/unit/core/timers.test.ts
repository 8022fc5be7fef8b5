import { setTimeout as sleep } from 'node:timers/promises';
import { clampTimerMs, MAX_TIMER_MS, setRepeating, setTimer, sleepMs, timerMs, timerSecs } from '../../../src/core/timers';

/** Real timers on purpose: the bug is what Node itself does with a delay above 2^31−1 ms. */
describe('timers past 2^31−1 ms', () => {
  it('a 30-day setTimer does not fire after a few ms, and clear() stops it', async () => {
    let fired = 0;
    const t = setTimer(() => (fired += 1), 2_592_000 * 1000);
    await sleep(30);
    expect(fired).toBe(0);
    t.clear();
  });

  it('setTimer re-arms past the limit and fires once the whole delay has passed', () => {
    jest.useFakeTimers();
    try {
      let fired = 0;
      setTimer(() => (fired += 1), MAX_TIMER_MS * 2 + 5);
      jest.advanceTimersByTime(MAX_TIMER_MS * 2);
      expect(fired).toBe(0);
      jest.advanceTimersByTime(5);
      expect(fired).toBe(1);
      setTimer(() => (fired += 1), 0);
      jest.advanceTimersByTime(0);
      expect(fired).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('setRepeating with a period past the limit does not spin', async () => {
    let ticks = 0;
    const t = setRepeating(() => (ticks += 1), 10_000_000 * 1000);
    await sleep(30);
    clearInterval(t);
    expect(ticks).toBe(0);
  });

  it('sleepMs clamps and still honours an abort', async () => {
    const ac = new AbortController();
    const started = Date.now();
    const p = sleepMs(10_000_000 * 1000, ac.signal);
    const outcome = await Promise.race([p.then(() => 'woke'), sleep(30).then(() => 'still asleep')]);
    expect(outcome).toBe('still asleep');
    ac.abort(new Error('stop'));
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([[-5, 0], [Number.NaN, 0], [1500, 1500], [MAX_TIMER_MS + 1, MAX_TIMER_MS], [Infinity, MAX_TIMER_MS]])('clampTimerMs(%s) = %s', (ms, out) => {
    expect(clampTimerMs(ms)).toBe(out);
  });

  it('schema builders refuse a duration no timer can hold, saying why', () => {
    expect(timerMs(0).safeParse(MAX_TIMER_MS).success).toBe(true);
    const ms = timerMs(0).safeParse(MAX_TIMER_MS + 1);
    expect(ms.success ? '' : ms.error.issues[0]!.message).toBe('at most 2,147,483,647 ms (about 24.8 days, the longest delay a Node.js timer keeps)');
    expect(timerSecs(1).safeParse(2_147_483).success).toBe(true);
    expect(timerSecs(1).safeParse(2_147_484).success).toBe(false);
  });
});
