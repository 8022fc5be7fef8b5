import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jiebaDicts, jiebaModule } from '../jieba';
import { detectLanguage } from '../language';
import { FeatureExtractor, type FeatureOptions, type SentimentLang } from './features';
import { decodeModel, type LinearModel, type LinearModelFile, type SentimentLabel } from './model-file';

export interface SentimentResult {
  lang: 'zh' | 'en' | 'other';
  /** p(positive) − p(negative), in −1..1. */
  score: number;
  label: SentimentLabel;
}

export interface SentimentModel {
  /** `lang` when known (zh/en); otherwise detected from the script mix. `other` is scored with the en model. */
  classify(text: string, lang?: string, opts?: FeatureOptions): SentimentResult;
}

/** The class scores of one text: logits before the decision bias. */
export function logits(model: LinearModel, feats: Int32Array, strong: number, out: Float64Array, vals?: Float32Array): void {
  const k = model.classes.length;
  const mask = (1 << model.bucketsLog2) - 1;
  const w = model.weights;
  out.fill(0, 0, k);
  const norm = Math.pow(Math.max(1, feats.length - strong), -(model.normPower ?? 0.5));
  for (let i = 0; i < feats.length; i++) {
    const h = feats[i]!;
    const base = ((h >>> 1) & mask) * k;
    const x = i < strong ? (vals ? vals[i]! : 1) : norm;
    // The low bit signs the feature, so colliding features cancel rather than add up.
    const v = h & 1 ? -x : x;
    for (let j = 0; j < k; j++) out[j]! += v * w[base + j]!;
  }
}

function decide(model: LinearModel, z: Float64Array): { score: number; label: SentimentLabel } {
  const k = model.classes.length;
  let max = -Infinity;
  for (let j = 0; j < k; j++) max = Math.max(max, z[j]!);
  let sum = 0;
  let pPos = 0;
  let pNeg = 0;
  let best = 0;
  let bestV = -Infinity;
  for (let j = 0; j < k; j++) {
    const e = Math.exp(z[j]! - max);
    sum += e;
    if (model.classes[j] === 'positive') pPos = e;
    else if (model.classes[j] === 'negative') pNeg = e;
    const d = z[j]! + (model.decisionBias[j] ?? 0);
    if (d > bestV) { bestV = d; best = j; }
  }
  const score = (pPos - pNeg) / sum;
  const label = Math.abs(score) < model.neutralBand ? 'neutral' : model.classes[best]!;
  return { score, label };
}

export function createSentimentModel(models: Record<SentimentLang, LinearModel>, segment?: (text: string) => string[]): SentimentModel {
  const extractor = new FeatureExtractor(segment);
  const z = new Float64Array(8);
  return {
    classify(text, lang, opts) {
      const detected = lang === 'zh' || lang === 'en' ? lang : detectLanguage(text);
      const model = detected === 'zh' ? models.zh : models.en;
      const feats = extractor.extract(text, model.lang, model.lexicon ? { ...opts, lexicon: model.lexicon } : opts);
      logits(model, feats, extractor.strong, z, extractor.vals);
      const { score, label } = decide(model, z);
      return { lang: detected, score: Math.round(score * 1e4) / 1e4, label };
    },
  };
}

/** The `models/` folder of the installed package, whether running from src/, dist/ or a build copy. */
export function defaultModelDir(from = __dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'models', 'sentiment-zh.json'))) return join(dir, 'models');
    const up = dirname(dir);
    if (up === dir) throw new Error(`no models/sentiment-zh.json above ${from}`);
    dir = up;
  }
}

export function readModelFile(path: string): LinearModel {
  return decodeModel(JSON.parse(readFileSync(path, 'utf8')) as LinearModelFile);
}

/** The word segmenter a model was trained with; a new jieba instance per call (no shared state). */
export function segmenterFor(model: LinearModel): ((text: string) => string[]) | undefined {
  if (!model.segmenter) return undefined;
  const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
  const hmm = model.segmenter === 'jieba-hmm';
  return (text) => jieba.cut(text, hmm);
}

/** Loads both committed models; each caller (stage instance, CLI run) gets its own copy. */
export function loadSentimentModel(dir = defaultModelDir()): SentimentModel {
  const zh = readModelFile(join(dir, 'sentiment-zh.json'));
  return createSentimentModel({ zh, en: readModelFile(join(dir, 'sentiment-en.json')) }, segmenterFor(zh));
}
