import { seededRng } from '../../../src/core/rng';
import { DAY_MS, type DiurnalSums, addPostTimes, emptyDiurnal, estimateProfile, makeProfile, rateMultiplier } from '../../../src/schedule/diurnal';
import { besselRatioI1I0, fitAmplitudePrior, logBesselI0, posteriorHalfAmplitude } from '../../../src/schedule/rhythm-prior';
import { buildModel, DEFAULT_POISSON_CONFIG, subjectProfile } from '../../../src/schedule/poisson';
import { newSubjectState, observe } from '../../../src/schedule/subject-state';

/** `count` post times with rhythm 1 + a·cos around `peakMs`, by thinning. */
function postTimes(rng: ReturnType<typeof seededRng>, count: number, amplitude: number, peakMs: number): number[] {
  const p = amplitude > 0 ? makeProfile(amplitude, peakMs) : null;
  const out: number[] = [];
  while (out.length < count) {
    const t = rng.next() * 30 * DAY_MS;
    if (!p || rng.next() * (1 + amplitude) < rateMultiplier(p, t)) out.push(t);
  }
  return out;
}

/** Subjects with `posts` posts each, amplitude `amplitudeOf(i)`, peaks at random hours. */
function population(seed: number, n: number, posts: number, amplitudeOf: (i: number) => number): { sums: DiurnalSums[]; amplitudes: number[] } {
  const rng = seededRng(seed);
  const sums: DiurnalSums[] = [];
  const amplitudes: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = amplitudeOf(i);
    amplitudes.push(a);
    sums.push(addPostTimes(emptyDiurnal(), postTimes(rng, posts, a, rng.next() * DAY_MS)));
  }
  return { sums, amplitudes };
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('amplitude prior (empirical Bayes over the population)', () => {
  it('computes log I0 and I1/I0 accurately on both sides of the series switch', () => {
    // I0(1) = 1.2660658777520082, I0(10) = 2815.716628466254, I1(1) = 0.5651591039924851, I1(10) = 2670.988303701255.
    expect(logBesselI0(0)).toBeCloseTo(0, 7);
    expect(logBesselI0(1)).toBeCloseTo(Math.log(1.2660658777520082), 6);
    expect(logBesselI0(10)).toBeCloseTo(Math.log(2815.716628466254), 6);
    expect(besselRatioI1I0(1)).toBeCloseTo(0.5651591039924851 / 1.2660658777520082, 6);
    expect(besselRatioI1I0(10)).toBeCloseTo(2670.988303701255 / 2815.716628466254, 6);
    expect(logBesselI0(500)).toBeGreaterThan(490);
  });

  it('where every subject has the same strong rhythm, recovers its amplitude from 30 posts each; the fixed shrinkage reads it ~10 % low', () => {
    const { sums } = population(1, 400, 30, () => 0.8);
    const prior = fitAmplitudePrior(sums);
    expect(prior).not.toBeNull();
    const withPrior = mean(sums.map((d) => estimateProfile(d, 0.9, prior!).amplitude));
    const fixed = mean(sums.map((d) => estimateProfile(d).amplitude));
    expect(withPrior).toBeGreaterThan(0.76);
    expect(withPrior).toBeLessThan(0.84);
    expect(fixed).toBeLessThan(0.75);
  });

  it('where most subjects have no rhythm, lets no more noise through than the fixed shrinkage, and errs less over the population', () => {
    const { sums, amplitudes } = population(2, 500, 30, (i) => (i % 5 === 0 ? 0.8 : 0));
    const prior = fitAmplitudePrior(sums)!;
    const flat = sums.filter((_, i) => amplitudes[i] === 0);
    const flatWithPrior = mean(flat.map((d) => estimateProfile(d, 0.9, prior).amplitude));
    expect(flatWithPrior).toBeLessThan(0.1);
    expect(flatWithPrior).toBeLessThan(mean(flat.map((d) => estimateProfile(d).amplitude)) + 0.01);
    const squaredError = (estimate: (d: DiurnalSums) => number): number => mean(sums.map((d, i) => (estimate(d) - amplitudes[i]!) ** 2));
    expect(squaredError((d) => estimateProfile(d, 0.9, prior).amplitude)).toBeLessThan(squaredError((d) => estimateProfile(d).amplitude));
  });

  it('needs ten subjects with five posts or more, and gives no amplitude without evidence', () => {
    const { sums } = population(3, 9, 30, () => 0.8);
    expect(fitAmplitudePrior(sums)).toBeNull();
    const prior = fitAmplitudePrior(population(4, 50, 30, () => 0.8).sums)!;
    expect(posteriorHalfAmplitude(prior, 30, 0)).toBe(0);
  });

  it('is what the time-of-day schedule estimates profiles under', () => {
    const rng = seededRng(5);
    const config = { ...DEFAULT_POISSON_CONFIG, timeOfDay: true, budgetPerHour: 10 };
    const states = Array.from({ length: 200 }, () => {
      const times = postTimes(rng, 30, 0.8, rng.next() * DAY_MS).sort((a, b) => a - b);
      return observe(newSubjectState(0, { timeOfDay: true }), { atMs: 30 * DAY_MS, postTimesMs: times, pageLimitHit: false, historyStartMs: 0 }, { timeOfDay: true });
    });
    const model = buildModel(states, config);
    expect(model.rhythm?.amplitudes).toBeDefined();
    const underPrior = mean(states.map((s) => subjectProfile(s, model).amplitude));
    const fixed = mean(states.map((s) => subjectProfile(s, { ...model, rhythm: { cos: model.rhythm!.cos, sin: model.rhythm!.sin } }).amplitude));
    expect(underPrior).toBeGreaterThan(fixed + 0.03);
  });
});
