import { seededRng } from '../../../src/core/rng';
import { applyCalibration, calibrationGroup } from '../../../src/enrichers/sentiment/calibration';
import { createSentimentModel, decide } from '../../../src/enrichers/sentiment/model';
import type { LinearModel } from '../../../src/enrichers/sentiment/model-file';
import { decodeModel, encodeModel } from '../../../src/enrichers/sentiment/model-file';
import { reliability } from '../../../src/eval/calibration';
import { fitTopLabelMap, mapConfidence } from '../../../src/enrichers/sentiment/top-label';
import { fitCalibration } from '../../../scripts/sentiment/calibrate';
import { foldOf } from '../../../scripts/sentiment/cv';
import { leastWorstEce, type OofScores } from '../../../scripts/sentiment/oof';
import { coordinateSearch } from '../../../scripts/sentiment/search';
import { capitalised, topicGroups } from '../../../scripts/sentiment/topic-groups';

describe('reliability and expected calibration error', () => {
  it('bins by confidence and weighs each bin by its posts', () => {
    // Bin 0.9–1.0: 4 posts at 0.95, 3 right (0.75): gap 0.2. Bin 0.6–0.7: 2 posts at 0.65, 1 right: gap 0.15.
    const r = reliability([0.95, 0.95, 0.95, 0.95, 0.65, 0.65], [true, true, true, false, true, false]);
    expect(r.bins).toHaveLength(2);
    expect(r.bins[1]).toMatchObject({ lo: 0.9, posts: 4, accuracy: 0.75 });
    expect(r.bins[1]!.meanConfidence).toBeCloseTo(0.95, 9);
    expect(r.ece).toBeCloseTo((4 / 6) * 0.2 + (2 / 6) * 0.15, 9);
  });

  it('is 0 when every bin is right as often as it says, and honours weights', () => {
    expect(reliability([0.5, 0.5, 1], [true, false, true]).ece).toBeCloseTo(0, 12);
    // Weighted 3:1, the 0.75 bin is right 3/4 of the time.
    expect(reliability([0.75, 0.75], [true, false], 10, [3, 1]).ece).toBeCloseTo(0, 12);
    expect(() => reliability([1.2], [true])).toThrow(/outside/);
  });
});

describe('calibration fit (temperature and class bias)', () => {
  it('recovers the temperature and bias that generated the labels', () => {
    const rng = seededRng(7);
    const zs: Float64Array[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const d = (rng.next() - 0.5) * 12;
      // True p(positive) = σ(d / 3 + 0.4): the raw scores are 3× over-confident and shifted.
      const p = 1 / (1 + Math.exp(-(d / 3 + 0.4)));
      zs.push(Float64Array.from([0, d]));
      ys.push(rng.next() < p ? 1 : 0);
    }
    const g = fitCalibration(zs, ys, ys.map(() => 1), 2);
    expect(g.temperature).toBeGreaterThan(2.7);
    expect(g.temperature).toBeLessThan(3.3);
    expect(g.bias[0]).toBe(0);
    expect(g.bias[1]).toBeGreaterThan(0.3);
    expect(g.bias[1]).toBeLessThan(0.5);
  });

  it('applies per group: posts with emoticon codes get their own temperature', () => {
    const cal = { groups: [{ temperature: 2, bias: [0, 0] }, { temperature: 0.5, bias: [0, 1] }] };
    const z = Float64Array.from([0, 1]);
    applyCalibration(calibrationGroup(cal, 0), z, 2);
    expect(Array.from(z)).toEqual([0, 0.5]);
    const z1 = Float64Array.from([0, 1]);
    applyCalibration(calibrationGroup(cal, 3), z1, 2);
    expect(Array.from(z1)).toEqual([0, 3]);
    expect(calibrationGroup({ groups: [cal.groups[0]!] }, 3)).toBe(cal.groups[0]);
  });
});

