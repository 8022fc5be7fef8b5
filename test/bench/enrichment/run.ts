/**
 * Benchmark `enrichment`: freshet's sentiment models next to vader-sentiment and sentiment (AFINN)
 * on sentiment-dev, every file scored on its own (metrics of the data set's README), plus
 * single-core throughput. `npm run bench enrichment [-- --dev DIR]`
 */
import { join } from 'node:path';
import { loadSentimentModel } from '../../../src/enrichers/sentiment/model';
import { scoreSentiment } from '../../../src/eval/sentiment-metrics';
import { argValue, readPosts, splitDev, type DataFile, type LabelledPost } from '../../../scripts/sentiment/data';
import { goal, projectRoot, writeReport, type ResultRow } from '../lib/results';

type Classify = (text: string, lang: 'zh' | 'en', strip: boolean) => string;

/* eslint-disable @typescript-eslint/no-require-imports -- the two baselines ship without types */
const vader = require('vader-sentiment') as { SentimentIntensityAnalyzer: { polarity_scores(t: string): { compound: number } } };
const AfinnCtor = require('sentiment') as new () => { analyze(t: string): { score: number } };
/* eslint-enable @typescript-eslint/no-require-imports */

const EMOTICONS = /\[[^[\]]{1,8}\]/g;
const strip = (t: string, s: boolean): string => (s ? t.replace(EMOTICONS, '') : t);

function systems(): Record<string, Classify> {
  const model = loadSentimentModel();
  const afinn = new AfinnCtor();
  return {
    freshet: (t, lang, s) => model.classify(t, lang, { stripEmoticons: s }).label,
    'vader-sentiment': (t, _l, s) => {
      const c = vader.SentimentIntensityAnalyzer.polarity_scores(strip(t, s)).compound;
      return c >= 0.05 ? 'positive' : c <= -0.05 ? 'negative' : 'neutral';
    },
    sentiment: (t, _l, s) => {
      const v = afinn.analyze(strip(t, s)).score;
      return v > 0 ? 'positive' : v < 0 ? 'negative' : 'neutral';
    },
  };
}

/**
 * Posts per CPU-second of this process (user + system), over repeated passes for at least `minCpuMs`:
 * the machine is shared, so wall-clock rates measure the neighbours as much as the classifier. The
 * classifiers are synchronous and single-threaded, so CPU time is one core's time (GC threads, if
 * any, only make the figure conservative).
 */
function throughput(classify: Classify, posts: LabelledPost[], minCpuMs: number): number {
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

const LABELS = { ws100k: ['negative', 'positive'], weibo2018: ['negative', 'positive'], tweeteval: ['negative', 'neutral', 'positive'] } as const;

/**
 * freshet on the tune and check slices of sentiment-dev (the models were selected on tune only), and
 * the zh model with a neutral band: the zh data has no neutral class, so the band's cost in polar
 * accuracy is what can be measured here.
 */
function freshetDetail(data: Record<DataFile, LabelledPost[]>, row: (system: string, variant: string, metric: string, value: number) => void): void {
  const model = loadSentimentModel();
  for (const f of ['ws100k', 'weibo2018', 'tweeteval'] as const) {
    const labels = [...LABELS[f]];
    const slices = splitDev(data[f]);
    for (const slice of ['tune', 'check'] as const) {
      const posts = slices[slice];
      const sc = scoreSentiment(posts.map((p) => p.label), posts.map((p) => model.classify(p.text, p.lang).label), labels);
      row('freshet', `${f}-${slice}`, 'posts', sc.n);
      row('freshet', `${f}-${slice}`, f === 'tweeteval' ? 'macro_recall' : 'accuracy', f === 'tweeteval' ? sc.macroRecall : sc.accuracy);
    }
    if (f === 'tweeteval') continue;
    const scored = data[f].map((p) => model.classify(p.text, p.lang));
    for (const band of [0.1, 0.2]) {
      const pred = scored.map((r) => (Math.abs(r.score) < band ? 'neutral' : r.label));
      const sc = scoreSentiment(data[f].map((p) => p.label), pred, labels);
      row('freshet', `${f}-neutral-band-${band}`, 'accuracy', sc.accuracy);
      row('freshet', `${f}-neutral-band-${band}`, 'predicted_neutral_share', sc.neutralShare);
    }
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  const devDir = argValue(argv, 'dev', join(projectRoot(), '..', 'shared', 'data', 'sentiment-dev'));
  const files: DataFile[] = ['ws100k', 'weibo2018', 'tweeteval'];
  const data = Object.fromEntries(files.map((f) => [f, readPosts(devDir, f)])) as Record<DataFile, LabelledPost[]>;
  const results: ResultRow[] = [];
  const row = (system: string, variant: string, metric: string, value: number): void => {
    results.push({ system, variant, metric, value: Math.round(value * 10000) / 10000 });
  };
  const sys = systems();
  for (const [name, classify] of Object.entries(sys)) {
    for (const f of files) {
      const runs = f === 'ws100k' ? [false, true] : [false];
      for (const s of runs) {
        const posts = data[f];
        const pred = posts.map((p) => classify(p.text, p.lang, s));
        const labels = f === 'tweeteval' ? ['negative', 'neutral', 'positive'] : ['negative', 'positive'];
        const sc = scoreSentiment(posts.map((p) => p.label), pred, labels);
        const variant = `${f}${s ? '-emoticons-stripped' : ''}`;
        row(name, variant, 'posts', sc.n);
        row(name, variant, 'accuracy', sc.accuracy);
        row(name, variant, 'macro_f1', sc.macroF1);
        if (f === 'tweeteval') row(name, variant, 'macro_recall', sc.macroRecall);
        else row(name, variant, 'predicted_neutral_share', sc.neutralShare);
      }
    }
    const all = [...data.ws100k, ...data.weibo2018, ...data.tweeteval];
    row(name, 'all-dev-posts', 'posts_per_sec', throughput(classify, all, 3000));
    if (name === 'freshet') {
      row(name, 'zh-dev-posts', 'posts_per_sec', throughput(classify, [...data.ws100k, ...data.weibo2018], 2000));
      row(name, 'en-dev-posts', 'posts_per_sec', throughput(classify, data.tweeteval, 2000));
    }
  }
  freshetDetail(data, row);
  const get = (system: string, variant: string, metric: string): number | null =>
    results.find((r) => r.system === system && r.variant === variant && r.metric === metric)?.value ?? null;
  const goals = [
    goal('freshet accuracy on weibo_senti_100k (dev)', '>=', 0.95, get('freshet', 'ws100k', 'accuracy')),
    goal('freshet accuracy on weibo2018 (dev)', '>=', 0.86, get('freshet', 'weibo2018', 'accuracy')),
    goal('freshet macro recall on TweetEval (dev)', '>=', 0.62, get('freshet', 'tweeteval', 'macro_recall')),
    goal('freshet posts_per_sec on one core', '>=', 20000, get('freshet', 'all-dev-posts', 'posts_per_sec')),
  ];
  writeReport('enrichment', {
    data: 'sentiment-dev', files: Object.fromEntries(files.map((f) => [f, data[f].length])),
    vader_rule: 'compound >= 0.05 positive, <= -0.05 negative', afinn_rule: 'sign of score',
    throughput: 'all dev posts (and zh / en apart for freshet), repeated for >= 3 (2) CPU-seconds, posts per CPU-second of the one process, labels only',
  }, results, goals, { note: 'the sentiment models were selected on the tune slice of sentiment-dev (hyper-parameters, decision biases; variants *-tune / *-check), so full-dev scores are not untouched-test scores' });
}

main();
