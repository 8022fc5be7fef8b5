import { seededRng } from '../../../src/core/rng';
import {
  DEFAULT_PRIOR, discountEvidence, fitPopulationPrior, gammaFromMean, gammaMeanPerHour, gammaPosterior, gammaVariancePerHour2,
} from '../../../src/schedule/gamma-posterior';

describe('gammaPosterior', () => {
  it('adds posts to α and hours to β (known answer)', () => {
    const post = gammaPosterior({ alpha: 2, betaHours: 48 }, { posts: 10, exposureHours: 72 });
    expect(post).toEqual({ alpha: 12, betaHours: 120 });
    expect(gammaMeanPerHour(post)).toBeCloseTo(0.1, 12);
    expect(gammaVariancePerHour2(post)).toBeCloseTo(12 / 14400, 12);
  });

  it('lets a quiet subject keep the prior and a busy one follow its own evidence', () => {
    const prior = gammaFromMean(1 / 24, 24);
    expect(gammaMeanPerHour(gammaPosterior(prior, { posts: 0, exposureHours: 1 }))).toBeCloseTo(1 / 25, 6);
    const busy = gammaMeanPerHour(gammaPosterior(prior, { posts: 20_000, exposureHours: 2000 }));
    expect(busy).toBeGreaterThan(9.8);
    expect(busy).toBeLessThan(10);
  });
});

/** Gamma(shape k integer, rate) as a sum of k exponentials; Poisson counts by exponential gaps. */
function population(seed: number, n: number, shape: number, ratePerHour: number, exposureHours: (i: number) => number) {
  const rng = seededRng(seed);
  const exp = (): number => -Math.log(1 - rng.next());
  const out: { posts: number; exposureHours: number; lambda: number }[] = [];
  for (let i = 0; i < n; i++) {
    let lambda = 0;
    for (let k = 0; k < shape; k++) lambda += exp() / ratePerHour;
    const T = exposureHours(i);
    let t = exp() / lambda;
    let posts = 0;
    while (t < T) {
      posts++;
      t += exp() / lambda;
    }
    out.push({ posts, exposureHours: T, lambda });
  }
  return out;
}

describe('fitPopulationPrior (empirical Bayes, method of moments)', () => {
  it('recovers a Gamma(2, 48 h) population from counts over unequal exposures', () => {
    // True prior: α = 2, β = 48 h (mean one post a day). Exposures from 2 to 20 days.
    const pop = population(11, 20_000, 2, 48, (i) => 48 + (i % 10) * 48);
    const prior = fitPopulationPrior(pop);
    expect(gammaMeanPerHour(prior)).toBeCloseTo(1 / 24, 2);
    expect(prior.alpha).toBeGreaterThan(1.7);
    expect(prior.alpha).toBeLessThan(2.3);
    expect(prior.betaHours).toBeGreaterThan(40);
    expect(prior.betaHours).toBeLessThan(56);
  });

  it('removes the Poisson noise: without the correction short exposures would make the prior far too weak', () => {
    const pop = population(12, 20_000, 8, 192, () => 12);
    const prior = fitPopulationPrior(pop);
    // Var(k/T) is dominated by counting noise here (true α = 8); a naive fit would give α ≈ 0.4.
    expect(prior.alpha).toBeGreaterThan(5);
    expect(prior.alpha).toBeLessThan(12);
  });

  it('shrinks individual estimates towards the population, lowering their error', () => {
    const pop = population(13, 5000, 2, 48, () => 72);
    const prior = fitPopulationPrior(pop);
    let errRaw = 0;
    let errBayes = 0;
    for (const s of pop) {
      errRaw += (s.posts / s.exposureHours - s.lambda) ** 2;
      errBayes += (gammaMeanPerHour(gammaPosterior(prior, s)) - s.lambda) ** 2;
    }
    expect(errBayes).toBeLessThan(0.8 * errRaw);
  });

  it('falls back when too few subjects qualify', () => {
    expect(fitPopulationPrior([{ posts: 3, exposureHours: 10 }])).toBe(DEFAULT_PRIOR);
    const fallback = { alpha: 1, betaHours: 1 };
    expect(fitPopulationPrior(Array.from({ length: 50 }, () => ({ posts: 1, exposureHours: 0.5 })), { fallback })).toBe(fallback);
  });

  it('gives a strong but finite prior to a homogeneous population', () => {
    const prior = fitPopulationPrior(Array.from({ length: 100 }, () => ({ posts: 24, exposureHours: 24 })));
    expect(gammaMeanPerHour(prior)).toBeCloseTo(1, 9);
    expect(prior.alpha).toBeCloseTo(1000, 6);
  });
});

describe('discountEvidence', () => {
  it('halves the evidence after one half-life and keeps it without forgetting', () => {
    expect(discountEvidence({ posts: 10, exposureHours: 100 }, 24, 24)).toEqual({ posts: 5, exposureHours: 50 });
    expect(discountEvidence({ posts: 10, exposureHours: 100 }, 24, Number.POSITIVE_INFINITY)).toEqual({ posts: 10, exposureHours: 100 });
  });
});
