import { applyCalibration, calibrationGroup, softmaxInto, type Calibration } from '../../src/enrichers/sentiment/calibration';
import type { SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import { reliability, type ReliabilityBin } from '../../src/eval/calibration';
import { scoreSentiment } from '../../src/eval/sentiment-metrics';
import { fitCalibration } from './calibrate';
import { mapConfidence } from '../../src/enrichers/sentiment/top-label';
import type { CvExample } from './cv';
import type { Featurized } from './sgd';

export interface KindScores {
  posts: number;
  accuracy: number;
  macroRecall: number;
  /** Expected calibration error of the predicted label's probability (10 bins); with a calibration only. */
  ece?: number;
  reliability?: ReliabilityBin[];
}

export interface OofScores {
  kinds: Record<string, KindScores>;
}

/** Calibrated probabilities of one out-of-fold logit vector (a copy). */
export function probabilities(z: Float64Array, k: number, cal: Calibration | undefined, emoticons: number): Float64Array {
  const u = Float64Array.from(z);
  if (cal) applyCalibration(calibrationGroup(cal, emoticons), u, k);
  const p = new Float64Array(k);
  softmaxInto(u, k, p);
  return p;
}

/**
 * Per-kind scores of out-of-fold logits: labels by arg-max of the (calibrated) logits plus
 * `decisionBias`; with a calibration also the reliability of the predicted label's probability.
 * `weightOf` re-weighs posts (e.g. to another class mix) for the reliability only.
 */
export function scoreOof(
  examples: CvExample[], oof: Float64Array[], classes: SentimentLabel[], cal?: Calibration, feats?: Featurized[],
  decisionBias?: number[], weightOf?: (e: CvExample) => number,
): OofScores {
  const k = classes.length;
  const byKind = new Map<string, number[]>();
  examples.forEach((e, i) => {
    if (!oof[i]) return;
    const list = byKind.get(e.kind) ?? [];
    list.push(i);
    byKind.set(e.kind, list);
  });
  const kinds: Record<string, KindScores> = {};
  for (const [kind, idx] of byKind) {
    const gold: string[] = [];
    const pred: string[] = [];
    const conf: number[] = [];
    const correct: boolean[] = [];
    const weights: number[] = [];
    for (const i of idx) {
      const p = probabilities(oof[i]!, k, cal, feats ? feats[i]!.emoticons : 0);
      const u = cal ? p.map(Math.log) : oof[i]!;
      let best = 0;
      for (let j = 1; j < k; j++) if (u[j]! + (decisionBias?.[j] ?? 0) > u[best]! + (decisionBias?.[best] ?? 0)) best = j;
      const top = cal ? calibrationGroup(cal, feats ? feats[i]!.emoticons : 0).topLabel : undefined;
      gold.push(examples[i]!.label);
      pred.push(classes[best]!);
      conf.push(top ? mapConfidence(top, p[best]!) : p[best]!);
      correct.push(classes[best] === examples[i]!.label);
      weights.push(weightOf ? weightOf(examples[i]!) : 1);
    }
    const sc = scoreSentiment(gold, pred, classes);
    kinds[kind] = { posts: idx.length, accuracy: sc.accuracy, macroRecall: sc.macroRecall };
    if (cal) {
      const r = reliability(conf, correct, 10, weights);
      kinds[kind] = { ...kinds[kind]!, ece: r.ece, reliability: r.bins };
    }
  }
  return { kinds };
}

/** Fits one calibration group per value of `groupOf` on the scored out-of-fold posts, weighted by `weightOf`. */
export function calibrated(
  examples: CvExample[], oof: Float64Array[], classes: SentimentLabel[], groupOf: (e: CvExample, f: Featurized) => number,
  groups: number, feats: Featurized[], weightOf: (e: CvExample) => number,
): Calibration {
  const out: Calibration = { groups: [] };
  for (let g = 0; g < groups; g++) {
    const idx = examples.map((_, i) => i).filter((i) => oof[i] && groupOf(examples[i]!, feats[i]!) === g && weightOf(examples[i]!) > 0);
    const fit = fitCalibration(idx.map((i) => oof[i]!), idx.map((i) => classes.indexOf(examples[i]!.label)), idx.map((i) => weightOf(examples[i]!)), classes.length);
    out.groups.push({ temperature: round(fit.temperature), bias: fit.bias.map(round) });
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

/**
 * The calibration whose worst cross-validated ECE over `kinds` is the smallest (the goal is an
 * ECE bound on each file, so a low sum bought with one file's error does not count). Index into
 * `candidates`; a candidate missing a kind's ECE counts as infinitely bad.
 */
export function leastWorstEce(candidates: OofScores[], kinds: string[]): number {
  let best = -1;
  let bestWorst = Infinity;
  candidates.forEach((s, i) => {
    const worst = Math.max(...kinds.map((k) => s.kinds[k]?.ece ?? Infinity));
    if (best < 0 || worst < bestWorst) { best = i; bestWorst = worst; }
  });
  return best;
}
