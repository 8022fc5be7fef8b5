import type { CalibrationGroup } from '../../src/enrichers/sentiment/calibration';

/**
 * Fits one calibration group: calibrated logits u_j = a·z_j + b_j (b_0 = 0, temperature 1/a) that
 * minimise the weighted log loss of out-of-fold logits, by damped Newton steps (the loss is convex
 * in a and b). Temperature scaling with a class bias: "vector scaling" restricted to a shared
 * slope, which keeps the ranking of the model's scores and cannot overfit thousands of posts.
 */
export function fitCalibration(zs: Float64Array[], ys: number[], weights: number[], k: number, iterations = 50): CalibrationGroup {
  const d = k; // a, b_1..b_{k-1}
  const theta = new Float64Array(d);
  theta[0] = 1;
  const u = new Float64Array(k);
  const p = new Float64Array(k);
  const loss = (t: Float64Array): number => {
    let s = 0;
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      let max = -Infinity;
      for (let j = 0; j < k; j++) { u[j] = t[0]! * z[j]! + (j > 0 ? t[j]! : 0); max = Math.max(max, u[j]!); }
      let sum = 0;
      for (let j = 0; j < k; j++) sum += Math.exp(u[j]! - max);
      s += weights[i]! * (Math.log(sum) + max - u[ys[i]!]!);
    }
    return s;
  };
  let current = loss(theta);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(d);
    const h = new Float64Array(d * d);
    const gj = new Float64Array(k * d);
    const mean = new Float64Array(d);
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      const w = weights[i]!;
      let max = -Infinity;
      for (let j = 0; j < k; j++) { u[j] = theta[0]! * z[j]! + (j > 0 ? theta[j]! : 0); max = Math.max(max, u[j]!); }
      let sum = 0;
      for (let j = 0; j < k; j++) { p[j] = Math.exp(u[j]! - max); sum += p[j]!; }
      mean.fill(0);
      gj.fill(0);
      for (let j = 0; j < k; j++) {
        p[j] = p[j]! / sum;
        gj[j * d] = z[j]!;
        if (j > 0) gj[j * d + j] = 1;
        for (let a = 0; a < d; a++) mean[a]! += p[j]! * gj[j * d + a]!;
      }
      const y = ys[i]!;
      for (let a = 0; a < d; a++) g[a]! += w * (mean[a]! - gj[y * d + a]!);
      for (let j = 0; j < k; j++) {
        for (let a = 0; a < d; a++) {
          const da = gj[j * d + a]! - mean[a]!;
          if (da === 0) continue;
          for (let b = 0; b < d; b++) h[a * d + b]! += w * p[j]! * da * (gj[j * d + b]! - mean[b]!);
        }
      }
    }
    for (let a = 0; a < d; a++) h[a * d + a]! += 1e-9 + 1e-6 * Math.abs(h[a * d + a]!);
    const next = dampedNewtonStep(theta, solve(h, g, d), current, loss);
    if (next === undefined) break;
    const done = current - next < 1e-10 * Math.max(1, Math.abs(current));
    current = next;
    if (done) break;
  }
  const a = theta[0]!;
  return { temperature: 1 / a, bias: Array.from({ length: k }, (_, j) => (j > 0 ? theta[j]! : 0)) };
}

/**
 * One Newton step with backtracking: the step is halved (up to 30 times) until the loss does not
 * rise. `theta` moves only when one does not; the new loss, or undefined when none was found.
 */
export function dampedNewtonStep(theta: Float64Array, step: Float64Array, current: number, loss: (t: Float64Array) => number): number | undefined {
  let t = 1;
  for (let tries = 0; tries < 30; tries++) {
    const cand = theta.map((v, a) => v - t * step[a]!);
    const next = loss(cand);
    if (next <= current) {
      theta.set(cand);
      return next;
    }
    t /= 2;
  }
  return undefined;
}

/** Gaussian elimination with partial pivoting on a small dense system. */
export function solve(h: Float64Array, g: Float64Array, d: number): Float64Array {
  const m = Array.from({ length: d }, (_, r) => [...Array.from({ length: d }, (_, c) => h[r * d + c]!), g[r]!]);
  for (let c = 0; c < d; c++) {
    let piv = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    const diag = m[c]![c]! || 1e-12;
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / diag;
      for (let cc = c; cc <= d; cc++) m[r]![cc]! -= f * m[c]![cc]!;
    }
  }
  return Float64Array.from({ length: d }, (_, r) => m[r]![d]! / (m[r]![r]! || 1e-12));
}
