import { seededRng } from '../../../src/core/rng';
import { freshnessMeter } from '../../../src/schedule/freshness';
import { burstDispersion, expectedPostRates, forecastBudgets } from '../../../src/schedule/planner';
import { DEFAULT_POISSON_CONFIG, buildModel, subjectRatePerHour } from '../../../src/schedule/poisson';
import { type SubjectState, newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;
const DAY = 24 * H;
const SUBJECTS = 3000;

/**
 * A heavy-tailed population (log-normal rates, σ = 2, median 0.2 a day) watched daily for 20 days
 * after a first visit that reads a page of 10 of a 30-day history. With `branching`, every post
 * triggers Poisson(branching) more within about an hour, clusters arriving at rate λ(1 − branching)
 * so that the long-run rate stays λ.
 */
function population(branching: number, seed: number): { states: SubjectState[]; ratesPerHour: number[] } {
  const rng = seededRng(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const poisson = (mean: number): number => {
    let k = 0;
    for (let p = Math.exp(-mean), u = rng.next(); u > p; k++) u *= rng.next();
    return k;
  };
  const states: SubjectState[] = [];
  const ratesPerHour: number[] = [];
  for (let i = 0; i < SUBJECTS; i++) {
    const rate = (0.2 / 24) * Math.exp(2 * normal());
    ratesPerHour.push(rate);
    const posts: number[] = [];
    for (let t = -30 * DAY - (Math.log(1 - rng.next()) / (rate * (1 - branching))) * H; t < 20 * DAY; t -= (Math.log(1 - rng.next()) / (rate * (1 - branching))) * H) {
      const queue = [t];
      while (queue.length > 0 && posts.length < 5000) {
        const parent = queue.pop()!;
        posts.push(parent);
        for (let c = poisson(branching); c > 0; c--) queue.push(parent - Math.log(1 - rng.next()) * H);
      }
    }
    posts.sort((a, b) => a - b);
    const history = posts.filter((p) => p <= 0).slice(-10);
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: history, pageLimitHit: history.length === 10 });
    for (let day = 1; day <= 20; day++) {
      s = observe(s, { atMs: day * DAY, postTimesMs: posts.filter((p) => p > (day - 1) * DAY && p <= day * DAY), pageLimitHit: false });
    }
    states.push(s);
  }
  return { states, ratesPerHour };
}

describe('what-if planner where posts come in bursts', () => {
  const config = { ...DEFAULT_POISSON_CONFIG, pageSize: 10, budgetPerHour: SUBJECTS / 24 };
  const independent = population(0, 7);
  const bursty = population(0.5, 7);

  it('measures the over-dispersion from how windows split: about 1 for independent posts, well above it in bursts', () => {
    expect(burstDispersion(independent.states)).toBeGreaterThan(0.9);
    expect(burstDispersion(independent.states)).toBeLessThan(1.15);
    expect(burstDispersion(bursty.states)).toBeGreaterThan(1.5);
    expect(burstDispersion(bursty.states.slice(0, 5))).toBe(1);
  });

  it('weighs the quiet subjects by what they will post, not by estimates that bursts made low', () => {
    const { states, ratesPerHour } = bursty;
    const model = buildModel(states, config);
    const plain = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
    const expected = expectedPostRates(states, model, burstDispersion(states));
    let truth = 0;
    let sumPlain = 0;
    let sumExpected = 0;
    // The quiet: estimated under one post in ten days.
    for (let id = 0; id < SUBJECTS; id++) {
      if (plain[id]! * 24 >= 0.1) continue;
      truth += ratesPerHour[id]!;
      sumPlain += plain[id]!;
      sumExpected += expected[id]!;
    }
    expect(sumPlain / truth).toBeLessThan(0.8);
    expect(Math.abs(Math.log(sumExpected / truth))).toBeLessThan(Math.abs(Math.log(sumPlain / truth)) / 2);
  });

  it('leaves the forecast alone where posts are independent, and lengthens it where they burst', () => {
    const model = buildModel(independent.states, config);
    const rates = Float64Array.from(independent.states, (s) => subjectRatePerHour(s, model));
    expect(expectedPostRates(independent.states, model, 1)).toEqual(rates);
    const [plainForecast] = forecastBudgets(independent.states, model, [config.budgetPerHour]);
    expect(plainForecast!.dispersion).toBe(1);
    const burstyModel = buildModel(bursty.states, config);
    const [withBursts] = forecastBudgets(bursty.states, burstyModel, [config.budgetPerHour]);
    const [asIfIndependent] = forecastBudgets(bursty.states.map((s) => ({ ...s, splitSquares: s.splitPosts })), burstyModel, [config.budgetPerHour]);
    expect(withBursts!.dispersion).toBeGreaterThan(1.5);
    expect(withBursts!.meanDelayHours).toBeGreaterThan(1.05 * asIfIndependent!.meanDelayHours);
    expect(withBursts!.plannedPagesPerHour).toBe(asIfIndependent!.plannedPagesPerHour);
  });

  it('widens the freshness meter\'s interval by the bursts\' extra noise, leaving its mean alone', () => {
    const model = buildModel(bursty.states, config);
    const nowMs = 20.5 * DAY;
    const meter = freshnessMeter(bursty.states, model, nowMs);
    const asIfIndependent = freshnessMeter(bursty.states.map((s) => ({ ...s, splitSquares: s.splitPosts })), model, nowMs);
    expect(meter.unindexedPosts).toBeCloseTo(asIfIndependent.unindexedPosts, 9);
    expect(meter.unindexedHigh - meter.unindexedPosts).toBeGreaterThan(1.3 * (asIfIndependent.unindexedHigh - asIfIndependent.unindexedPosts));
  });
});
