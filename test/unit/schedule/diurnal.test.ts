import { seededRng } from '../../../src/core/rng';
import {
  DAY_MS, FLAT_PROFILE, addPostTimes, emptyDiurnal, estimateProfile, makeProfile, meanSqrtMultiplier, nextVisitAfterMs,
  profileFromSine, rateMultiplier,
} from '../../../src/schedule/diurnal';

const HOUR_MS = 3_600_000;

/** Post times from rate × m(t) by thinning. */
function posts(seed: number, perDay: number, days: number, amplitude: number, peakMs: number): number[] {
  const rng = seededRng(seed);
  const p = makeProfile(amplitude, peakMs);
  const out: number[] = [];
  let t = 0;
  for (;;) {
    t += (-Math.log(1 - rng.next()) * DAY_MS) / (perDay * (1 + amplitude));
    if (t > days * DAY_MS) return out;
    if (rng.next() * (1 + amplitude) < rateMultiplier(p, t)) out.push(t);
  }
}

function circularHoursApart(aMs: number, bMs: number): number {
  const d = Math.abs(aMs - bMs) % DAY_MS;
  return Math.min(d, DAY_MS - d) / HOUR_MS;
}

describe('time-of-day profile', () => {
  it('gives the single-subject bound of the issue: E[√m]² ≈ 0.905 at a = 0.8, i.e. ~9.5 % less delay', () => {
    let fine = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) fine += Math.sqrt(1 + 0.8 * Math.cos((2 * Math.PI * (i + 0.5)) / n));
    expect(meanSqrtMultiplier(0.8)).toBeCloseTo(fine / n, 6);
    expect(1 - meanSqrtMultiplier(0.8) ** 2).toBeGreaterThan(0.09);
    expect(1 - meanSqrtMultiplier(0.8) ** 2).toBeLessThan(0.1);
    expect(meanSqrtMultiplier(0)).toBe(1);
  });

  it('recovers amplitude and peak hour from the post times alone', () => {
    const peakMs = 15 * HOUR_MS;
    const p = estimateProfile(addPostTimes(emptyDiurnal(), posts(1, 20, 60, 0.8, peakMs)));
    expect(p.amplitude).toBeGreaterThan(0.7);
    expect(p.amplitude).toBeLessThan(0.9);
    expect(circularHoursApart(p.peakMs, peakMs)).toBeLessThan(0.5);
  });

  it('maps the world sine 1 + a·sin(2π(t − φ)/24 h) to a peak a quarter day after φ', () => {
    const p = profileFromSine(0.8, 3 * HOUR_MS);
    expect(p.peakMs).toBe(9 * HOUR_MS);
    expect(rateMultiplier(p, 9 * HOUR_MS)).toBeCloseTo(1.8, 12);
    expect(rateMultiplier(p, 21 * HOUR_MS)).toBeCloseTo(0.2, 12);
  });

  it('does not see a rhythm in a flat subject with few posts', () => {
    let flat = 0;
    for (let seed = 0; seed < 20; seed++) {
      const p = estimateProfile(addPostTimes(emptyDiurnal(), posts(100 + seed, 1, 30, 0, 0)));
      if (p.amplitude < 0.3) flat++;
    }
    expect(flat).toBeGreaterThanOrEqual(17);
    expect(estimateProfile(emptyDiurnal())).toBe(FLAT_PROFILE);
  });

  it('forgets old posts with the given keep factor', () => {
    const d = addPostTimes(addPostTimes(emptyDiurnal(), [0, HOUR_MS]), [2 * HOUR_MS], 0.5);
    expect(d.n).toBeCloseTo(2, 12);
  });
});

describe('nextVisitAfterMs', () => {
  it('is exactly one interval later without a rhythm', () => {
    expect(nextVisitAfterMs(FLAT_PROFILE, 1000, 0.25)).toBe(1000 + 4 * HOUR_MS);
    expect(nextVisitAfterMs(FLAT_PROFILE, 0, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  const profile = makeProfile(0.8, 14 * HOUR_MS);
  const visits = (f: number, days: number): number[] => {
    const out: number[] = [];
    let t = 7_654_321;
    while (t < days * DAY_MS) {
      const next = nextVisitAfterMs(profile, t, f);
      expect(next).toBeGreaterThan(t);
      out.push((t = next));
    }
    return out;
  };

  it('keeps the allotted number of visits per day, at every frequency', () => {
    for (const f of [4, 1, 1 / 6, 1 / 24, 1 / 30, 1 / 60, 1 / 400]) {
      const days = Math.max(20, 300 / (24 * f));
      const ratio = visits(f, days).length / days / (24 * f);
      expect(ratio).toBeGreaterThan(0.95);
      expect(ratio).toBeLessThan(1.05);
    }
  });

  it('visits frequently checked subjects more in busy hours, about as √m', () => {
    let busy = 0;
    let quiet = 0;
    for (const t of visits(4, 20)) {
      const h = (t % DAY_MS) / HOUR_MS;
      if (h >= 11 && h < 17) busy++;
      if (h >= 23 || h < 5) quiet++;
    }
    expect(busy / quiet).toBeGreaterThan(2);
    expect(busy / quiet).toBeLessThan(3.2);
  });

  it('puts a daily visit just after the busy hours, where the mean delay is shortest', () => {
    const v = visits(1 / 24, 30).slice(-10);
    for (const t of v) expect(circularHoursApart(t, 20 * HOUR_MS)).toBeLessThan(1);
  });
});
