/**
 * What the en CV studies (en-quick-cv.ts, en-ship-cv.ts) start from: sentiment-train's tweets with
 * their guessed topics and class-balanced weights, as train-en.ts weighs them, and the training
 * parameters of the committed en model, read from `models/sentiment-cv.json` so that a study
 * measures what `npm run train:sentiment` last chose (not a copy of it that drifts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import type { CvExample } from './cv';
import { argValue, readPosts } from './data';
import type { TrainParams } from './sgd';
import { topicGroups } from './topic-groups';
import { enLexicon, vaderPrior } from './train-en';

export const EN_CLASSES: SentimentLabel[] = ['negative', 'neutral', 'positive'];
/** The seed the committed models were trained with. */
export const EN_SEED = 20261121;
const BUCKETS_LOG2 = 20;

export interface EnCvSetup {
  root: string;
  base: CvExample[];
  /** Class index per tweet. */
  gold: number[];
  /** Class shares in sentiment-train. */
  mix: number[];
  lexicon: Map<number, number>;
  /** The committed en model's training parameters (its `bag` aside). */
  params: TrainParams;
  /** Whether the committed model reads character n-grams. */
  charNgrams: boolean;
}

/** `root` is the project's (the scripts run from `.state/build/scripts/sentiment/`); `--train DIR` overrides the data. */
export function enCvSetup(argv: string[], root = join(__dirname, '..', '..', '..', '..')): EnCvSetup {
  const posts = readPosts(argValue(argv, 'train', join(root, '..', 'shared', 'data', 'sentiment-train')), 'tweeteval');
  const gold = posts.map((p) => EN_CLASSES.indexOf(p.label));
  const mix = EN_CLASSES.map((_, j) => gold.filter((g) => g === j).length / gold.length);
  const groups = topicGroups(posts.map((p) => p.text));
  const base: CvExample[] = posts.map((p, i) => ({
    id: p.id, kind: 'tweeteval', text: p.text, label: p.label, weight: 1 / (3 * mix[gold[i]!]!), ...(groups[i] ? { group: groups[i] } : {}),
  }));
  const cv = JSON.parse(readFileSync(join(root, 'models', 'sentiment-cv.json'), 'utf8')) as { en: { config: Record<string, number> } };
  const c = cv.en.config;
  const prior = vaderPrior(root, BUCKETS_LOG2, c['prior']!);
  const params: TrainParams = {
    lang: 'en', classes: EN_CLASSES, bucketsLog2: BUCKETS_LOG2, epochs: c['epochs']!, learningRate: c['lr']!, l2: c['l2']!, seed: EN_SEED,
    normPower: c['norm']!, ...(prior ? { prior } : {}),
  };
  return { root, base, gold, mix, lexicon: enLexicon(root), params, charNgrams: c['char'] === 1 };
}
