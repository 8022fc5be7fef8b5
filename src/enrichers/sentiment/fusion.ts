/**
 * Late fusion of a binary model's logit with a second, text-only model's: the zh product model
 * pools weibo_senti_100k (whose labels are its emoticon codes') with the hand-labelled weibo2018
 * posts, and on posts without codes that joint model under-uses the words. A second model trained
 * on the words alone (codes stripped) and a logistic blend of the two margins, fitted per
 * calibration group on cross-validated margins (scripts/sentiment/fusion.ts), both re-weighs the
 * two and calibrates the result: the blend's output is the calibrated logit.
 */
export interface FusionGroup {
  /** Weight of the main model's margin (positive − negative logit). */
  main: number;
  /** Weight of the text-only model's margin. */
  text: number;
  bias: number;
}

export interface Fusion {
  /** Group 0: posts without emoticon codes; group 1 (when present): posts with at least one. */
  groups: FusionGroup[];
}

export function fusionGroup(f: Fusion, emoticons: number): FusionGroup {
  return f.groups[emoticons > 0 && f.groups.length > 1 ? 1 : 0]!;
}

/**
 * In place: `z` (the main model's logits, classes `[negative, positive]`) becomes the fused,
 * calibrated logits ±d/2, so that their softmax is sigmoid(d).
 */
export function fuseInto(g: FusionGroup, z: Float64Array, text: Float64Array): void {
  const d = g.main * (z[1]! - z[0]!) + g.text * (text[1]! - text[0]!) + g.bias;
  z[0] = -d / 2;
  z[1] = d / 2;
}
