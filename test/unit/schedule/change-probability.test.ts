import { seededRng } from '../../../src/core/rng';
import { CHANGE_PROBABILITY_CANDIDATES, MIN_CHANGE_SUBJECTS, beforeLastVisit, chooseChangeProbability } from '../../../src/schedule/change-probability';
import { DEFAULT_POISSON_CONFIG, buildModel, changeOptions, configFromStage, observeOptions } from '../../../src/schedule/poisson';
import { flatRatePrior } from '../../../src/schedule/rate-model';
import { type SubjectState, newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;

/**
 * Subjects visited every `everyHours` from a cold start with no history; each posts at its rate
 * (per hour), from visit `switchAt` on times `factor` (every other subject) or divided by it (the
 * rest): a change of regime shortly before the end. A change by the same factor for everybody
 * would not move the allocation.
 */
function watched(rates: readonly number[], everyHours: number, visits: number, seed: number, factor = 1, switchAt = visits): SubjectState[] {
  const rng = seededRng(seed);
  const opts = observeOptions(DEFAULT_POISSON_CONFIG);
  return rates.map((base, i) => {
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: [], pageLimitHit: false }, opts);
    let t = 0;
    for (let v = 0; v < visits; v++) {
      const rate = v < switchAt ? base : i % 2 ? base * factor : base / factor;
      const end = t + everyHours * H;
      const times: number[] = [];
      for (let u = t - (Math.log(1 - rng.next()) / rate) * H; u < end; u -= (Math.log(1 - rng.next()) / rate) * H) times.push(u);
      t = end;
      s = observe(s, { atMs: t, postTimesMs: times, pageLimitHit: false }, opts);
    }
    return s;
  });
}

function rates(n: number, seed: number): number[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => Math.exp(Math.log(0.05) + 1.2 * (rng.next() - 0.5) * 2));
}

describe('chooseChangeProbability', () => {
  it('turns the change test down where rates hold still', () => {
    const model = buildModel(watched(rates(2000, 1), 12, 40, 2), DEFAULT_POISSON_CONFIG);
    expect(model.rates.changeProbability).toBeLessThanOrEqual(0.03);
    expect(changeOptions(model).changeProbability).toBe(model.rates.changeProbability);
  });

  it('keeps it at the default when every subject just changed regime', () => {
    const model = buildModel(watched(rates(2000, 1), 12, 40, 2, 4, 38), DEFAULT_POISSON_CONFIG);
    expect(model.rates.changeProbability).toBe(Math.max(...CHANGE_PROBABILITY_CANDIDATES));
  });

  it('leaves a configured probability alone', () => {
    const config = { ...DEFAULT_POISSON_CONFIG, changeProbability: 0.2 };
    const model = buildModel(watched(rates(500, 1), 12, 40, 2), config);
    expect(model.rates.changeProbability).toBeUndefined();
    expect(changeOptions(model).changeProbability).toBe(0.2);
  });

  it('falls back when too few subjects have a last window', () => {
    const evidence = Array.from({ length: MIN_CHANGE_SUBJECTS - 1 }, () => ({ posts: 5, hours: 100, recentPosts: 1, recentHours: 10, lastPosts: 4, lastHours: 10 }));
    expect(chooseChangeProbability(flatRatePrior(), evidence, 1.5, 0.3)).toBe(0.3);
  });

  it('takes the last window out of the long and recent sums', () => {
    // recent = before · keep + last, with keep = 1/2 (one visit's half-life)
    const e = beforeLastVisit({ posts: 12, hours: 120, recentPosts: 5, recentHours: 30 }, 3, 10, 0.5);
    expect(e).toEqual({ posts: 9, hours: 110, recentPosts: 4, recentHours: 40, lastPosts: 3, lastHours: 10 });
  });
});

describe('change_probability in a pipeline file', () => {
  it('defaults to auto and takes a fixed number', () => {
    expect(configFromStage({ type: 'poisson', budget_per_hour: 10 }).changeProbability).toBe('auto');
    expect(configFromStage({ type: 'poisson', budget_per_hour: 10, change_probability: 0.1 }).changeProbability).toBe(0.1);
    expect(() => configFromStage({ type: 'poisson', budget_per_hour: 10, change_probability: 'sometimes' as never })).toThrow();
  });
});
