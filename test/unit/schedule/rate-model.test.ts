import { seededRng } from '../../../src/core/rng';
import { fitPopulationPrior } from '../../../src/schedule/gamma-posterior';
import { DEFAULT_POISSON_CONFIG, observeOptions, spreadProfiles, subjectRatePerHour } from '../../../src/schedule/poisson';
import { makeProfile } from '../../../src/schedule/diurnal';
import {
  changeWeight, fitRatePrior, flatRatePrior, gammaRatePrior, logGamma, posteriorMeanPerHour, twoScaleRatePerHour,
} from '../../../src/schedule/rate-model';
import { newSubjectState, observe, type SubjectState } from '../../../src/schedule/subject-state';

const H = 3_600_000;

describe('rate model', () => {
  it('computes log Γ', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(0.01)).toBeCloseTo(4.5994798780420219, 10);
  });

  it('with one Gamma component, gives the conjugate posterior mean', () => {
    const prior = gammaRatePrior(0.5, 20);
    expect(posteriorMeanPerHour(prior, 7, 100)).toBeCloseTo(7.5 / 120, 12);
  });

  /** A subject watched for 10 days at `before` posts an hour, visited every `everyHours`, then switching to `after`. */
  function switching(before: number, after: number, everyHours: number, visitsAfter: number): SubjectState[] {
    const opts = observeOptions(DEFAULT_POISSON_CONFIG);
    let s = newSubjectState(0);
    s = observe(s, { atMs: 0, postTimesMs: [], pageLimitHit: false, historyStartMs: -240 * H }, opts);
    const out: SubjectState[] = [];
    let t = 0;
    const visit = (rate: number) => {
      const n = Math.round(rate * everyHours);
      const times = Array.from({ length: n }, (_, i) => t + ((i + 0.5) * everyHours * H) / n);
      t += everyHours * H;
      s = observe(s, { atMs: t, postTimesMs: times, pageLimitHit: false }, opts);
    };
    for (let i = 0; i < 240 / everyHours; i++) visit(before);
    for (let i = 0; i < visitsAfter; i++) {
      visit(after);
      out.push(s);
    }
    return out;
  }
  const model = { rates: gammaRatePrior(0.05, 1), config: DEFAULT_POISSON_CONFIG };

  it('notices a rise within one visit', () => {
    const [first] = switching(0.5, 5, 4, 1);
    // From 0.5 to 5 posts an hour: most of the way in one visit; without the test it barely moves.
    expect(subjectRatePerHour(first!, model)).toBeGreaterThan(2.5);
    const noTest = { ...model, config: { ...DEFAULT_POISSON_CONFIG, changeProbability: 0 } };
    expect(subjectRatePerHour(first!, noTest)).toBeLessThan(1.5);
  });

  it('notices a fall within two or three visits', () => {
    const states = switching(5, 0.1, 2, 3);
    expect(subjectRatePerHour(states[1]!, model)).toBeLessThan(2.5);
    expect(subjectRatePerHour(states[2]!, model)).toBeLessThan(1.5);
    const noTest = { ...model, config: { ...DEFAULT_POISSON_CONFIG, changeProbability: 0 } };
    expect(subjectRatePerHour(states[2]!, noTest)).toBeGreaterThan(2 * subjectRatePerHour(states[2]!, model));
  });

  it('does not take Poisson noise for a change', () => {
    const rng = seededRng(9);
    const opts = observeOptions(DEFAULT_POISSON_CONFIG);
    const rate = 0.8;
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: [], pageLimitHit: false, historyStartMs: -100 * H }, opts);
    let t = 0;
    let weights = 0;
    let errors = 0;
    const visits = 400;
    for (let v = 0; v < visits; v++) {
      const gap = (0.5 + 4 * rng.next()) * H;
      const times: number[] = [];
      for (let u = t + (-Math.log(1 - rng.next()) / rate) * H; u < t + gap; u += (-Math.log(1 - rng.next()) / rate) * H) times.push(u);
      t += gap;
      s = observe(s, { atMs: t, postTimesMs: times, pageLimitHit: false }, opts);
      if (v < 50) continue;
      const e = { posts: s.evidencePosts, hours: s.evidenceHours, recentPosts: s.recentPosts, recentHours: s.recentHours };
      weights += changeWeight(model.rates, e);
      errors += Math.abs(twoScaleRatePerHour(model.rates, e) / rate - 1);
    }
    expect(weights / (visits - 50)).toBeLessThan(0.35);
    expect(errors / (visits - 50)).toBeLessThan(0.2);
  });

  it('fits a heavy-tailed population better than one Gamma by moments (predicted delay of the √λ allocation)', () => {
    const rng = seededRng(5);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const poisson = (m: number): number => {
      let k = 0;
      for (let t = -Math.log(1 - rng.next()); t < m; t += -Math.log(1 - rng.next())) k++;
      return k;
    };
    const hours = 100;
    const subjects = Array.from({ length: 3000 }, () => {
      const r = (0.2 * Math.exp(2 * normal())) / 24;
      return { r, posts: poisson(r * hours), hours };
    });
    const delay = (est: number[]): number => {
      const sum = est.reduce((a, x) => a + Math.sqrt(x), 0);
      return subjects.reduce((a, s, i) => a + s.r / (Math.sqrt(est[i]!) / sum), 0);
    };
    const oracle = delay(subjects.map((s) => s.r));
    const mix = fitRatePrior(subjects, flatRatePrior(), 60);
    const g = fitPopulationPrior(subjects.map((s) => ({ posts: s.posts, exposureHours: s.hours })));
    const mixture = delay(subjects.map((s) => posteriorMeanPerHour(mix, s.posts, s.hours))) / oracle;
    const gamma = delay(subjects.map((s) => (g.alpha + s.posts) / (g.betaHours + s.hours))) / oracle;
    expect(g.alpha).toBeLessThan(0.1);
    expect(mixture).toBeLessThan(gamma - 0.05);
  });
});

describe('time of day without herding', () => {
  it('cancels a rhythm the whole population shares, and keeps rhythms spread over the day', () => {
    const shared = Array.from({ length: 100 }, () => makeProfile(0.8, 20 * H));
    const rates = new Array(100).fill(1);
    for (const p of spreadProfiles(shared, rates)) expect(p.amplitude).toBe(0);
    const spread = Array.from({ length: 96 }, (_, i) => makeProfile(0.8, (i * 24 * H) / 96));
    const out = spreadProfiles(spread, new Array(96).fill(1));
    out.forEach((p, i) => {
      expect(p.amplitude).toBeCloseTo(0.8, 6);
      expect(p.peakMs).toBeCloseTo(spread[i]!.peakMs, -3);
    });
  });
});
