import { pagesPerHour, visitRatePerHour } from '../../../src/schedule/allocation';
import {
  DEFAULT_POISSON_CONFIG, buildModel, configFromStage, nextVisitAtMs, scheduleStatus,
} from '../../../src/schedule/poisson';
import { type SubjectState, newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;

/** Subjects observed for 30 days before time 0, with posts at regular times (known counts). */
function population(postsPerDay: number[]): SubjectState[] {
  return postsPerDay.map((perDay) => {
    const n = Math.round(perDay * 30);
    const times = Array.from({ length: n }, (_, i) => -30 * 24 * H + ((i + 0.5) * 30 * 24 * H) / n);
    return observe(newSubjectState(-30 * 24 * H), { atMs: 0, postTimesMs: times, pageLimitHit: false, historyStartMs: -30 * 24 * H });
  });
}

describe('poisson stage options', () => {
  it('fills defaults and rejects unknown keys', () => {
    const c = configFromStage({ type: 'poisson', budget_per_hour: 500 });
    expect(c).toEqual({ ...DEFAULT_POISSON_CONFIG, budgetPerHour: 500 });
    expect(configFromStage({ type: 'poisson', budget_per_hour: 5, objective: 'freshness', time_of_day: true }).objective).toBe('freshness');
    expect(() => configFromStage({ type: 'poisson', budget_per_hour: 5, budget: 3 } as never)).toThrow();
    expect(() => configFromStage({ type: 'poisson' } as never)).toThrow();
  });
});

describe('buildModel / nextVisitAtMs', () => {
  const states = population([...Array.from({ length: 30 }, (_, i) => 0.5 + (i % 5)), 1, 4]);
  const config = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 3 };
  const model = buildModel(states, config);

  it('spends the budget and spaces visits as c/√λ', () => {
    expect(model.plan.spentPerHour).toBeCloseTo(3, 9);
    const quiet = nextVisitAtMs(states[30]!, model);
    const busy = nextVisitAtMs(states[31]!, model);
    // Four times the rate, half the interval (the prior shifts both estimates a little).
    expect(quiet / busy).toBeGreaterThan(1.9);
    expect(quiet / busy).toBeLessThan(2.1);
  });

  it('sends a never-visited subject to the front of the queue', () => {
    expect(nextVisitAtMs(newSubjectState(123), model)).toBe(123);
  });

  it('stretches every interval by 1/pace', () => {
    const slow = { ...model, pace: 0.5 };
    expect(nextVisitAtMs(states[31]!, slow)).toBeCloseTo(2 * nextVisitAtMs(states[31]!, model), 6);
  });

  it('reports budget use, total rate and predicted delay for `freshet status`', () => {
    const st = scheduleStatus(states, model);
    expect(st.plannedPagesPerHour).toBeCloseTo(3, 9);
    const perDay = st.estimatedPostsPerHour * 24;
    // 30 days of 80 posts a day in all, minus the one post per subject the first window leaves out.
    expect(perDay).toBeGreaterThan(77);
    expect(perDay).toBeLessThan(81);
    expect(st.predictedMeanDelayHours).toBeGreaterThan(0);
    const rate = 4 / 24;
    expect(pagesPerHour(visitRatePerHour(model.plan, rate), rate, 20)).toBeGreaterThan(0);
  });
});
