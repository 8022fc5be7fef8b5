import type { Prf } from './shingles';
import { cjkTokens } from './tokenize';

function counts(tokens: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** WCXB `word_f1` with lower-cased, CJK-aware tokens; empty truth + empty output is perfect. */
export function bowPage(truth: string, pred: string): Prf {
  const ref = cjkTokens(truth.toLowerCase());
  const out = cjkTokens(pred.toLowerCase());
  if (ref.length === 0) return out.length === 0 ? { f1: 1, precision: 1, recall: 1 } : { f1: 0, precision: 0, recall: 0 };
  if (out.length === 0) return { f1: 0, precision: 0, recall: 0 };
  const r = counts(ref);
  let overlap = 0;
  for (const [tok, n] of counts(out)) overlap += Math.min(n, r.get(tok) ?? 0);
  const precision = overlap / out.length;
  const recall = overlap / ref.length;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall };
}

/** Per-page P, R and F1 each averaged over pages. */
export function bowAggregate(pages: Prf[]): Prf {
  const n = pages.length;
  const sum = (k: keyof Prf): number => pages.reduce((a, p) => a + p[k], 0) / n;
  return { f1: sum('f1'), precision: sum('precision'), recall: sum('recall') };
}
