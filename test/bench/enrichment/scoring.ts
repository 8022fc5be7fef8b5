/**
 * How the enrichment benchmark scores freshet's sentiment on labelled posts: the reliability of the
 * confidence, the abstaining band's cost, throughput. Shared by run.ts and the en-only run
 * (en-dev.ts).
 */
import { defaultModelDir, type SentimentModel } from '../../../src/enrichers/sentiment/model';
import { reliability } from '../../../src/eval/calibration';
import { scoreSentiment } from '../../../src/eval/sentiment-metrics';
import type { DataFile, LabelledPost } from '../../../scripts/sentiment/data';
import { sentimentStage } from '../../../src/enrichers/sentiment';
import { decideLabel, readOpinionWords, type NeutralRule } from '../../../src/enrichers/sentiment/neutral';
import { EMOTICON_RE } from '../../../src/enrichers/sentiment/features';

export type Classify = (text: string, lang: 'zh' | 'en', strip: boolean) => string;

/**
 * Posts per CPU-second of this process (user + system), over repeated passes for at least `minCpuMs`:
 * the machine is shared, so wall-clock rates measure the neighbours as much as the classifier. The
 * classifiers are synchronous and single-threaded, so CPU time is one core's time (GC threads, if
 * any, only make the figure conservative).
 */
export function throughput(classify: Classify, posts: LabelledPost[], minCpuMs: number): number {
  for (const p of posts.slice(0, 500)) classify(p.text, p.lang, false); // warm-up
  let n = 0;
  const start = process.cpuUsage();
  let cpuMs = 0;
  while (cpuMs < minCpuMs) {
    for (const p of posts) classify(p.text, p.lang, false);
    n += posts.length;
    const d = process.cpuUsage(start);
    cpuMs = (d.user + d.system) / 1000;
  }
  return (n / cpuMs) * 1000;
}

export const LABELS: Record<DataFile, string[]> = { ws100k: ['negative', 'positive'], weibo2018: ['negative', 'positive'], tweeteval: ['negative', 'neutral', 'positive'] };
export type Row = (system: string, variant: string, metric: string, value: number) => void;

/**
 * freshet's confidence per file: reliability table (10 equal-width bins of the predicted label's
 * calibrated probability) and expected calibration error; and what an abstaining band costs:
 * posts whose confidence is below τ are labelled `neutral` (wrong on the binary files).
 */
export function calibrationRows(model: SentimentModel, data: Partial<Record<DataFile, LabelledPost[]>>, row: Row): void {
  const runs: [DataFile, boolean][] = [['ws100k', false], ['ws100k', true], ['weibo2018', false], ['tweeteval', false]];
  for (const [f, s] of runs) {
    const variant = `${f}${s ? '-emoticons-stripped' : ''}`;
    const posts = data[f];
    if (!posts) continue;
    const out = posts.map((p) => model.classify(p.text, p.lang, { stripEmoticons: s }));
    const rel = reliability(out.map((r) => r.confidence), out.map((r, i) => r.label === posts[i]!.label));
    row('freshet', variant, 'ece', rel.ece);
    for (const b of rel.bins) {
      const v = `${variant}-reliability-${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`;
      row('freshet', v, 'posts', b.posts);
      row('freshet', v, 'mean_confidence', b.meanConfidence);
      row('freshet', v, 'accuracy', b.accuracy);
    }
    for (const tau of [0.6, 0.7, 0.8, 0.9]) {
      const pred = out.map((r) => (r.confidence < tau ? 'neutral' : r.label));
      const sc = scoreSentiment(posts.map((p) => p.label), pred, LABELS[f]);
      const answered = pred.map((p, i) => [p, posts[i]!.label] as const).filter(([p]) => p !== 'neutral' || f === 'tweeteval');
      const v = `${variant}-abstain-below-${tau}`;
      row('freshet', v, 'predicted_neutral_share', sc.neutralShare);
      row('freshet', v, f === 'tweeteval' ? 'macro_recall' : 'accuracy', f === 'tweeteval' ? sc.macroRecall : sc.accuracy);
      if (f !== 'tweeteval') row('freshet', v, 'accuracy_on_answered', answered.filter(([p, g]) => p === g).length / Math.max(1, answered.length));
    }
    if (f !== 'tweeteval') {
      // The stage's default zh opinion gate: what it costs where every post is polar.
      const d = sentimentStage.schema.parse({ type: 'sentiment' });
      const rule: NeutralRule = { neutralBand: d.neutral_band, minConfidence: d.min_confidence, zhNoOpinionBelow: d.zh_no_opinion_below };
      const words = readOpinionWords(defaultModelDir());
      const pred = out.map((r, i) => decideLabel(r, s ? posts[i]!.text.replace(EMOTICON_RE, ' ') : posts[i]!.text, rule, () => words));
      const sc = scoreSentiment(posts.map((p) => p.label), pred, LABELS[f]);
      const answered = pred.map((p, i) => [p, posts[i]!.label] as const).filter(([p]) => p !== 'neutral');
      const v = `${variant}-zh-opinion-gate-below-${rule.zhNoOpinionBelow}`;
      row('freshet', v, 'predicted_neutral_share', sc.neutralShare);
      row('freshet', v, 'accuracy', sc.accuracy);
      row('freshet', v, 'accuracy_on_answered', answered.filter(([p, g]) => p === g).length / Math.max(1, answered.length));
    }
  }
}
