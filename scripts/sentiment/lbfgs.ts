import type { LinearModel, SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import type { SentimentLang } from '../../src/enrichers/sentiment/features';
import type { Example, Featurized } from './sgd';

export interface FullBatchParams {
  lang: SentimentLang;
  /** `[negative, positive]`: the model is binary. */
  classes: SentimentLabel[];
  bucketsLog2: number;
  /** L2 strength on the weights, against the mean (weighted) log-loss. */
  l2: number;
  /** n-gram features are scaled by n^-normPower, as the runtime reads them. */
  normPower?: number;
  /** Per-bucket feature scale (NB-style informativeness); folded into the weights after training. */
  scale?: Float32Array;
  /** L-BFGS stops after this many iterations, or earlier when the objective stops moving. */
  maxIterations?: number;
  /** Relative change of the objective under which the fit counts as converged. */
  tolerance?: number;
  /**
   * Where the solver starts, per bucket (the solution of a similar fit, e.g. the previous fold's):
   * the optimum is unique, so only the time to reach it changes. 0 when absent.
   */
  start?: Float64Array;
  /** Told the iterations and final objective of each fit. */
  log?: (msg: string) => void;
}

/** The examples as sparse rows over the buckets they touch, renumbered 0..n-1 (the solver's vectors stay that short). */
interface Rows {
  start: Int32Array;
  col: Int32Array;
  val: Float32Array;
  /** Bucket of each column. */
  bucket: Int32Array;
}

function rowsOf(p: FullBatchParams, feats: Featurized[]): Rows {
  const mask = (1 << p.bucketsLog2) - 1;
  const colOf = new Map<number, number>();
  const bucket: number[] = [];
  let nnz = 0;
  for (const f of feats) nnz += f.feats.length;
  const start = new Int32Array(feats.length + 1);
  const col = new Int32Array(nnz);
  const val = new Float32Array(nnz);
  let at = 0;
  feats.forEach((f, r) => {
    start[r] = at;
    const norm = Math.pow(Math.max(1, f.feats.length - f.strong), -(p.normPower ?? 0.5));
    for (let i = 0; i < f.feats.length; i++) {
      const h = f.feats[i]!;
      const b = (h >>> 1) & mask;
      let c = colOf.get(b);
      if (c === undefined) { c = bucket.length; colOf.set(b, c); bucket.push(b); }
      const x = (i < f.strong ? f.vals[i]! : norm) * (p.scale ? p.scale[b]! : 1);
      col[at] = c;
      val[at] = h & 1 ? -x : x;
      at++;
    }
  });
  start[feats.length] = at;
  return { start, col, val, bucket: Int32Array.from(bucket) };
}

/**
 * Binary logistic regression fitted to convergence: the mean weighted log-loss plus l2/2·|w|²,
 * minimised by L-BFGS over all examples at once (no learning rate, epochs or example order to
 * tune; the answer is the regulariser's alone). Same features and runtime form as `trainSoftmax`:
 * the margin is split ±½ over the two classes' weights.
 */
export function trainFullBatch(p: FullBatchParams, examples: Example[], feats: Featurized[]): LinearModel {
  return fitFullBatch(p, examples, feats).model;
}

/** trainFullBatch, and the solver's weights per bucket (before the scale): where a similar fit may start. */
function fitFullBatch(p: FullBatchParams, examples: Example[], feats: Featurized[]): { model: LinearModel; solution: Float64Array } {
  const rows = rowsOf(p, feats);
  const n = rows.bucket.length;
  const y = Float64Array.from(examples, (e) => (e.label === p.classes[1] ? 1 : 0));
  let totalWeight = 0;
  for (const e of examples) totalWeight += e.weight;
  const wt = Float64Array.from(examples, (e) => e.weight / totalWeight);
  const { start, col, val } = rows;
  const m = examples.length;
  const l2 = p.l2;
  const evaluate = (w: Float64Array, g: Float64Array): number => {
    let loss = 0;
    for (let c = 0; c < n; c++) { const v = w[c]!; g[c] = l2 * v; loss += 0.5 * l2 * v * v; }
    for (let r = 0; r < m; r++) {
      const from = start[r]!;
      const to = start[r + 1]!;
      let u = 0;
      for (let k = from; k < to; k++) u += val[k]! * w[col[k]!]!;
      // log(1 + e^u) − y·u, stably.
      loss += wt[r]! * (Math.max(u, 0) - u * y[r]! + Math.log1p(Math.exp(-Math.abs(u))));
      const d = wt[r]! * (1 / (1 + Math.exp(-u)) - y[r]!);
      for (let k = from; k < to; k++) g[col[k]!]! += d * val[k]!;
    }
    return loss;
  };
  const t0 = Date.now();
  const x0 = p.start ? Float64Array.from(rows.bucket, (b) => p.start![b]!) : undefined;
  const { x: w, iterations, value } = lbfgs(n, evaluate, p.maxIterations ?? 500, p.tolerance ?? 1e-7, 10, x0);
  p.log?.(`full-batch fit: ${examples.length} examples, ${n} buckets, ${iterations} iterations, objective ${value.toFixed(6)}, ${Date.now() - t0} ms`);
  const k = p.classes.length;
  const weights = new Float32Array((1 << p.bucketsLog2) * k);
  for (let c = 0; c < n; c++) {
    const b = rows.bucket[c]!;
    const v = w[c]! * (p.scale ? p.scale[b]! : 1);
    weights[b * k] = -v / 2;
    weights[b * k + 1] = v / 2;
  }
  const solution = new Float64Array(1 << p.bucketsLog2);
  for (let c = 0; c < n; c++) solution[rows.bucket[c]!] = w[c]!;
  return { solution, model: {
    lang: p.lang, classes: p.classes, bucketsLog2: p.bucketsLog2, weights, decisionBias: p.classes.map(() => 0), neutralBand: 0,
    ...(p.normPower !== undefined ? { normPower: p.normPower } : {}),
    meta: { solver: 'lbfgs', l2: p.l2 },
  } };
}

/**
 * trainFullBatch that starts each fit from the previous fit's solution (the folds of one
 * cross-validation and the final fit share most of their data, so most of their answer).
 */
export function warmStartedFullBatch(p: FullBatchParams): (examples: Example[], feats: Featurized[], scale?: Float32Array) => LinearModel {
  let previous: Float64Array | undefined;
  return (examples, feats, scale) => {
    const fit = fitFullBatch({ ...p, ...(scale ? { scale } : {}), ...(previous ? { start: previous } : {}) }, examples, feats);
    previous = fit.solution;
    return fit.model;
  };
}

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/**
 * Minimises a smooth convex function of n variables from 0: L-BFGS (10 pairs) with a backtracking
 * line search on the Armijo condition. `f(x, g)` returns the value and writes the gradient to g.
 */
export function lbfgs(n: number, f: (x: Float64Array, g: Float64Array) => number, maxIterations: number, tolerance: number, memory = 10, start?: Float64Array): { x: Float64Array; iterations: number; value: number } {
  let x = start ? Float64Array.from(start) : new Float64Array(n);
  let g = new Float64Array(n);
  let fx = f(x, g);
  const s: Float64Array[] = [];
  const yv: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(memory);
  const d = new Float64Array(n);
  const xNew = new Float64Array(n);
  const gNew = new Float64Array(n);
  let it = 0;
  for (; it < maxIterations; it++) {
    // Two-loop recursion: d = −H·g.
    for (let i = 0; i < n; i++) d[i] = -g[i]!;
    for (let j = s.length - 1; j >= 0; j--) {
      alpha[j] = rho[j]! * dot(s[j]!, d);
      const yj = yv[j]!;
      for (let i = 0; i < n; i++) d[i]! -= alpha[j]! * yj[i]!;
    }
    const gamma = s.length ? dot(s[s.length - 1]!, yv[yv.length - 1]!) / dot(yv[yv.length - 1]!, yv[yv.length - 1]!) : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let i = 0; i < n; i++) d[i]! *= gamma;
    for (let j = 0; j < s.length; j++) {
      const beta = rho[j]! * dot(yv[j]!, d);
      const sj = s[j]!;
      for (let i = 0; i < n; i++) d[i]! += (alpha[j]! - beta) * sj[i]!;
    }
    let slope = dot(g, d);
    if (slope >= 0) {
      // Not a descent direction (curvature pairs gone stale): restart from the gradient.
      s.length = 0; yv.length = 0; rho.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      slope = dot(g, d);
    }
    let step = 1;
    let fNew = Infinity;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = f(xNew, gNew);
      if (fNew <= fx + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(fNew < fx)) break;
    const sk = new Float64Array(n);
    const yk = new Float64Array(n);
    for (let i = 0; i < n; i++) { sk[i] = xNew[i]! - x[i]!; yk[i] = gNew[i]! - g[i]!; }
    const sy = dot(sk, yk);
    if (sy > 1e-12) {
      if (s.length === memory) { s.shift(); yv.shift(); rho.shift(); }
      s.push(sk); yv.push(yk); rho.push(1 / sy);
    }
    const done = fx - fNew < tolerance * Math.max(1, Math.abs(fx));
    [x, g] = [Float64Array.from(xNew), Float64Array.from(gNew)];
    fx = fNew;
    if (done) break;
  }
  return { x, iterations: it, value: fx };
}
