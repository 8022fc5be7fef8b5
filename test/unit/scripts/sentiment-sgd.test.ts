import { meanModel } from '../../../scripts/sentiment/mean-model';
import { featurize, idfScale, productScale, trainSoftmax, type Example } from '../../../scripts/sentiment/sgd';
import type { LinearModel } from '../../../src/enrichers/sentiment/model-file';

const model = (w: number[], weightScale?: number): LinearModel => ({
  lang: 'zh', classes: ['negative', 'positive'], bucketsLog2: 1, weights: Float32Array.from(w), decisionBias: [0, 0], neutralBand: 0,
  ...(weightScale !== undefined ? { weightScale } : {}), meta: {},
});

describe('meanModel', () => {
  it('averages the weights (with each model\'s weight scale) into one linear model', () => {
    const m = meanModel([model([1, 2, 3, 4]), model([1, 1, 1, 1], 3)]);
    expect(Array.from(m.weights)).toEqual([2, 2.5, 3, 3.5]);
    expect(m.weightScale).toBeUndefined();
    expect(m.meta['meanOf']).toBe(2);
  });
});

describe('idfScale and productScale', () => {
  it('gives buckets fewer posts hold a larger scale', () => {
    const ex: Example[] = ['好好好', '好的', '坏了'].map((text) => ({ text, label: 'positive', weight: 1 }));
    const f = featurize('zh', ex);
    const s = idfScale(12, ex, f, 1);
    const bucket = (h: number): number => (h >>> 1) & 4095;
    const common = f[0]!.feats.subarray(f[0]!.strong).find((h) => f[1]!.feats.includes(h))!; // 好
    const rare = f[2]!.feats[f[2]!.feats.length - 1]!;
    expect(s[bucket(rare)]!).toBeGreaterThan(s[bucket(common)]!);
    expect(Array.from(productScale(Float32Array.of(2, 3), Float32Array.of(0.5, 2))!)).toEqual([1, 6]);
    expect(productScale(undefined, Float32Array.of(1))).toEqual(Float32Array.of(1));
  });
});

describe('trainSoftmax denseL2', () => {
  it('pulls a rarely seen feature towards the prior harder than touched-only L2 does', () => {
    const ex: Example[] = [{ text: '稀有词', label: 'positive', weight: 1 }];
    for (let i = 0; i < 200; i++) ex.push({ text: i % 2 ? '好' : '坏', label: i % 2 ? 'positive' : 'negative', weight: 1 });
    const f = featurize('zh', ex);
    const p = { lang: 'zh' as const, classes: ['negative', 'positive'] as const, bucketsLog2: 16, epochs: 2, learningRate: 0.1, l2: 0.05, seed: 1 };
    const sparse = trainSoftmax({ ...p, classes: [...p.classes] }, ex, f);
    const dense = trainSoftmax({ ...p, classes: [...p.classes], denseL2: true }, ex, f);
    const rare = f[0]!.feats[f[0]!.feats.length - 1]!;
    const at = ((rare >>> 1) & 0xffff) * 2 + 1;
    expect(Math.abs(dense.weights[at]!)).toBeLessThan(Math.abs(sparse.weights[at]!));
    expect(Math.abs(dense.weights[at]!)).toBeGreaterThan(0);
  });
});
