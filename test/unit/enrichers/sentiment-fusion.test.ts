import { seededRng } from '../../../src/core/rng';
import { hashString, NS } from '../../../src/enrichers/sentiment/feature-hash';
import { fuseInto } from '../../../src/enrichers/sentiment/fusion';
import { createSentimentModel } from '../../../src/enrichers/sentiment/model';
import { decodeModel, encodeModel, type LinearModel } from '../../../src/enrichers/sentiment/model-file';
import { crossFittedScores, fitLogistic, type FusionPoint } from '../../../scripts/sentiment/fusion';

const LOG2 = 12;

/** A binary zh model whose only non-zero weight is `w` on the positive class of `hash`'s bucket. */
function oneWeight(hash: number, w: number): LinearModel {
  const weights = new Float32Array((1 << LOG2) * 2);
  const bucket = (hash >>> 1) & ((1 << LOG2) - 1);
  weights[bucket * 2 + 1] = hash & 1 ? -w : w;
  return { lang: 'zh', classes: ['negative', 'positive'], bucketsLog2: LOG2, weights, decisionBias: [0, 0], neutralBand: 0, meta: {} };
}

describe('late fusion of the main and text-only zh models', () => {
  it('blends the two margins into calibrated logits whose softmax is the blend\'s sigmoid', () => {
    const z = Float64Array.from([0.5, 2.5]);
    fuseInto({ main: 0.5, text: 2, bias: -0.25 }, z, Float64Array.from([1, 0]));
    // d = 0.5·2 + 2·(−1) − 0.25 = −1.25
    expect(z[1]! - z[0]!).toBeCloseTo(-1.25, 12);
    expect(z[0]! + z[1]!).toBeCloseTo(0, 12);
  });

  it('scores a post\'s emoticon codes with the main model only, and picks the blend of its group', () => {
    const code = hashString(NS.emoticon, '[哈哈]');
    // Both models weigh the code's bucket heavily; only the main model may see it.
    const m = oneWeight(code, 3);
    m.textModel = oneWeight(code, 100);
    m.fusion = { groups: [{ main: 1, text: 1, bias: 0 }, { main: 1, text: 1, bias: 0.5 }] };
    const s = createSentimentModel({ zh: m, en: m });
    const withCode = s.classify('下雨了[哈哈]', 'zh');
    // Group 1 (a code): d = 1·3 + 1·0 + 0.5 → p(positive) = σ(3.5); the text model's 100 would give 1.
    expect(withCode.score).toBeCloseTo(2 / (1 + Math.exp(-3.5)) - 1, 3);
    // Stripped, the post is in group 0 and neither model sees the code: d = 0.
    expect(s.classify('下雨了[哈哈]', 'zh', { stripEmoticons: true }).score).toBeCloseTo(0, 3);
  });

  it('round-trips the text model and the blend through the model file', () => {
    const m = oneWeight(12345, 1);
    m.textModel = oneWeight(678, 2);
    m.fusion = { groups: [{ main: 0.7, text: 1.1, bias: 0.1 }] };
    const back = decodeModel(JSON.parse(JSON.stringify(encodeModel(m))));
    expect(back.fusion).toEqual(m.fusion);
    expect(Array.from(back.textModel!.weights).filter((x) => x !== 0)).toHaveLength(1);
    expect(encodeModel(back.textModel!).data).toBe(encodeModel(m.textModel).data);
  });

  it('fits a weighted logistic regression that recovers the generating blend', () => {
    const rng = seededRng(11);
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 40000; i++) {
      const a = (rng.next() - 0.5) * 8;
      const b = (rng.next() - 0.5) * 8;
      x.push([a, b, 1]);
      y.push(rng.next() < 1 / (1 + Math.exp(-(0.5 * a + 1.5 * b - 0.3))) ? 1 : 0);
    }
    const t = fitLogistic(x, y, y.map(() => 1));
    expect(t[0]).toBeCloseTo(0.5, 1);
    expect(t[1]).toBeCloseTo(1.5, 1);
    expect(Math.abs(t[2]! + 0.3)).toBeLessThan(0.1); // the intercept's sampling error is the largest
  });

  it('scores the blend cross-fitted: a text margin that carries the label lifts accuracy over the main margin alone', () => {
    const rng = seededRng(3);
    const points: FusionPoint[] = [];
    for (let i = 0; i < 4000; i++) {
      const y = rng.next() < 0.5 ? 1 : 0;
      const s = y ? 1 : -1;
      points.push({ main: s * 0.3 + (rng.next() - 0.5) * 2, text: s * 0.6 + (rng.next() - 0.5) * 2, group: i % 2, fold: i % 5, kind: i % 3 ? 'a' : 'b', y, weight: 1 });
    }
    const alone = crossFittedScores(points, 5, 2, 'main');
    const fused = crossFittedScores(points, 5, 2, 'both');
    expect(fused['a']!.accuracy).toBeGreaterThan(alone['a']!.accuracy + 0.05);
    expect(fused['a']!.ece).toBeLessThan(0.05);
    expect(fused['b']!.posts + fused['a']!.posts).toBe(4000);
  });
});