describe('calibrated decisions', () => {
  const model = (calibration?: LinearModel['calibration']): LinearModel => ({
    lang: 'zh', classes: ['negative', 'positive'], bucketsLog2: 4, weights: new Float32Array(32), decisionBias: [0, 0], neutralBand: 0, meta: {},
    ...(calibration ? { calibration } : {}),
  });

  it('reports the calibrated probability of the label and p(pos) − p(neg) as the score', () => {
    const p = new Float64Array(2);
    const raw = decide(model(), Float64Array.from([0, 2]), 0, p);
    expect(raw.label).toBe('positive');
    expect(raw.confidence).toBeCloseTo(1 / (1 + Math.exp(-2)), 9);
    const cal = decide(model({ groups: [{ temperature: 4, bias: [0, 0] }] }), Float64Array.from([0, 2]), 0, p);
    expect(cal.confidence).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 9);
    expect(cal.score).toBeCloseTo(2 * cal.confidence - 1, 9);
    // The calibration's class bias moves the decision too.
    expect(decide(model({ groups: [{ temperature: 1, bias: [0, -3] }] }), Float64Array.from([0, 2]), 0, p).label).toBe('negative');
  });

  it('survives the model file round trip and shows in classify()', () => {
    const m = model({ groups: [{ temperature: 2, bias: [0, 0.25] }, { temperature: 1, bias: [0, 0] }] });
    const back = decodeModel(JSON.parse(JSON.stringify(encodeModel(m))));
    expect(back.calibration).toEqual(m.calibration);
    const r = createSentimentModel({ zh: back, en: back }).classify('无所谓', 'zh');
    // All weights 0: the logits are 0 and only the group-0 bias speaks.
    expect(r.label).toBe('positive');
    expect(r.confidence).toBeCloseTo(1 / (1 + Math.exp(-0.25)), 4);
  });
});

describe('cross-validation folds', () => {
  it('puts every copy of a post in one fold and spreads posts evenly', () => {
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 5000; i++) counts[foldOf(`ws100k-val-${i}`, 5, 1)]!++;
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(100);
    expect(foldOf('weibo2018-123', 5, 1)).toBe(foldOf('weibo2018-123', 5, 1));
    const moved = Array.from({ length: 200 }, (_, i) => foldOf(`p${i}`, 5, 1) !== foldOf(`p${i}`, 5, 2)).filter(Boolean).length;
    expect(moved).toBeGreaterThan(100); // the seed reshuffles
  });
});

describe('choosing a calibration by cross-validated ECE', () => {
  const scores = (ece: Record<string, number>): OofScores => ({
    kinds: Object.fromEntries(Object.entries(ece).map(([k, e]) => [k, { posts: 100, accuracy: 0.9, macroRecall: 0.9, ece: e }])),
  });
  const kinds = ['weibo2018', 'ws100k', 'ws100k-stripped'];

  it('takes the candidate whose worst file is best, not the one with the lowest sum over some files', () => {
    // A: the two raw files look better (sum 0.03) but the stripped run is off by 8 points; B: every file within 2.
    const a = scores({ weibo2018: 0.01, ws100k: 0.02, 'ws100k-stripped': 0.08 });
    const b = scores({ weibo2018: 0.02, ws100k: 0.02, 'ws100k-stripped': 0.01 });
    expect(leastWorstEce([a, b], kinds)).toBe(1);
    expect(leastWorstEce([b, a], kinds)).toBe(0);
  });

  it('counts a candidate without a file\'s ECE as worst, and keeps the first of equals', () => {
    const missing = scores({ weibo2018: 0.001, ws100k: 0.001 });
    const full = scores({ weibo2018: 0.04, ws100k: 0.04, 'ws100k-stripped': 0.04 });
    expect(leastWorstEce([missing, full], kinds)).toBe(1);
    expect(leastWorstEce([full, scores({ weibo2018: 0.04, ws100k: 0.01, 'ws100k-stripped': 0.02 })], kinds)).toBe(0);
  });
});

describe('coordinate search', () => {
  it('finds the best value of each parameter in turn and logs every configuration once', () => {
    const logged: string[] = [];
    const r = coordinateSearch({ a: [0, 1, 2], b: [5, 3] }, (c) => -((c['a']! - 2) ** 2) - (c['b']! - 3) ** 2, (m) => logged.push(m));
    expect(r.config).toEqual({ a: 2, b: 3 });
    expect(r.score).toBeCloseTo(0, 12);
    expect(new Set(logged).size).toBe(logged.length);
    expect(r.tried.length).toBe(logged.length);
  });
});

