import type { Fusion, FusionGroup } from '../../src/enrichers/sentiment/fusion';
import type { LinearModel, SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import { logits } from '../../src/enrichers/sentiment/model';
import { reliability } from '../../src/eval/calibration';
import { dampedNewtonStep, solve } from './calibrate';
import { foldOf, type CvExample } from './cv';
import type { Example, Featurized } from './sgd';

/** One scored out-of-fold post of the fusion fit: the two models' margins, its group, fold and file. */
export interface FusionPoint {
  main: number;
  text: number;
  group: number;
  fold: number;
  kind: string;
  y: number;
  /** The post's weight in the blend's fit (its file's weight in the objective, shared by its posts). */
  weight: number;
}

/**
 * Weighted binary logistic regression on a few dense columns by Newton steps (a tiny L2 keeps a
 * column that is all zeros, e.g. a group without posts, at 0). Returns the column weights; the
 * last column is the intercept when the caller appends a 1.
 */
export function fitLogistic(x: number[][], y: number[], w: number[], l2 = 1e-6, iterations = 50): number[] {
  const d = x[0]?.length ?? 0;
  const theta = new Float64Array(d);
  const loss = (t: Float64Array): number => {
    let s = 0;
    for (let i = 0; i < x.length; i++) {
      let u = 0;
      for (let a = 0; a < d; a++) u += t[a]! * x[i]![a]!;
      s += w[i]! * (Math.max(u, 0) - u * y[i]! + Math.log1p(Math.exp(-Math.abs(u))));
    }
    for (let a = 0; a < d; a++) s += 0.5 * l2 * t[a]! * t[a]!;
    return s;
  };
  let current = loss(theta);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(d);
    const h = new Float64Array(d * d);
    for (let i = 0; i < x.length; i++) {
      let u = 0;
      for (let a = 0; a < d; a++) u += theta[a]! * x[i]![a]!;
      const p = 1 / (1 + Math.exp(-u));
      for (let a = 0; a < d; a++) {
        g[a]! += w[i]! * (p - y[i]!) * x[i]![a]!;
        for (let b = 0; b < d; b++) h[a * d + b]! += w[i]! * p * (1 - p) * x[i]![a]! * x[i]![b]!;
      }
    }
    for (let a = 0; a < d; a++) { g[a]! += l2 * theta[a]!; h[a * d + a]! += l2; }
    const next = dampedNewtonStep(theta, solve(h, g, d), current, loss);
    if (next === undefined) break;
    const done = current - next < 1e-12 * Math.max(1, Math.abs(current));
    current = next;
    if (done) break;
  }
  return Array.from(theta);
}

/**
 * Which margins a group's blend reads: `main` and `text` (both), or one alone (the other's weight
 * 0, so inference skips that model for the group's posts). The main margin alone is the main
 * model re-calibrated (slope and bias): the control.
 */
export type BlendColumns = 'both' | 'main' | 'text';

/** The blend of each group fitted on `points`, reading the margins `columns[g]` (one spec for all groups when not an array). */
export function fitFusion(points: FusionPoint[], groups: number, columns: BlendColumns | BlendColumns[]): Fusion {
  const out: Fusion = { groups: [] };
  const r = (v: number): number => Math.round(v * 1e5) / 1e5;
  for (let g = 0; g < groups; g++) {
    const cols = Array.isArray(columns) ? columns[g] ?? 'main' : columns;
    const pts = points.filter((p) => p.group === g);
    const x = pts.map((p) => (cols === 'both' ? [p.main, p.text, 1] : [cols === 'main' ? p.main : p.text, 1]));
    const t = fitLogistic(x, pts.map((p) => p.y), pts.map((p) => p.weight));
    out.groups.push(cols === 'both' ? { main: r(t[0]!), text: r(t[1]!), bias: r(t[2]!) }
      : cols === 'main' ? { main: r(t[0]!), text: 0, bias: r(t[1]!) } : { main: 0, text: r(t[0]!), bias: r(t[1]!) });
  }
  return out;
}

export interface FusionKindScores { posts: number; accuracy: number; ece: number }

/**
 * Cross-fitted scores of the blend: each fold's posts are scored by a blend fitted on the other
 * folds' out-of-fold margins, so the blend's few parameters are never judged on the posts they
 * were fitted to. Accuracy and expected calibration error (10 bins) per file.
 */
export function crossFittedScores(points: FusionPoint[], folds: number, groups: number, columns: BlendColumns | BlendColumns[]): Record<string, FusionKindScores> {
  const prob = new Float64Array(points.length);
  for (let f = 0; f < folds; f++) {
    const fusion = fitFusion(points.filter((p) => p.fold !== f), groups, columns);
    points.forEach((p, i) => {
      if (p.fold !== f) return;
      const g: FusionGroup = fusion.groups[p.group]!;
      prob[i] = 1 / (1 + Math.exp(-(g.main * p.main + g.text * p.text + g.bias)));
    });
  }
  const out: Record<string, FusionKindScores> = {};
  for (const kind of [...new Set(points.map((p) => p.kind))]) {
    const idx = points.map((_, i) => i).filter((i) => points[i]!.kind === kind);
    const conf = idx.map((i) => Math.max(prob[i]!, 1 - prob[i]!));
    const correct = idx.map((i) => (prob[i]! >= 0.5 ? 1 : 0) === points[i]!.y);
    out[kind] = { posts: idx.length, accuracy: correct.filter(Boolean).length / idx.length, ece: reliability(conf, correct).ece };
  }
  return out;
}

/**
 * Out-of-fold margins (positive − negative logit) of a text-only model for every post: trained on
 * the posts of the other folds (weighted by `weightOf`; weight 0 leaves a post out of training),
 * on the same folds as the main model (`foldOf` of the post id).
 */
export function textOofMargins(
  posts: CvExample[], feats: Featurized[], folds: number, seed: number, weightOf: (e: CvExample) => number,
  train: (ex: Example[], f: Featurized[]) => LinearModel,
): Float64Array {
  const fold = posts.map((p) => foldOf(p.group ?? p.id, folds, seed));
  const out = new Float64Array(posts.length);
  const z = new Float64Array(2);
  for (let f = 0; f < folds; f++) {
    const idx = posts.map((_, i) => i).filter((i) => fold[i] !== f && weightOf(posts[i]!) > 0);
    const model = train(idx.map((i) => ({ ...posts[i]!, weight: weightOf(posts[i]!) })), idx.map((i) => feats[i]!));
    for (let i = 0; i < posts.length; i++) {
      if (fold[i] !== f) continue;
      const x = feats[i]!;
      logits(model, x.feats, x.strong, z, x.vals);
      out[i] = z[1]! - z[0]!;
    }
  }
  return out;
}

export const BINARY: SentimentLabel[] = ['negative', 'positive'];
