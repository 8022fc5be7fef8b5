import { lbfgs, trainFullBatch, warmStartedFullBatch } from '../../../scripts/sentiment/lbfgs';
import { featurize, type Example } from '../../../scripts/sentiment/sgd';
import { logits } from '../../../src/enrichers/sentiment/model';
import type { LinearModel, SentimentLabel } from '../../../src/enrichers/sentiment/model-file';

describe('lbfgs', () => {
  it('reaches the minimum of an ill-conditioned quadratic', () => {
    const n = 50;
    const a = Array.from({ length: n }, (_, i) => 1 + (i % 10) * 20);
    const c = Array.from({ length: n }, (_, i) => (i % 7) - 3);
    const { x, iterations } = lbfgs(n, (v, g) => {
      let s = 0;
      for (let i = 0; i < n; i++) { const d = v[i]! - c[i]!; s += 0.5 * a[i]! * d * d; g[i] = a[i]! * d; }
      return s;
    }, 500, 1e-14);
    expect(iterations).toBeLessThan(500);
    for (let i = 0; i < n; i++) expect(x[i]!).toBeCloseTo(c[i]!, 4);
  });
});

describe('trainFullBatch', () => {
  const classes: SentimentLabel[] = ['negative', 'positive'];
  const examples: Example[] = [];
  for (let i = 0; i < 40; i++) {
    examples.push({ text: i % 4 ? '今天真好' : '还行吧', label: 'positive', weight: 1 });
    examples.push({ text: i % 4 ? '今天真坏' : '还行吧', label: 'negative', weight: i % 4 ? 1 : 0.5 });
  }
  const margin = (m: LinearModel, text: string): number => {
    const [f] = featurize('zh', [{ text, label: 'positive', weight: 1 }]);
    const z = new Float64Array(2);
    logits(m, f!.feats, f!.strong, z, f!.vals);
    return z[1]! - z[0]!;
  };
  const fit = (ex: Example[], l2: number): LinearModel => trainFullBatch({ lang: 'zh', classes, bucketsLog2: 14, l2, normPower: 0.5 }, ex, featurize('zh', ex));

  it('gives the runtime a margin of the right sign and the weighted class odds on an ambiguous text', () => {
    const m = fit(examples, 1e-4);
    expect(margin(m, '今天真好')).toBeGreaterThan(2);
    expect(margin(m, '今天真坏')).toBeLessThan(-2);
    // 10 positive against 10 × 0.5 negative copies of one text: the converged fit's odds are near 2:1.
    expect(margin(m, '还行吧')).toBeCloseTo(Math.log(2), 1);
  });

  it('converges to the same weights whatever the example order (unlike a few SGD epochs)', () => {
    const a = fit(examples, 1e-3);
    const b = fit([...examples].reverse(), 1e-3);
    let diff = 0;
    for (let i = 0; i < a.weights.length; i++) diff = Math.max(diff, Math.abs(a.weights[i]! - b.weights[i]!));
    expect(diff).toBeLessThan(1e-3);
  });

  it('shrinks the weights as L2 grows', () => {
    const norm = (m: LinearModel): number => Array.from(m.weights).reduce((s, v) => s + v * v, 0);
    expect(norm(fit(examples, 1e-1))).toBeLessThan(norm(fit(examples, 1e-3)));
  });

  it('warm-started from the previous fit, reaches the same optimum in fewer iterations', () => {
    const its: number[] = [];
    const log = (m: string): void => { its.push(Number(/(\d+) iterations/.exec(m)![1])); };
    const p = { lang: 'zh' as const, classes, bucketsLog2: 14, l2: 1e-4, normPower: 0.5, tolerance: 1e-10, log };
    const warm = warmStartedFullBatch(p);
    const more = [...examples, { text: '今天真好', label: 'positive' as const, weight: 1 }];
    warm(examples, featurize('zh', examples));
    const second = warm(more, featurize('zh', more));
    const cold = trainFullBatch(p, more, featurize('zh', more));
    expect(its[1]!).toBeLessThan(its[2]!);
    expect(margin(second, '今天真好')).toBeCloseTo(margin(cold, '今天真好'), 3);
  });
});
