import { optimisticRatePerHour } from '../../../src/schedule/optimism';
import { DEFAULT_POISSON_CONFIG, allocationRatePerHour, buildModel, configFromStage, subjectRatePerHour } from '../../../src/schedule/poisson';
import { gammaRatePrior, posteriorMeanPerHour, posteriorVariancePerHour2 } from '../../../src/schedule/rate-model';
import { newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;

describe('optimisticRatePerHour (optimism_sd)', () => {
  const prior = gammaRatePrior(0.5, 12);
  const evidence = (posts: number, hours: number) => ({ posts, hours, recentPosts: 0, recentHours: 0 });

  it('is the posterior mean at 0, mean ± k·sd otherwise, never below zero', () => {
    const e = evidence(3, 100);
    const mean = posteriorMeanPerHour(prior, 3, 100);
    const sd = Math.sqrt(posteriorVariancePerHour2(prior, 3, 100));
    expect(optimisticRatePerHour(mean, prior, e, 0)).toBe(mean);
    expect(optimisticRatePerHour(mean, prior, e, 1)).toBeCloseTo(mean + sd, 12);
    expect(optimisticRatePerHour(mean, prior, e, -0.5)).toBeCloseTo(mean - 0.5 * sd, 12);
    expect(optimisticRatePerHour(mean, prior, e, -100)).toBe(0);
  });

  it('moves an uncertain subject far more than a well-measured one at the same rate', () => {
    // 1 post over 100 h against 100 posts over 10,000 h: the same rate, a tenth of the spread.
    const few = optimisticRatePerHour(posteriorMeanPerHour(prior, 1, 100), prior, evidence(1, 100), 1) / posteriorMeanPerHour(prior, 1, 100);
    const many = optimisticRatePerHour(posteriorMeanPerHour(prior, 100, 10_000), prior, evidence(100, 10_000), 1) / posteriorMeanPerHour(prior, 100, 10_000);
    expect(few).toBeGreaterThan(1.5);
    expect(many).toBeLessThan(1.15);
  });
});

describe('optimism_sd in the model', () => {
  const states = Array.from({ length: 40 }, (_, i) => {
    const n = i % 4 === 0 ? 0 : 30 * (1 + (i % 5));
    const times = Array.from({ length: n }, (_, j) => -30 * 24 * H + ((j + 0.5) * 30 * 24 * H) / n);
    return observe(newSubjectState(-30 * 24 * H), { atMs: 0, postTimesMs: times, pageLimitHit: false, historyStartMs: -30 * 24 * H });
  });

  it('weighs the allocation only, not the estimates', () => {
    const config = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 5 };
    const plain = buildModel(states, config);
    const hedged = buildModel(states, { ...config, optimismSd: -0.5 });
    const silent = states[0]!;
    const busy = states[1]!;
    expect(subjectRatePerHour(silent, hedged)).toBeCloseTo(subjectRatePerHour(silent, plain), 12);
    // A subject seen silent for 30 days is the uncertain one: its weight drops by far the most.
    const drop = (s: typeof silent): number => allocationRatePerHour(s, hedged) / allocationRatePerHour(s, plain);
    expect(drop(silent)).toBeLessThan(0.8);
    expect(drop(busy)).toBeGreaterThan(0.9);
    expect(hedged.plan.spentPerHour).toBeCloseTo(5, 6);
  });

  it('is read from the stage options', () => {
    expect(configFromStage({ type: 'poisson', budget_per_hour: 5 }).optimismSd).toBe(0);
    expect(configFromStage({ type: 'poisson', budget_per_hour: 5, optimism_sd: -0.5 }).optimismSd).toBe(-0.5);
  });
});
