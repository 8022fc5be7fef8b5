import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SentimentLabel } from '../../src/enrichers/sentiment/model-file';

/** One row of the sentiment-train / sentiment-dev JSON Lines files. */
export interface LabelledPost {
  id: string;
  lang: 'zh' | 'en';
  text: string;
  label: SentimentLabel;
}

export const FILES = {
  ws100k: 'zh-weibo_senti_100k.jsonl',
  weibo2018: 'zh-weibo2018.jsonl',
  tweeteval: 'en-tweeteval_sentiment.jsonl',
} as const;

export type DataFile = keyof typeof FILES;

export function readPosts(dir: string, file: DataFile): LabelledPost[] {
  return readFileSync(join(dir, FILES[file]), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as LabelledPost);
}

/** Reads `--name value` pairs. */
export function argValue(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}

/** VADER's lexicon (Apache-2.0, from the vader-sentiment dev dependency): word → valence −4..4. */
export function readVaderLexicon(root: string): Map<string, number> {
  const text = readFileSync(join(root, 'node_modules', 'vader-sentiment', 'vader_lexicon.txt'), 'utf8');
  const lex = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [word, score] = line.split('\t');
    if (word && score && Number.isFinite(Number(score))) lex.set(word.toLowerCase(), Number(score));
  }
  return lex;
}

/** AFINN-165 and the Emoji Sentiment Ranking scores as the `sentiment` package ships them (MIT): word → −5..5. */
export function readAfinnLexicon(root: string): Map<string, number> {
  const dir = join(root, 'node_modules', 'sentiment');
  const words = JSON.parse(readFileSync(join(dir, 'languages', 'en', 'labels.json'), 'utf8')) as Record<string, number>;
  const emoji = JSON.parse(readFileSync(join(dir, 'build', 'emoji.json'), 'utf8')) as Record<string, number>;
  return new Map([...Object.entries(words), ...Object.entries(emoji)].map(([w, v]) => [w.toLowerCase(), v]));
}
