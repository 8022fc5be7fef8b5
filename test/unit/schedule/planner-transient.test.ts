import { forecastBudgets } from '../../../src/schedule/planner';
import {
  firstVisitHours, laggedWeights, measuredChangeProbability, sawtoothAgeHours2, transientContext, transientMeanDelay,
} from '../../../src/schedule/planner-transient';
import { DEFAULT_POISSON_CONFIG, buildModel, subjectRatePerHour } from '../../../src/schedule/poisson';
import { type SubjectState, newSubjectState } from '../../../src/schedule/subject-state';

const H = 3_600_000;

/**
 * A subject first visited `firstVisitAgoHours` before `nowMs` (a whole timeline read, its window
 * `openHours` long) and last visited `lastVisitAgoHours` before it, having posted at `perHour` all
 * along, the last window at `lastPerHour`.
 */
function subject(nowMs: number, perHour: number, firstVisitAgoHours: number, lastVisitAgoHours: number, lastPerHour = perHour): SubjectState {
  const openHours = 72;
  const allHours = openHours + firstVisitAgoHours - lastVisitAgoHours;
  const lastHours = Math.min(48, allHours);
  const posts = perHour * (allHours - lastHours) + lastPerHour * lastHours;
  return {
    ...newSubjectState(nowMs - (firstVisitAgoHours + 1) * H), lastVisitMs: nowMs - lastVisitAgoHours * H, visits: 3, postsSeen: posts,
    evidencePosts: posts, evidenceHours: allHours, recentPosts: lastPerHour * lastHours, recentHours: lastHours,
    lastPosts: lastPerHour * lastHours, lastHours, allPosts: posts, allHours, openPosts: perHour * openHours, openHours,
  };
}

function modelOf(states: SubjectState[], budgetPerHour: number) {
  return buildModel(states, { ...DEFAULT_POISSON_CONFIG, budgetPerHour, pageSize: 10 });
}

describe('planner over a horizon (transient)', () => {
  it('integrates a sawtooth of posts\' ages exactly', () => {
    expect(sawtoothAgeHours2(30, 10)).toBeCloseTo(150, 9);
    expect(sawtoothAgeHours2(35, 10)).toBeCloseTo(162.5, 9);
    expect(sawtoothAgeHours2(7, Number.POSITIVE_INFINITY)).toBeCloseTo(24.5, 9);
    expect(sawtoothAgeHours2(-1, 10)).toBe(0);
  });

  it('reads each subject\'s first visit from its state', () => {
    const now = 1000 * H;
    const [s] = [subject(now, 0.1, 200, 20)];
    expect(firstVisitHours([s!])[0]).toBeCloseTo(800, 9);
    expect(firstVisitHours([{ ...s!, openHours: -1 }])[0]).toBeNaN();
  });

  it('forecasts less delay than the steady state where quiet subjects\' first revisit falls past the horizon', () => {
    const now = 300 * H;
    // Busy subjects, swept long ago, and many silent ones swept just before now.
    const busy = Array.from({ length: 200 }, (_, i) => subject(now, 0.2 + 0.01 * (i % 10), 280, 2));
    const silent = Array.from({ length: 800 }, () => subject(now, 0, 10, 10));
    const states = [...busy, ...silent];
    const budget = 40;
    const model = modelOf(states, budget);
    const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
    const c = transientContext({ states, model, rates, weights: rates, nowMs: now, horizonHours: 168 });
    const t = transientMeanDelay(c, budget / 2);
    // The silent subjects' pages go to the busy ones: the pace runs above 1.
    expect(t.pace).toBeGreaterThan(1.05);
    const [steady] = forecastBudgets(states, model, [budget / 2]);
    const [horizon] = forecastBudgets(states, model, [budget / 2], { nowMs: now, horizonHours: 168 });
    expect(horizon!.modelMeanDelayHours).toBeCloseTo(t.meanDelayHours, 9);
    expect(horizon!.modelMeanDelayHours).toBeLessThan(0.97 * steady!.modelMeanDelayHours);
    expect(horizon!.p90DelayHours / horizon!.meanDelayHours).toBeCloseTo(steady!.p90DelayHours / steady!.meanDelayHours, 6);
    // Without a horizon the forecast is the steady state's.
    const [plain] = forecastBudgets(states, model, [budget / 2], { nowMs: now });
    expect(plain!.modelMeanDelayHours).toBeCloseTo(steady!.modelMeanDelayHours, 9);
  });

  it('measures how often rates change from the visits, and weighs the posts to come towards the long-run rate by the lag', () => {
    const now = 500 * H;
    const still = Array.from({ length: 400 }, (_, i) => subject(now, 0.05 * (1 + (i % 8)), 400, 1));
    // Half the subjects posted 6x their long-run rate in their last window.
    const moved = still.map((s, i) => (i % 2 === 0 ? subject(now, 0.05 * (1 + (i % 8)), 400, 1, 0.3 * (1 + (i % 8))) : s));
    const pStill = measuredChangeProbability(still, modelOf(still, 40));
    const movedModel = modelOf(moved, 40);
    const pMoved = measuredChangeProbability(moved, movedModel);
    expect(pStill).toBeLessThan(0.05);
    expect(pMoved).toBeGreaterThan(0.3);
    const rates = Float64Array.from(moved, (s) => subjectRatePerHour(s, movedModel));
    const c = transientContext({ states: moved, model: movedModel, rates, weights: rates, nowMs: now, horizonHours: 168 });
    // At the running visits a share 1 − e^(−p/2) moves; visited 4x less often, more of it.
    const atRun = laggedWeights(c, c.runVisitsPerHour);
    const slower = laggedWeights(c, c.runVisitsPerHour.map((f) => f / 4));
    const i = 0;
    expect(c.longRun[i]!).toBeLessThan(rates[i]!);
    const share = (w: number): number => (rates[i]! - w) / (rates[i]! - c.longRun[i]!);
    expect(share(atRun[i]!)).toBeCloseTo(-Math.expm1(-c.changeProbability / 2), 6);
    expect(share(slower[i]!)).toBeCloseTo(-Math.expm1(-2 * c.changeProbability), 6);
  });
});
