import { logits } from '../../src/enrichers/sentiment/model';
import type { LinearModel } from '../../src/enrichers/sentiment/model-file';
import type { Example, Featurized } from './sgd';

/**
 * k-fold cross-validation on the training files. Folds are drawn by a hash of the post id, so that
 * every copy of a post (raw, emoticon-stripped, emoticons dropped) falls in the same fold and a
 * model is never scored on a copy of a post it was trained on.
 */
export function foldOf(id: string, k: number, seed: number): number {
  let h = Math.imul(0x811c9dc5 ^ seed, 0x01000193);
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) % k;
}

/** A training example with the post it was made from and how (for folds and per-file scores). */
export interface CvExample extends Example {
  id: string;
  /** What the example stands for when scored: `ws100k`, `ws100k-stripped`, `weibo2018`, `tweeteval`; `aug` copies are trained on, never scored. */
  kind: string;
  /** Examples of one group share a fold (e.g. a tweet topic); the post id when absent. */
  group?: string;
}

/** Out-of-fold logits for every example (trained on the other k−1 folds), before calibration. */
export function outOfFoldLogits(
  examples: CvExample[], feats: Featurized[], k: number, seed: number,
  train: (ex: Example[], f: Featurized[]) => LinearModel,
): Float64Array[] {
  const fold = examples.map((e) => foldOf(e.group ?? e.id, k, seed));
  const out: Float64Array[] = new Array<Float64Array>(examples.length);
  for (let f = 0; f < k; f++) {
    // Copies weighted 0 in this configuration are still scored (e.g. the emoticon-stripped run), never trained on.
    const idx = examples.map((_, i) => i).filter((i) => fold[i] !== f && examples[i]!.weight > 0);
    const model = train(idx.map((i) => examples[i]!), idx.map((i) => feats[i]!));
    for (let i = 0; i < examples.length; i++) {
      if (fold[i] !== f || examples[i]!.kind === 'aug') continue;
      const z = new Float64Array(model.classes.length);
      const x = feats[i]!;
      logits(model, x.feats, x.strong, z, x.vals);
      out[i] = z;
    }
  }
  return out;
}

/**
 * `outOfFoldLogits` per configuration, computed once: the hyper-parameter search and the final
 * calibration ask for the same configurations' logits.
 */
export function memoisedOutOfFoldLogits<C>(
  examples: (c: C) => CvExample[], feats: (c: C) => Featurized[], k: number, seed: number,
  train: (c: C) => (ex: Example[], f: Featurized[]) => LinearModel,
): (c: C) => Float64Array[] {
  const cache = new Map<string, Float64Array[]>();
  return (c) => {
    const key = JSON.stringify(c);
    let z = cache.get(key);
    if (!z) {
      z = outOfFoldLogits(examples(c), feats(c), k, seed, train(c));
      cache.set(key, z);
    }
    return z;
  };
}
