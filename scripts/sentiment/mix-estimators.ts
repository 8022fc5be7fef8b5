/**
 * Two ways to read a zh break-out's sentiment mix from its posts (all of them, as simsite made
 * them; no detection): counting the labels the sentiment stage writes (what the topics detector
 * does), and averaging the calibrated probability of each polar call (gated posts neutral). The
 * average is unbiased only where the model is calibrated: on weibo it is, on simsite's sentences
 * it is not (too little confidence), and the average pulls every mix towards half and half.
 * `node .state/build/scripts/sentiment/mix-estimators.js [--seeds 7,8,9] [--model-dir D]`
 */
import { sentimentStage } from '../../src/enrichers/sentiment';
import { defaultModelDir, loadSentimentModel } from '../../src/enrichers/sentiment/model';
import { decideSentiment, readOpinionWords } from '../../src/enrichers/sentiment/neutral';
import { defaultBreakouts } from '../../src/simsite/breakouts';
import { createWorld, DEFAULT_START_MS } from '../../src/simsite/world';
import { argValue } from './data';

type Mix = Record<'positive' | 'neutral' | 'negative', number>;
const LABELS = ['positive', 'neutral', 'negative'] as const;
const argv = process.argv.slice(2);
const dir = argValue(argv, 'model-dir', defaultModelDir());
const model = loadSentimentModel(dir);
const words = readOpinionWords(dir);
const d = sentimentStage.schema.parse({ type: 'sentiment' });
const rule = { neutralBand: d.neutral_band, minConfidence: d.min_confidence, zhNoOpinionBelow: d.zh_no_opinion_below };
const f = (m: Mix, n: number): string => LABELS.map((k) => (m[k] / n).toFixed(2)).join('/');
const worst = { count: 0, probability: 0 };
for (const seed of argValue(argv, 'seeds', '7,8,9').split(',').map(Number)) {
  const world = createWorld({ seed, users: 3000, diurnal: true, breakouts: defaultBreakouts(DEFAULT_START_MS, 2, 12) });
  for (const [name, posts] of world.breakoutPosts()) {
    if (posts[0]?.lang !== 'zh' || posts.length < 50) continue;
    const truth: Mix = { positive: 0, neutral: 0, negative: 0 };
    const count: Mix = { ...truth };
    const prob: Mix = { ...truth };
    for (const p of posts) {
      truth[p.sentiment]++;
      const r = model.classify(p.text, 'zh');
      const { label } = decideSentiment(r, p.text, rule, () => words);
      count[label]++;
      if (label === 'neutral') { prob.neutral++; continue; }
      const pos = r.label === 'positive' ? r.confidence : 1 - r.confidence;
      prob.positive += pos;
      prob.negative += 1 - pos;
    }
    const err = (m: Mix): number => Math.max(...LABELS.map((k) => Math.abs(m[k] - truth[k]) / posts.length));
    worst.count = Math.max(worst.count, err(count));
    worst.probability = Math.max(worst.probability, err(prob));
    console.log(`seed ${seed} ${name} pos/neu/neg truth ${f(truth, posts.length)} count ${f(count, posts.length)} (${err(count).toFixed(3)}) probability ${f(prob, posts.length)} (${err(prob).toFixed(3)})`);
  }
}
console.log(`worst: count ${worst.count.toFixed(3)}, probability ${worst.probability.toFixed(3)}`);
