import { seededRng } from '../../../src/core/rng';
import { DEFAULT_POISSON_CONFIG, buildModel, choosePrior, observeOptions } from '../../../src/schedule/poisson';
import { compareDelayScores, fitRatePrior, flatRatePrior, gammaRatePrior, posteriorMeanPerHour } from '../../../src/schedule/rate-model';
import { fitPopulationPrior } from '../../../src/schedule/gamma-posterior';
import { type SubjectState, newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;

/** Subjects with the given rates (posts per hour), visited every `everyHours` for `visits` visits from a cold start with no history. */
function watched(rates: readonly number[], everyHours: number, visits: number, seed: number): SubjectState[] {
  const rng = seededRng(seed);
  const opts = observeOptions(DEFAULT_POISSON_CONFIG);
  return rates.map((rate) => {
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: [], pageLimitHit: false }, opts);
    let t = 0;
    for (let v = 0; v < visits; v++) {
      const end = t + everyHours * H;
      const times: number[] = [];
      if (rate > 0) for (let u = t - (Math.log(1 - rng.next()) / rate) * H; u < end; u -= (Math.log(1 - rng.next()) / rate) * H) times.push(u);
      t = end;
      s = observe(s, { atMs: t, postTimesMs: times, pageLimitHit: false }, opts);
    }
    return s;
  });
}

function logNormalRates(n: number, medianPerDay: number, sigma: number, seed: number): number[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    return (medianPerDay * Math.exp(sigma * z)) / 24;
  });
}

const evidenceOf = (s: SubjectState) => ({ posts: s.evidencePosts, hours: s.evidenceHours, lastPosts: s.lastPosts, lastHours: s.lastHours });
const fitGamma = (states: readonly SubjectState[]) => {
  const g = fitPopulationPrior(states.map((s) => ({ posts: s.evidencePosts, exposureHours: s.evidenceHours })));
  return gammaRatePrior(g.alpha, g.betaHours);
};

describe('compareDelayScores', () => {
  it('scores the prior the subjects were drawn from better than one that shrinks everybody to the mean, and skips subjects without older evidence', () => {
    const rng = seededRng(3);
    const truth = gammaRatePrior(0.5, 0.5 / 0.05);
    // Gamma(0.5) rates (a squared normal), mean 0.05 an hour: a wide population.
    const rates = Array.from({ length: 1000 }, () => {
      const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
      return 0.05 * z * z;
    });
    const evidence = watched(rates, 12, 4, 4).map(evidenceOf);
    const tooSure = gammaRatePrior(500, 500 / 0.05);
    const c = compareDelayScores(truth, tooSure, evidence);
    expect(c.ratio).toBeLessThan(0.9);
    expect(c.z).toBeLessThan(-2);
    const back = compareDelayScores(tooSure, truth, evidence);
    expect(back.ratio).toBeCloseTo(1 / c.ratio, 9);
    expect(back.z).toBeCloseTo(-c.z, 9);
    // Only recent evidence, or none: nothing to compare.
    expect(compareDelayScores(truth, tooSure, [{ posts: 3, hours: 10, lastPosts: 3, lastHours: 10 }, { posts: 0, hours: 0, lastPosts: 0, lastHours: 0 }]))
      .toEqual({ ratio: 1, z: 0 });
  });
});

describe('choosePrior', () => {
  /** Σ λ_i / f_i of the √λ̂ allocation of `p`'s estimates, on the true rates: lower is better. */
  const trueDelay = (p: ReturnType<typeof gammaRatePrior>, states: readonly SubjectState[], rates: readonly number[]): number => {
    const est = states.map((s) => posteriorMeanPerHour(p, s.evidencePosts, s.evidenceHours));
    const sum = est.reduce((a, x) => a + Math.sqrt(x), 0);
    return rates.reduce((a, r, i) => a + r / (Math.sqrt(est[i]!) / sum), 0);
  };

  it('picks the family whose allocation serves the true rates better (a fifth inactive, a quiet heavy tail, ten days watched)', () => {
    const rates = [...Array.from({ length: 800 }, () => 0.001 / 24), ...logNormalRates(3200, 0.2, 1.5, 7)];
    const states = watched(rates, 24, 10, 8);
    const mixture = fitRatePrior(states.map((s) => ({ posts: s.evidencePosts, hours: s.evidenceHours })), flatRatePrior(), 30);
    const gamma = fitGamma(states);
    const chosen = choosePrior(states, mixture, gamma);
    const best = Math.min(trueDelay(mixture, states, rates), trueDelay(gamma, states, rates));
    expect(trueDelay(chosen, states, rates)).toBe(best);
    if (chosen !== mixture) expect(chosen.mixture).toBe(mixture);
  });

  it('prefers the mixture when the population has two clusters one Gamma cannot fit', () => {
    const rng = seededRng(11);
    const rates = Array.from({ length: 2000 }, () => (rng.next() < 0.5 ? 0.2 : 20) / 24);
    const states = watched(rates, 12, 40, 12);
    const mixture = fitRatePrior(states.map((s) => ({ posts: s.evidencePosts, hours: s.evidenceHours })), flatRatePrior(), 30);
    const chosen = choosePrior(states, mixture, fitGamma(states));
    expect(chosen).toBe(mixture);
  });

  it('is what buildModel uses with prior: auto (not the default), keeping the mixture for the next warm start', () => {
    const rates = [...Array.from({ length: 800 }, () => 0.001 / 24), ...logNormalRates(3200, 0.2, 1.5, 7)];
    const states = watched(rates, 24, 10, 8);
    expect(DEFAULT_POISSON_CONFIG.prior).toBe('mixture');
    const config = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 200 };
    const auto = buildModel(states, { ...config, prior: 'auto' }).rates;
    const mixture = buildModel(states, config).rates;
    const gamma = buildModel(states, { ...config, prior: 'gamma' }).rates;
    const chosen = choosePrior(states, mixture, gamma);
    expect(Array.from(auto.weights)).toEqual(Array.from(chosen.weights));
    expect(Array.from(auto.meansPerHour)).toEqual(Array.from(chosen.meansPerHour));
    if (auto.weights.length === 1) expect(auto.mixture?.weights.length).toBeGreaterThan(1);
  });
});
