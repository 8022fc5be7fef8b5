import { seededRng } from '../../../src/core/rng';
import { createSentimentModel, defaultModelDir, readModelFile, streamOptions } from '../../../src/enrichers/sentiment/model';
import { estimateMix, matchMeanProbs, PriorShift, reweighInto } from '../../../src/enrichers/sentiment/prior-shift';

/**
 * Synthetic posts of 3 classes: a score x ~ N(μ_y, 1) with μ = −2, 0, 2. Their probabilities are
 * the exact posteriors under the reference mix `ref` (a perfectly calibrated model trained there),
 * while the posts themselves are drawn at `mix`.
 */
function posts(n: number, mix: number[], ref: number[], seed: number): Float64Array {
  const rng = seededRng(seed);
  const mu = [-2, 0, 2];
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    const y = u < mix[0]! ? 0 : u < mix[0]! + mix[1]! ? 1 : 2;
    // Box–Muller.
    const x = mu[y]! + Math.sqrt(-2 * Math.log(rng.next() || 1e-12)) * Math.cos(2 * Math.PI * rng.next());
    let z = 0;
    for (let j = 0; j < 3; j++) { out[i * 3 + j] = ref[j]! * Math.exp(-0.5 * (x - mu[j]!) ** 2); z += out[i * 3 + j]!; }
    for (let j = 0; j < 3; j++) out[i * 3 + j] = out[i * 3 + j]! / z;
  }
  return out;
}

const REF = [0.2, 0.5, 0.3];

describe('label-shift adaptation (EM over the probabilities of unlabelled posts)', () => {
  it('recovers a known class mix from probabilities calibrated for another', () => {
    const truth = [0.5, 0.3, 0.2];
    const p = posts(20000, truth, REF, 11);
    const mix = estimateMix(p, 20000, 3, REF, 0);
    for (let j = 0; j < 3; j++) expect(mix[j]).toBeCloseTo(truth[j]!, 1);
    expect(Math.max(...[0, 1, 2].map((j) => Math.abs(mix[j]! - truth[j]!)))).toBeLessThan(0.02);
  });

  it('finds no shift when the posts come at the reference mix, and then changes no probability', () => {
    const p = posts(20000, REF, REF, 12);
    const mix = estimateMix(p, 20000, 3, REF, 0);
    for (let j = 0; j < 3; j++) expect(Math.abs(mix[j]! - REF[j]!)).toBeLessThan(0.015);
    const q = Float64Array.from([0.2, 0.3, 0.5]);
    reweighInto(q, 3, REF.map((r, j) => mix[j]! / r));
    for (let j = 0; j < 3; j++) expect(Math.abs(q[j]! - [0.2, 0.3, 0.5][j]!)).toBeLessThan(0.02);
  });

  it('keeps a few posts\' estimate near the reference with pseudo-posts', () => {
    const p = posts(10, [1, 0, 0], REF, 13);
    const free = estimateMix(p, 10, 3, REF, 0);
    const damped = estimateMix(p, 10, 3, REF, 30);
    expect(Math.abs(damped[0]! - REF[0]!)).toBeLessThan(Math.abs(free[0]! - REF[0]!) / 2);
  });

  it('tracks a stream: a window of recent posts gives the mix, and probabilities move towards it', () => {
    const shift = new PriorShift(REF, { windowPosts: 1000, pseudoPosts: 0, refreshPosts: 50 });
    const before = posts(3000, REF, REF, 14);
    for (let i = 0; i < 3000; i++) shift.observe(before.subarray(i * 3, i * 3 + 3));
    expect(Math.abs(shift.estimate()[0]! - REF[0]!)).toBeLessThan(0.04);
    const q = Float64Array.from([0.4, 0.4, 0.2]);
    shift.adapt(q);
    // A window of 1,000 posts estimates the mix to a few points: the change stays small.
    expect(Math.abs(q[0]! - 0.4)).toBeLessThan(0.07);
    // The stream turns negative: after a window of it the estimate follows.
    const after = posts(3000, [0.6, 0.3, 0.1], REF, 15);
    for (let i = 0; i < 3000; i++) shift.observe(after.subarray(i * 3, i * 3 + 3));
    expect(Math.abs(shift.estimate()[0]! - 0.6)).toBeLessThan(0.05);
    const r = Float64Array.from([0.4, 0.4, 0.2]);
    shift.adapt(r);
    expect(r[0]).toBeGreaterThan(0.6);
    expect(r[0]! + r[1]! + r[2]!).toBeCloseTo(1, 12);
  });
});

describe('the en model adapting to its stream', () => {
  const en = readModelFile(`${defaultModelDir()}/sentiment-en.json`);
  const gloomy = ['awful, just awful', 'I hate this so much', 'worst day ever, everything is broken', 'this is terrible and sad', 'so angry right now'];

  it('knows the class mix its calibration was fitted for', () => {
    expect(en.calibration?.mix).toHaveLength(3);
    expect(en.calibration!.mix!.reduce((a, v) => a + v, 0)).toBeCloseTo(1, 2);
  });

  it('moves score and confidence, never the label, once the stream runs negative', () => {
    const off = createSentimentModel({ zh: en, en });
    const on = createSentimentModel({ zh: en, en }, undefined, undefined, streamOptions(200));
    for (let i = 0; i < 400; i++) {
      const t = gloomy[i % gloomy.length]!;
      expect(on.classify(t, 'en').label).toBe(off.classify(t, 'en').label);
    }
    const a = off.classify('what a great day', 'en');
    const b = on.classify('what a great day', 'en');
    expect(b.label).toBe(a.label);
    expect(b.confidence).toBeLessThan(a.confidence);
    expect(b.score).toBeLessThan(a.score);
  });

  it('leaves everything as it was when off, or when the model does not say its calibration mix', () => {
    const plain = { ...en, calibration: { groups: en.calibration!.groups } };
    const off = createSentimentModel({ zh: plain, en: plain });
    const on = createSentimentModel({ zh: plain, en: plain }, undefined, undefined, streamOptions(200));
    for (let i = 0; i < 100; i++) on.classify(gloomy[i % gloomy.length]!, 'en');
    expect(on.classify('what a great day', 'en')).toEqual(off.classify('what a great day', 'en'));
    expect(streamOptions(0)).toEqual({});
  });
});

describe('black-box shift estimation (matching mean probabilities)', () => {
  it('recovers a known mix from the mean probabilities per class at training', () => {
    const meanProbs = [[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7]];
    const truth = [0.5, 0.3, 0.2];
    const mean = [0, 1, 2].map((j) => truth.reduce((s, t, y) => s + t * meanProbs[y]![j]!, 0));
    const pi = matchMeanProbs(mean, meanProbs, 3)!;
    for (let j = 0; j < 3; j++) expect(pi[j]).toBeCloseTo(truth[j]!, 9);
    expect(matchMeanProbs(mean, [[1, 0, 0], [1, 0, 0], [0, 0, 1]], 3)).toBeUndefined();
  });
});
