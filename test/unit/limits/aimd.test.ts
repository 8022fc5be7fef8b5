import { AimdController, DEFAULT_AIMD } from '../../../src/limits/aimd';
import { seededRng } from '../../../src/core/rng';
import { simulateCapacity } from '../../helpers/capacity-sim';

const rnd = (seed = 7): (() => number) => {
  const r = seededRng(seed);
  return () => r.next();
};

const simulate = simulateCapacity;

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('AimdController against an unannounced capacity (418, no Retry-After)', () => {
  // Several capacities, none of them the defaults' design point: the mechanism, not a fitted number.
  it.each([[0.5, 3], [2, 5], [5, 10], [20, 40]])('reaches >= 90 %% of %p req/s within 10 minutes and is refused on <= 2 %% of requests after that', (perSec, burst) => {
    const { ok, refused, ctl } = simulate(perSec, burst, 30 * 60);
    const after = (xs: number[]) => xs.slice(600);
    const rate = sum(after(ok)) / (20 * 60);
    expect(rate).toBeGreaterThanOrEqual(0.9 * perSec);
    expect(sum(after(refused)) / (sum(after(ok)) + sum(after(refused)))).toBeLessThanOrEqual(0.02);
    // The learned rate is the capacity, within 15 %.
    expect(Math.abs(ctl.sustainableRatePerSec - perSec) / perSec).toBeLessThan(0.15);
  });

  it('is deterministic for a seed', () => {
    expect(simulate(5, 10, 300, 3).ok).toEqual(simulate(5, 10, 300, 3).ok);
  });
});

describe('AimdController backoff', () => {
  it('doubles the pause on each refusal up to the cap, jittered within ±20 %', () => {
    const ctl = new AimdController({ baseBackoffMs: 1000, maxBackoffMs: 8000 }, rnd(), 0);
    let now = 0;
    const pauses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = ctl.nextSendAtMs(now);
      ctl.onRefusal(sent, sent);
      pauses.push(ctl.snapshot().pausedUntilMs - sent);
      now = ctl.snapshot().pausedUntilMs;
    }
    const nominal = [1000, 2000, 4000, 8000, 8000, 8000];
    pauses.forEach((p, i) => {
      expect(p).toBeGreaterThanOrEqual(nominal[i]! * 0.8);
      expect(p).toBeLessThanOrEqual(nominal[i]! * 1.2);
    });
    expect(ctl.snapshot().backoffLevel).toBe(6);
  });

  it('never sends before the pause ends', () => {
    const ctl = new AimdController({}, rnd(), 0);
    ctl.onRefusal(1000, 1000);
    expect(ctl.nextSendAtMs(1001)).toBe(ctl.snapshot().pausedUntilMs);
  });

  it('waits exactly an announced Retry-After', () => {
    const ctl = new AimdController({}, rnd(), 0);
    ctl.onRefusal(1000, 1000, 30_000);
    expect(ctl.snapshot().pausedUntilMs).toBe(31_000);
  });

  it('counts a refusal of a request sent before the pause began once: no second cut, no escalation', () => {
    const ctl = new AimdController({ initialRatePerSec: 10 }, rnd(), 0);
    ctl.onRefusal(1000, 900);
    const after = ctl.snapshot();
    ctl.onRefusal(1010, 950); // in flight when the first refusal came back
    expect(ctl.snapshot()).toEqual({ ...after, refusals: 2 });
  });

  it('resets the backoff level after a quiet period', () => {
    const ctl = new AimdController({ resetAfterQuietMs: 60_000 }, rnd(), 0);
    ctl.onRefusal(1000, 1000);
    ctl.onRefusal(20_000, 20_000);
    expect(ctl.snapshot().backoffLevel).toBe(2);
    ctl.onSuccess(90_000);
    expect(ctl.snapshot().backoffLevel).toBe(0);
  });

  it('slows down when latency climbs, without any refusal', () => {
    const ctl = new AimdController({ initialRatePerSec: 4 }, rnd(), 0);
    let t = 0;
    for (let i = 0; i < 20; i++) ctl.onSuccess((t += 2000), 50);
    const fast = ctl.snapshot().ratePerSec;
    for (let i = 0; i < 20; i++) ctl.onSuccess((t += 2000), 400);
    expect(ctl.snapshot().ratePerSec).toBeLessThan(fast * 0.5);
    expect(ctl.snapshot().refusals).toBe(0);
  });

  it('does not take a client\'s own jitter of a few ms for a struggling site (the rate would sink to the minimum)', () => {
    const ctl = new AimdController({ initialRatePerSec: 4 }, rnd(), 0);
    let t = 0;
    for (let i = 0; i < 20; i++) ctl.onSuccess((t += 2000), 2);
    const before = ctl.snapshot().ratePerSec;
    for (let i = 0; i < 40; i++) ctl.onSuccess((t += 2000), 30);
    expect(ctl.snapshot().ratePerSec).toBeGreaterThanOrEqual(before);
  });

  it('refuses nonsense options', () => {
    expect(() => new AimdController({ minRatePerSec: 0 }, rnd(), 0)).toThrow(RangeError);
    expect(() => new AimdController({ decreaseFactor: 1 }, rnd(), 0)).toThrow(RangeError);
    expect(DEFAULT_AIMD.decreaseFactor).toBeLessThan(1);
  });
});
