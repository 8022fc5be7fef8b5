/**
 * How strong the subjects' daily rhythms are, learned from the population (empirical Bayes), so
 * that each subject's amplitude is estimated as the posterior mean given its own posts.
 *
 * A subject's n post times give the mean resultant R̄ of their clock angles, an estimate of
 * z = (a/2)·e^{iθp} with noise of variance 1/(2n) per component. Shrinking |R̄| by a fixed rule
 * cannot be right for every population: where everybody has a rhythm of about the same strength, a
 * rule that keeps noise from passing for a rhythm also cuts the real ones (with 30 posts, a = 0.8
 * read as ~0.73); where few have one, it lets noise through. The prior here is a distribution of
 * ρ = a/2 on a grid (the phase uniform), its weights fitted by EM on all subjects' R̄ (Kiefer and
 * Wolfowitz's nonparametric maximum likelihood, as for the rates in rate-model.ts). Given ρ, |R̄|
 * follows a Rice law: likelihood ∝ exp(−nρ²)·I₀(2n|R̄|ρ). The posterior mean of z points along R̄
 * with length E[ρ·I₁(κ)/I₀(κ)], κ = 2n|R̄|ρ.
 */

export interface AmplitudePrior {
  /** ρ = a/2 on a grid from 0 to 0.45. */
  halfAmplitudes: Float64Array;
  weights: Float64Array;
}

const GRID_POINTS = 19;
const MAX_HALF_AMPLITUDE = 0.45;
/** Subjects with fewer (discounted) posts say too little about the population. */
const MIN_POSTS = 5;
const EM_ITERATIONS = 30;

/** I₀(x) for x < 3.75, and √x·e^(−x)·I₀(x) and the same of I₁ beyond (Abramowitz and Stegun 9.8.1–9.8.4, relative error ~1e-7). */
function i0Small(x: number): number {
  const t = (x / 3.75) ** 2;
  return 1 + t * (3.5156229 + t * (3.0899424 + t * (1.2067492 + t * (0.2659732 + t * (0.0360768 + t * 0.0045813)))));
}

function i0LargeScaled(x: number): number {
  const t = 3.75 / x;
  return 0.39894228 + t * (0.01328592 + t * (0.00225319 + t * (-0.00157565 + t * (0.00916281 + t * (-0.02057706 + t * (0.02635537 + t * (-0.01647633 + t * 0.00392377)))))));
}

function i1LargeScaled(x: number): number {
  const t = 3.75 / x;
  return 0.39894228 + t * (-0.03988024 + t * (-0.00362018 + t * (0.00163801 + t * (-0.01031555 + t * (0.02282967 + t * (-0.02895312 + t * (0.01787654 - t * 0.00420059)))))));
}

/** log I₀(x) for x ≥ 0. */
export function logBesselI0(x: number): number {
  return x < 3.75 ? Math.log(i0Small(x)) : x - 0.5 * Math.log(x) + Math.log(i0LargeScaled(x));
}

/** I₁(x)/I₀(x) for x ≥ 0. */
export function besselRatioI1I0(x: number): number {
  if (x < 3.75) {
    const t = (x / 3.75) ** 2;
    const i1 = x * (0.5 + t * (0.87890594 + t * (0.51498869 + t * (0.15084934 + t * (0.02658733 + t * (0.00301532 + t * 0.00032411))))));
    return i1 / i0Small(x);
  }
  return i1LargeScaled(x) / i0LargeScaled(x);
}

export function flatAmplitudePrior(): AmplitudePrior {
  const halfAmplitudes = Float64Array.from({ length: GRID_POINTS }, (_, j) => (j * MAX_HALF_AMPLITUDE) / (GRID_POINTS - 1));
  return { halfAmplitudes, weights: new Float64Array(GRID_POINTS).fill(1 / GRID_POINTS) };
}

/** Log-likelihood of |R̄| = r from n posts under ρ, up to terms common to every ρ. */
function logLikelihood(n: number, r: number, rho: number): number {
  return -n * rho * rho + logBesselI0(2 * n * r * rho);
}

/** Fits the weights by EM on the subjects' (n, |R̄|); null below ten subjects with enough posts. */
export function fitAmplitudePrior(subjects: ArrayLike<{ n: number; cos: number; sin: number }>): AmplitudePrior | null {
  const start = flatAmplitudePrior();
  const J = start.halfAmplitudes.length;
  const rows: number[] = [];
  for (let i = 0; i < subjects.length; i++) if (subjects[i]!.n >= MIN_POSTS) rows.push(i);
  if (rows.length < 10) return null;
  const ll = new Float64Array(rows.length * J);
  rows.forEach((i, u) => {
    const d = subjects[i]!;
    const r = Math.hypot(d.cos, d.sin) / d.n;
    let max = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < J; j++) {
      const v = logLikelihood(d.n, r, start.halfAmplitudes[j]!);
      ll[u * J + j] = v;
      if (v > max) max = v;
    }
    for (let j = 0; j < J; j++) ll[u * J + j] = Math.exp(ll[u * J + j]! - max);
  });
  let w = start.weights;
  for (let it = 0; it < EM_ITERATIONS; it++) {
    const next = new Float64Array(J);
    for (let u = 0; u < rows.length; u++) {
      let sum = 0;
      for (let j = 0; j < J; j++) sum += w[j]! * ll[u * J + j]!;
      if (!(sum > 0)) continue;
      for (let j = 0; j < J; j++) next[j] = next[j]! + (w[j]! * ll[u * J + j]!) / sum;
    }
    let total = 0;
    for (let j = 0; j < J; j++) {
      next[j] = next[j]! + 1e-6;
      total += next[j]!;
    }
    w = next.map((x) => x / total);
  }
  return { halfAmplitudes: start.halfAmplitudes, weights: w };
}

/** Posterior mean of ρ·cos(phase error): the length of E[z | R̄] (R̄ of length r from n posts). */
export function posteriorHalfAmplitude(prior: AmplitudePrior, n: number, r: number): number {
  const J = prior.halfAmplitudes.length;
  let max = Number.NEGATIVE_INFINITY;
  const lw = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    const w = prior.weights[j]!;
    lw[j] = w > 0 ? Math.log(w) + logLikelihood(n, r, prior.halfAmplitudes[j]!) : Number.NEGATIVE_INFINITY;
    if (lw[j]! > max) max = lw[j]!;
  }
  let sum = 0;
  let mean = 0;
  for (let j = 0; j < J; j++) {
    const p = Math.exp(lw[j]! - max);
    const rho = prior.halfAmplitudes[j]!;
    sum += p;
    mean += p * rho * besselRatioI1I0(2 * n * r * rho);
  }
  return sum > 0 ? mean / sum : 0;
}
