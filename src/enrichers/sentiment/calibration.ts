import type { TopLabelMap } from './top-label';

/**
 * Calibration of a linear model's class scores, fitted by cross-validation on the training files
 * (scripts/sentiment/calibrate.ts): calibrated logit = raw logit / temperature + bias, per group.
 * Posts that carry Weibo emoticon codes form their own group in the zh model: on them the model is
 * far surer (the weibo_senti_100k labels follow those codes), and one temperature for both kinds
 * of post would leave one of them over- and the other under-confident.
 */
export interface CalibrationGroup {
  temperature: number;
  /** One per class. */
  bias: number[];
  /**
   * Top-label map of the predicted label's probability (after the decision biases) to the share
   * of cross-validated predictions at that probability that were right. Temperature and class
   * bias fit the log loss of all classes; this fixes what is reported as the confidence.
   */
  topLabel?: TopLabelMap;
}

export interface Calibration {
  /** Group 0: posts without emoticon codes; group 1 (when present): posts with at least one. */
  groups: CalibrationGroup[];
  /**
   * The class mix the calibration was fitted for: the probabilities hold on a stream of this mix.
   * What label-shift adaptation (prior-shift.ts) re-weighs from; without it there is none.
   */
  mix?: number[];
  /**
   * `meanProbs[y][j]`: the mean calibrated probability of class j over cross-validated posts of
   * class y (group 0). Lets the adaptation estimate a stream's mix by matching mean probabilities.
   */
  meanProbs?: number[][];
}

export function calibrationGroup(cal: Calibration, emoticons: number): CalibrationGroup {
  return cal.groups[emoticons > 0 && cal.groups.length > 1 ? 1 : 0]!;
}

/** In place: `z[0..k)` becomes the calibrated logits. */
export function applyCalibration(g: CalibrationGroup, z: Float64Array, k: number): void {
  for (let j = 0; j < k; j++) z[j] = z[j]! / g.temperature + (g.bias[j] ?? 0);
}

/** Softmax of `z[0..k)` into `p[0..k)`. */
export function softmaxInto(z: ArrayLike<number>, k: number, p: Float64Array): void {
  let max = -Infinity;
  for (let j = 0; j < k; j++) max = Math.max(max, z[j]!);
  let sum = 0;
  for (let j = 0; j < k; j++) {
    const e = Math.exp(z[j]! - max);
    p[j] = e;
    sum += e;
  }
  for (let j = 0; j < k; j++) p[j] = p[j]! / sum;
}