describe('topic groups of the tweets', () => {
  const texts = [
    ...Array.from({ length: 20 }, (_, i) => `Watching Kendrick live tonight, set ${i} was great`),
    ...Array.from({ length: 20 }, (_, i) => `Is Sharknado ${i} on TV? Asking for a friend`),
    // A capitalised word of both topics: the tweet goes with the more frequent one (ties by the word).
    'Kendrick and Sharknado on Friday',
    'Nothing capitalised here at all',
    'Rare Word only once',
  ];
  const g = topicGroups(texts);

  it('puts tweets naming the same mid-frequency capitalised word in one group, others in none', () => {
    expect(new Set(g.slice(0, 20))).toEqual(new Set(['t:kendrick']));
    expect(new Set(g.slice(20, 40))).toEqual(new Set(['t:sharknado']));
    expect(g[40]).toBe('t:kendrick');
    // No capitalised word, a sentence-start word, or words under the minimum document count: folds by post id.
    expect(g[41]).toBeUndefined();
    expect(g[42]).toBeUndefined();
  });

  it('reads a tweet\'s capitalised words as its topic candidates (what purged CV drops training tweets by)', () => {
    expect(capitalised('Kendrick and Sharknado on Friday, NASA said')).toEqual(new Set(['kendrick', 'sharknado', 'friday']));
    expect(capitalised('nothing capitalised, Ok')).toEqual(new Set());
  });

  it('keeps a topic\'s tweets in one cross-validation fold', () => {
    const folds = new Set(g.slice(0, 20).map((k) => foldOf(k!, 5, 3)));
    expect(folds.size).toBe(1);
  });
});

describe('top-label confidence map', () => {
  it('learns how often predictions at each confidence were right, monotone, and maps between knots', () => {
    const rng = seededRng(11);
    const conf: number[] = [];
    const right: boolean[] = [];
    for (let i = 0; i < 20000; i++) {
      const c = 0.4 + rng.next() * 0.6;
      conf.push(c);
      // Over-confident above 0.7: right only 0.7 + (c − 0.7) / 2 of the time there.
      right.push(rng.next() < (c > 0.7 ? 0.7 + (c - 0.7) / 2 : c));
    }
    const m = fitTopLabelMap(conf, right, conf.map(() => 1), 20, 'linear');
    for (let i = 1; i < m.y.length; i++) expect(m.y[i]!).toBeGreaterThanOrEqual(m.y[i - 1]!);
    expect(mapConfidence(m, 0.95)).toBeGreaterThan(0.79);
    expect(mapConfidence(m, 0.95)).toBeLessThan(0.86);
    expect(mapConfidence(m, 0.55)).toBeCloseTo(0.55, 1);
    const mapped = conf.map((c) => mapConfidence(m, c));
    expect(reliability(mapped, right).ece).toBeLessThan(0.02);
    expect(reliability(conf, right).ece).toBeGreaterThan(0.03);
    const step = fitTopLabelMap([0.6, 0.6, 0.9, 0.9], [true, false, true, true], [1, 1, 1, 1], 2, 'step');
    expect(mapConfidence(step, 0.6)).toBe(0.5);
    expect(mapConfidence(step, 0.99)).toBe(1);
  });

  it('is what decide reports as the confidence, and survives the model file', () => {
    const topLabel = { kind: 'linear' as const, x: [0.5, 1], y: [0.4, 0.8] };
    const model: LinearModel = decodeModel(JSON.parse(JSON.stringify(encodeModel({
      lang: 'en', classes: ['negative', 'neutral', 'positive'], bucketsLog2: 4, weights: new Float32Array(48), decisionBias: [0, 0, 0],
      neutralBand: 0, meta: {}, calibration: { groups: [{ temperature: 1, bias: [0, 0, 0], topLabel }] },
    }))));
    expect(model.calibration?.groups[0]?.topLabel).toEqual(topLabel);
    const r = decide(model, Float64Array.from([0, 0, Math.log(2)]), 0, new Float64Array(3));
    expect(r.label).toBe('positive');
    expect(r.confidence).toBeCloseTo(0.4 + ((0.5 - 0.5) / 0.5) * 0.4, 9);
    const r2 = decide(model, Float64Array.from([0, 0, Math.log(18)]), 0, new Float64Array(3));
    expect(r2.confidence).toBeCloseTo(0.4 + ((0.9 - 0.5) / 0.5) * 0.4, 9);
  });
});
