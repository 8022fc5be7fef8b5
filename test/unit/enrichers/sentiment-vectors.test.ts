import { FeatureExtractor } from '../../../src/enrichers/sentiment/features';
import { logits } from '../../../src/enrichers/sentiment/model';
import type { LinearModel } from '../../../src/enrichers/sentiment/model-file';
import { EmbeddingSoftmax, type Embeddings } from '../../../src/enrichers/sentiment/word-vectors';

/** Four words in 3-d: good and great close together, bad opposite, movie and the off to the side. */
function tinyEmbeddings(): Embeddings {
  const rows: [string, number[]][] = [
    ['good', [1, 0, 0]], ['great', [0.8, 0.6, 0]], ['bad', [-1, 0, 0]], ['movie', [0, 0, 1]], ['the', [0, 0.6, 0.8]],
  ];
  return { words: rows.map((r) => r[0]), dims: 3, vectors: Float32Array.from(rows.flatMap((r) => r[1])) };
}

const classes = ['negative', 'neutral', 'positive'] as const;

function trained(): EmbeddingSoftmax {
  const softmax = new EmbeddingSoftmax(tinyEmbeddings(), undefined, 0.5);
  const data: [string, number][] = [['good movie', 2], ['bad movie', 0], ['the movie', 1], ['good', 2], ['bad', 0], ['the', 1]];
  softmax.train(data.map(([t]) => softmax.features(t)), data.map(([, y]) => y), data.map(() => 1), 1e-3, 300);
  return softmax;
}

function argmax(z: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < z.length; i++) if (z[i]! > z[best]!) best = i;
  return best;
}

describe('word-vector softmax folded into the hashed model', () => {
  it('learns from vectors, so a word never seen in training gets its neighbour\'s class', () => {
    const softmax = trained();
    const z = new Float64Array(3);
    expect(classes[argmax(softmax.scores(softmax.features('great movie'), z))]).toBe('positive');
    expect(classes[argmax(softmax.scores(softmax.features('bad movie'), z))]).toBe('negative');
  });

  it('gives the folded linear model exactly mix × the softmax scores, negated words included', () => {
    const softmax = trained();
    const model: LinearModel = {
      lang: 'en', classes: [...classes], bucketsLog2: 16, weights: new Float32Array((1 << 16) * 3),
      decisionBias: [0, 0, 0], neutralBand: 0, meta: {}, normPower: 0.5,
    };
    softmax.foldInto(model, 1.5);
    const fx = new FeatureExtractor();
    const z = new Float64Array(3);
    const want = new Float64Array(3);
    for (const text of ['great movie', 'not good', 'the bad movie, not great', 'unknown words only']) {
      const feats = fx.extract(text, 'en');
      logits(model, feats, fx.strong, z, fx.vals);
      softmax.scores(softmax.features(text), want);
      for (let c = 0; c < 3; c++) expect(z[c]).toBeCloseTo(1.5 * want[c]!, 4);
    }
    // The negation scope has its own vectors' weights: `not good` is not scored as `good`.
    softmax.scores(softmax.features('not good'), want);
    const plain = softmax.scores(softmax.features('good'), new Float64Array(3));
    expect(Array.from(want)).not.toEqual(Array.from(plain));
  });
});
