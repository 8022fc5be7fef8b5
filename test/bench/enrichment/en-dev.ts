/**
 * The enrichment benchmark's English rows alone (its scoring, scoring.ts), with the en label-shift
 * window off and at the stage's default: TweetEval macro recall, the reliability of the confidence,
 * posts per CPU second. Each run starts from a fresh model and reads the tweets in file order, as a
 * new user's `freshet sentiment` batch would. Prints the rows; writes nothing.
 * `node .state/build/test/bench/enrichment/en-dev.js [--dev DIR] [--windows 0,1000]`
 */
import { join } from 'node:path';
import { loadSentimentModel, streamOptions } from '../../../src/enrichers/sentiment/model';
import { sentimentStage } from '../../../src/enrichers/sentiment';
import { scoreSentiment } from '../../../src/eval/sentiment-metrics';
import { argValue, readPosts } from '../../../scripts/sentiment/data';
import { projectRoot } from '../lib/results';
import { calibrationRows, LABELS, throughput, type Row } from './scoring';

const argv = process.argv.slice(2);
const devDir = argValue(argv, 'dev', join(projectRoot(), '..', 'shared', 'data', 'sentiment-dev'));
const byDefault = sentimentStage.schema.parse({ type: 'sentiment' }).en_prior_window;
const windows = argValue(argv, 'windows', `0,${byDefault}`).split(',').map(Number);
const tweets = readPosts(devDir, 'tweeteval');
const rows: { window: number; variant: string; metric: string; value: number }[] = [];
for (const window of windows) {
  const row: Row = (_system, variant, metric, value) => { rows.push({ window, variant, metric, value: Math.round(value * 1e4) / 1e4 }); };
  const model = loadSentimentModel(undefined, streamOptions(window));
  calibrationRows(model, { tweeteval: tweets }, row);
  const fresh = loadSentimentModel(undefined, streamOptions(window));
  const sc = scoreSentiment(tweets.map((p) => p.label), tweets.map((p) => fresh.classify(p.text, p.lang).label), LABELS.tweeteval);
  row('freshet', 'tweeteval', 'macro_recall', sc.macroRecall);
  row('freshet', 'en-dev-posts', 'posts_per_sec', throughput((t, lang) => fresh.classify(t, lang).label, tweets, 2000));
}
for (const r of rows.filter((x) => !x.variant.includes('reliability') && !x.variant.includes('abstain'))) process.stdout.write(`${JSON.stringify(r)}\n`);
