import { cjkTokens, wordTokens } from './tokenize';

/** Normalised per-page counts, as Scrapinghub's `string_shingle_matching` returns them. */
export interface TpFpFn {
  tp: number;
  fp: number;
  fn: number;
}

const SHINGLE_SIZE = 4;

/** Multiset of 4-token shingles; a text shorter than 4 tokens is one (shorter) shingle. */
function shingleCounts(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - SHINGLE_SIZE + 1);
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + SHINGLE_SIZE);
    if (shingle.length === 0) continue;
    const key = shingle.join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function shingleMatch(trueTokens: string[], predTokens: string[]): TpFpFn {
  const t = shingleCounts(trueTokens);
  const p = shingleCounts(predTokens);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, tc] of t) {
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fn += Math.max(0, tc - pc);
  }
  for (const [key, pc] of p) fp += Math.max(0, pc - (t.get(key) ?? 0));
  const sum = tp + fp + fn;
  // Normalised so that long texts weigh no more than short ones.
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

/** SH: `\w+` tokens. */
export function shPage(truth: string, pred: string): TpFpFn {
  return shingleMatch(wordTokens(truth), wordTokens(pred));
}

/** SH_CJK: one token per CJK ideograph/kana. */
export function shCjkPage(truth: string, pred: string): TpFpFn {
  return shingleMatch(cjkTokens(truth), cjkTokens(pred));
}

export function shPrecision({ tp, fp, fn }: TpFpFn): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

export function shRecall({ tp, fp, fn }: TpFpFn): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

export interface Prf {
  f1: number;
  precision: number;
  recall: number;
}

const mean = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * Scrapinghub's aggregate: P averaged over pages with predicted shingles, R over pages with
 * true shingles, F1 the harmonic mean of the two averages (not the mean of per-page F1).
 */
export function shAggregate(pages: TpFpFn[]): Prf {
  const precision = mean(pages.filter((p) => p.tp + p.fp > 0).map(shPrecision));
  const recall = mean(pages.filter((p) => p.tp + p.fn > 0).map(shRecall));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall };
}
