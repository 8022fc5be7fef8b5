import { pagesPerHour, visitRatePerHour } from '../../../src/schedule/allocation';
import {
  DEFAULT_POISSON_CONFIG, buildModel, configFromStage, nextVisitAtMs, retired, scheduleStatus,
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

describe('retirement (retire_after_quiet_hours)', () => {
  /** 30 feeds publishing one an hour and `n` articles discovered 100 h ago, revisited every 10 h, never changed. */
  function newsSite(n: number): SubjectState[] {
    const feeds = Array.from({ length: 30 }, () => observe(newSubjectState(-100 * H), {
      atMs: 0, postTimesMs: Array.from({ length: 100 }, (_, i) => -100 * H + (i + 0.5) * H), pageLimitHit: false, historyStartMs: -100 * H,
    }));
    const articles = Array.from({ length: n }, () => {
      let s = newSubjectState(-100 * H);
      for (let t = -90; t <= 0; t += 10) s = observe(s, { atMs: t * H, postTimesMs: [], pageLimitHit: false });
      return s;
    });
    return [...feeds, ...articles];
  }

  it('retires a subject watched that long without a change since first seen or last changed, and no other', () => {
    const config = { retireAfterQuietHours: 48 };
    const [feed] = newsSite(1);
    const article = newsSite(1)[30];
    expect(retired(article!, config)).toBe(true);
    expect(retired(feed!, config)).toBe(false);
    expect(retired(article!, { retireAfterQuietHours: 0 })).toBe(false);
    expect(retired(article!, { retireAfterQuietHours: 101 })).toBe(false);
    // A change 40 h before the last visit restarts the count; a subject visited once is never retired.
    expect(retired({ ...article!, lastPostMs: -40 * H }, config)).toBe(false);
    expect(retired({ ...article!, visits: 1 }, config)).toBe(false);
    expect(configFromStage({ type: 'poisson', budget_per_hour: 5, retire_after_quiet_hours: 72 }).retireAfterQuietHours).toBe(72);
  });

  it('sends retired subjects to the exploration floor and gives their budget to the feeds', () => {
    const states = newsSite(1000);
    const base = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 200, maxVisitIntervalHours: 24 * 7 };
    const off = buildModel(states, base);
    const on = buildModel(states, { ...base, retireAfterQuietHours: 48 });
    expect(on.plan.spentPerHour).toBeCloseTo(200, 6);
    const feedOff = nextVisitAtMs(states[0]!, off);
    const feedOn = nextVisitAtMs(states[0]!, on);
    // 0.194 h → 0.155 h: the thousand articles' share goes to the feeds.
    expect(feedOn).toBeLessThan(feedOff * 0.85);
    // An article: visited once a week, not by its share of the budget.
    expect(nextVisitAtMs(states[30]!, on)).toBeCloseTo(24 * 7 * H, -3);
    expect(nextVisitAtMs(states[30]!, off)).toBeLessThan(24 * 7 * H * 0.9);
  });
});
