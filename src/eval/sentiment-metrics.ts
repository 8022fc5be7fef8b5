/** Sentiment metrics as the sentiment-dev README defines them (scikit-learn conventions). */
export interface SentimentScores {
  n: number;
  accuracy: number;
  /** Macro-F1 over `labels` only: a prediction outside them (e.g. neutral on binary data) is a miss. */
  macroF1: number;
  macroRecall: number;
  /** Share of predictions equal to `neutral`. */
  neutralShare: number;
}

export function scoreSentiment(gold: string[], pred: string[], labels: string[]): SentimentScores {
  if (gold.length !== pred.length) throw new Error('gold and predictions differ in length');
  let correct = 0;
  let neutral = 0;
  const tp = new Map<string, number>();
  const fp = new Map<string, number>();
  const fn = new Map<string, number>();
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!;
    const p = pred[i]!;
    if (p === 'neutral') neutral++;
    if (g === p) {
      correct++;
      tp.set(g, (tp.get(g) ?? 0) + 1);
    } else {
      fn.set(g, (fn.get(g) ?? 0) + 1);
      fp.set(p, (fp.get(p) ?? 0) + 1);
    }
  }
  let f1 = 0;
  let recall = 0;
  for (const l of labels) {
    const t = tp.get(l) ?? 0;
    const prec = t + (fp.get(l) ?? 0) > 0 ? t / (t + (fp.get(l) ?? 0)) : 0;
    const rec = t + (fn.get(l) ?? 0) > 0 ? t / (t + (fn.get(l) ?? 0)) : 0;
    f1 += prec + rec > 0 ? (2 * prec * rec) / (prec + rec) : 0;
    recall += rec;
  }
  const n = gold.length;
  return { n, accuracy: n ? correct / n : 0, macroF1: f1 / labels.length, macroRecall: recall / labels.length, neutralShare: n ? neutral / n : 0 };
}
