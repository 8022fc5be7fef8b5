/**
 * Reliability of a classifier's confidence: posts binned by the confidence of their predicted
 * label (equal-width bins over 0..1), and the expected calibration error, the post-weighted mean
 * gap between each bin's accuracy and mean confidence (Guo et al. 2017, 10 bins by default).
 */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  /** Sum of the posts' weights in the bin (the post count when unweighted). */
  posts: number;
  meanConfidence: number;
  accuracy: number;
}

export interface Reliability {
  ece: number;
  bins: ReliabilityBin[];
}

/** `weights`: optional per-post weights, e.g. to re-weigh cross-validated posts to another class mix. */
export function reliability(confidence: ArrayLike<number>, correct: ArrayLike<boolean>, nBins = 10, weights?: ArrayLike<number>): Reliability {
  if (confidence.length !== correct.length) throw new Error('confidence and correct differ in length');
  const n = new Float64Array(nBins);
  const conf = new Float64Array(nBins);
  const hit = new Float64Array(nBins);
  let total = 0;
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i]!;
    if (!(c >= 0 && c <= 1)) throw new Error(`confidence ${c} outside 0..1`);
    const w = weights ? weights[i]! : 1;
    const b = Math.min(nBins - 1, Math.floor(c * nBins));
    n[b]! += w;
    conf[b]! += w * c;
    if (correct[i]) hit[b]! += w;
    total += w;
  }
  let ece = 0;
  const bins: ReliabilityBin[] = [];
  for (let b = 0; b < nBins; b++) {
    if (n[b] === 0) continue;
    const meanConfidence = conf[b]! / n[b]!;
    const accuracy = hit[b]! / n[b]!;
    ece += (n[b]! / total) * Math.abs(accuracy - meanConfidence);
    bins.push({ lo: b / nBins, hi: (b + 1) / nBins, posts: n[b]!, meanConfidence, accuracy });
  }
  return { ece, bins };
}
