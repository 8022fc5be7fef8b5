import { FeatureExtractor, wordHash } from './features';
import type { LinearModel } from './model-file';

/**
 * Training-time only: a softmax over word vectors, folded into a hashed linear model's word
 * buckets. The pipeline never loads vectors; it runs the folded model as any other.
 */

export interface Embeddings {
  words: string[];
  dims: number;
  /** Unit-length vectors, `dims` per word. */
  vectors: Float32Array;
}

/**
 * A softmax over the summed vectors of a tweet's words (plain and negation-scoped words apart,
 * scaled like the n-grams) is linear in per-word scores, so it folds into the word buckets of
 * the hashed model: the pipeline computes nothing new, yet words the 2,000 training tweets never
 * show get the sentiment of their neighbours in the vector space. Only the most frequent 20,000
 * words by default: folded words share buckets with the other features, and at 50,000 (×2 for
 * negated) that noise took the tune slice below the model without vectors (60.2 % against 61.7 %).
 */
export class EmbeddingSoftmax {
  /** word hash → (vector index) * 2 + negated. */
  private readonly slot = new Map<number, number>();
  private readonly fx = new FeatureExtractor();
  readonly width: number;
  /** classes × width; the last column is the bias. */
  w: Float64Array[] = [];

  constructor(private readonly emb: Embeddings, private readonly lexicon: ReadonlyMap<number, number> | undefined, private readonly normPower: number) {
    emb.words.forEach((word, i) => {
      this.slot.set(wordHash(word, false), i * 2);
      this.slot.set(wordHash(word, true), i * 2 + 1);
    });
    this.width = 2 * emb.dims + 1;
  }

  features(text: string): Float64Array {
    const { dims, vectors } = this.emb;
    const f = this.fx.extract(text, 'en', this.lexicon ? { lexicon: this.lexicon } : {});
    const strong = this.fx.strong;
    const norm = Math.pow(Math.max(1, f.length - strong), -this.normPower);
    const x = new Float64Array(this.width);
    x[this.width - 1] = 1;
    for (let i = strong; i < f.length; i++) {
      const s = this.slot.get(f[i]!);
      if (s === undefined) continue;
      const at = (s & 1) * dims;
      const from = (s >>> 1) * dims;
      for (let d = 0; d < dims; d++) x[at + d]! += norm * vectors[from + d]!;
    }
    return x;
  }

  /** Full-batch gradient descent on the class-weighted log loss; deterministic. */
  train(xs: Float64Array[], ys: number[], weights: number[], l2: number, iterations: number, learningRate = 0.5): void {
    const k = 3;
    const n = this.width;
    this.w = Array.from({ length: k }, () => new Float64Array(n));
    const totalWeight = weights.reduce((a, b) => a + b, 0);
    const z = new Float64Array(k);
    for (let it = 0; it < iterations; it++) {
      const g = Array.from({ length: k }, () => new Float64Array(n));
      xs.forEach((x, r) => {
        this.scores(x, z);
        let max = -Infinity;
        for (let c = 0; c < k; c++) max = Math.max(max, z[c]!);
        let sum = 0;
        for (let c = 0; c < k; c++) { z[c] = Math.exp(z[c]! - max); sum += z[c]!; }
        for (let c = 0; c < k; c++) {
          const e = (z[c]! / sum - (c === ys[r] ? 1 : 0)) * weights[r]!;
          const gc = g[c]!;
          for (let d = 0; d < n; d++) gc[d]! += e * x[d]!;
        }
      });
      for (let c = 0; c < k; c++) {
        const wc = this.w[c]!;
        const gc = g[c]!;
        for (let d = 0; d < n; d++) wc[d]! -= learningRate * (gc[d]! / totalWeight + (d < n - 1 ? l2 * wc[d]! : 0));
      }
    }
  }

  scores(x: Float64Array, out: Float64Array): Float64Array {
    for (let c = 0; c < this.w.length; c++) {
      let s = 0;
      const wc = this.w[c]!;
      for (let d = 0; d < x.length; d++) s += wc[d]! * x[d]!;
      out[c] = s;
    }
    return out;
  }

  /** Adds `mix` × this softmax's per-word scores to the word buckets of `model` (and its bias to the bias bucket). */
  foldInto(model: LinearModel, mix: number): void {
    const { words, dims, vectors } = this.emb;
    const k = model.classes.length;
    const mask = (1 << model.bucketsLog2) - 1;
    const add = (h: number, score: (c: number) => number): void => {
      const base = ((h >>> 1) & mask) * k;
      const sign = h & 1 ? -1 : 1;
      for (let c = 0; c < k; c++) model.weights[base + c]! += sign * mix * score(c);
    };
    words.forEach((word, i) => {
      for (const negated of [false, true]) {
        const at = negated ? dims : 0;
        add(wordHash(word, negated), (c) => {
          let s = 0;
          for (let d = 0; d < dims; d++) s += this.w[c]![at + d]! * vectors[i * dims + d]!;
          return s;
        });
      }
    });
    add(this.fx.extract('', 'en')[0]!, (c) => this.w[c]![this.width - 1]!);
  }
}

