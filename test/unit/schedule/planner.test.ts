import { MIN_CALIBRATION_POSTS, forecastBudgets, realizedDelay } from '../../../src/schedule/planner';
import { DEFAULT_POISSON_CONFIG, buildModel } from '../../../src/schedule/poisson';
import { DELAY_HALF_LIFE_HOURS, type SubjectState, newSubjectState } from '../../../src/schedule/subject-state';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { DEFAULT_SIMULATION, type SimulationOptions, simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { DEFAULT_WORLD, generateWorld } from '../../../src/schedule/simulation/world';

const DAY_MS = 86_400_000;
const H = 3_600_000;

/** Subjects watched for 100 h at rates from 0.01 to 0.2 an hour, whose later visits found `delayHours` of delay per post. */
function watched(n: number, nowMs: number, delayHours: number): SubjectState[] {
  return Array.from({ length: n }, (_, i) => {
    const posts = Math.round(100 * 0.01 * (1 + (i % 20)));
    return {
      ...newSubjectState(0), lastVisitMs: nowMs, visits: 10, postsSeen: posts, evidencePosts: posts, evidenceHours: 100,
      recentPosts: posts / 10, recentHours: 10, lastPosts: posts / 10, lastHours: 10, allPosts: posts, allHours: 100,
      delayPosts: 1, delayHours,
    };
  });
}

describe('what-if planner', () => {
  it('predicts the simulated mean delay at other budgets from one crawl\'s estimates', () => {
    const subjects = 1200;
    const base: Omit<SimulationOptions, 'budgetPerHour'> = { ...DEFAULT_SIMULATION, warmupMs: 3 * DAY_MS, measureMs: 3 * DAY_MS, tailMs: DAY_MS };
    const world = generateWorld({ ...DEFAULT_WORLD, subjects, endMs: simulationEndMs(base), seed: 31 });
    const crawl = (budgetPerHour: number) => {
      const policy = new FreshetPolicy({ subjects, startMs: 0, budgetPerHour, pageSize: base.pageSize });
      const m = simulate(world, policy, { ...base, budgetPerHour });
      return { policy, m };
    };
    const budgets = [subjects / 24, (3 * subjects) / 24];
    const first = crawl(budgets[0]!);
    const states = Array.from({ length: subjects }, (_, id) => first.policy.state(id));
    const [at1, at3] = forecastBudgets(states, first.policy.currentModel, budgets);
    const measured3 = crawl(budgets[1]!).m.meanDelayHours;
    expect(Math.abs(at1!.meanDelayHours / first.m.meanDelayHours - 1)).toBeLessThan(0.15);
    expect(Math.abs(at3!.meanDelayHours / measured3 - 1)).toBeLessThan(0.15);
    expect(at3!.meanDelayHours).toBeLessThan(at1!.meanDelayHours);
    expect(at3!.p90DelayHours).toBeGreaterThan(at3!.meanDelayHours);
    expect(at3!.withinDayShare).toBeGreaterThanOrEqual(at1!.withinDayShare);
  });

  it('scales every budget\'s forecast by the delay the crawl realized at the budget it runs on', () => {
    const now = 100 * H;
    const running = 20;
    const plain = watched(400, now, 0);
    const model = buildModel(plain, { ...DEFAULT_POISSON_CONFIG, budgetPerHour: running, pageSize: 10 });
    const [modelRunning, modelDouble] = forecastBudgets(plain, model, [running, 2 * running]);
    expect(modelRunning!.calibration).toBe(1);
    // The crawl's visits found 1.3 times the delay the model expects at its own budget.
    const seen = 1.3 * modelRunning!.meanDelayHours;
    const states = watched(400, now, seen);
    expect(realizedDelay(states, now).posts).toBe(400);
    expect(realizedDelay(states, now).meanDelayHours).toBeCloseTo(seen, 9);
    const [atRunning, atDouble] = forecastBudgets(states, model, [running, 2 * running], { nowMs: now });
    // By Little's law over the faded window: a post that waited d is counted from its publication,
    // where it weighs e^(−k·d), and its wait as the window saw it, (1 − e^(−k·d))/k: (e^(k·d) − 1)/k per post.
    const k = Math.LN2 / DELAY_HALF_LIFE_HOURS;
    const windowed = Math.expm1(k * seen) / k;
    const ratio = windowed / modelRunning!.meanDelayHours;
    expect(ratio).toBeGreaterThan(1.3);
    expect(atRunning!.calibration).toBeCloseTo(ratio, 9);
    expect(atRunning!.meanDelayHours).toBeCloseTo(windowed, 9);
    expect(atDouble!.meanDelayHours).toBeCloseTo(ratio * modelDouble!.meanDelayHours, 9);
    expect(atDouble!.modelMeanDelayHours).toBeCloseTo(modelDouble!.meanDelayHours, 9);
    expect(atDouble!.p90DelayHours).toBeCloseTo(ratio * modelDouble!.p90DelayHours, 6);
    expect(atDouble!.withinDayShare).toBeLessThanOrEqual(modelDouble!.withinDayShare);
    // Two half-lives later only 100 posts' worth of delays is left: too few to say.
    expect(400 / 4).toBeLessThan(MIN_CALIBRATION_POSTS);
    const [stale] = forecastBudgets(states, model, [running], { nowMs: now + 2 * DELAY_HALF_LIFE_HOURS * H });
    expect(stale!.calibration).toBe(1);
    expect(stale!.meanDelayHours).toBeCloseTo(modelRunning!.meanDelayHours, 9);
  });

  it('counts the posts still waiting for a quiet subject\'s visit, not only the delays found so far', () => {
    const now = 400 * H;
    const busy = watched(400, now, 2);
    // Quiet subjects (a post every 100 h): nothing found yet since their first visit, which was 300 h ago.
    const quiet = (lastVisitMs: number): SubjectState[] => Array.from({ length: 400 }, () => ({
      ...newSubjectState(0), lastVisitMs, visits: 2, evidencePosts: 1, evidenceHours: 100, allPosts: 1, allHours: 100, lastPosts: 1, lastHours: 100,
    }));
    const justVisited = [...busy, ...quiet(now)];
    const waiting = [...busy, ...quiet(now - 300 * H)];
    const model = buildModel(justVisited, { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 20, pageSize: 10 });
    // The found delays are the same: the posts found alone cannot tell the two crawls apart.
    expect(realizedDelay(waiting, now)).toEqual(realizedDelay(justVisited, now));
    const [settled] = forecastBudgets(justVisited, model, [20], { nowMs: now });
    const [late] = forecastBudgets(waiting, model, [20], { nowMs: now });
    expect(late!.modelMeanDelayHours).toBeCloseTo(settled!.modelMeanDelayHours, 9);
    expect(late!.calibration).toBeGreaterThan(1.2 * settled!.calibration);
  });
});
