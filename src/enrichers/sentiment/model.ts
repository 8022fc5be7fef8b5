import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jiebaDicts, jiebaModule } from '../jieba';
import { applyCalibration, calibrationGroup, softmaxInto } from './calibration';
import { mapConfidence } from './top-label';
import { fuseInto, fusionGroup } from './fusion';
import { detectLanguage } from '../language';
import { FeatureExtractor, type FeatureOptions, type SentimentLang } from './features';
import { decodeModel, type LinearModel, type LinearModelFile, type SentimentLabel } from './model-file';
import { PriorShift, priorShiftOptions, type PriorShiftOptions } from './prior-shift';

export interface SentimentResult {
  lang: 'zh' | 'en' | 'other';
  /** p(positive) − p(negative), in −1..1, from the calibrated probabilities. */
  score: number;
  label: SentimentLabel;
  /**
   * The calibrated probability that the model's best class is right (0.5..1 for the binary zh
   * model, 1/3..1 for en): of posts reported at 0.8, about 80 % are (on data like the training
   * files; the en figure assumes an even class mix). A `neutral` from the band keeps the
   * confidence of the polar call it replaced.
   */
  confidence: number;
}

export interface SentimentModel {
  /** `lang` when known (zh/en); otherwise detected from the script mix. `other` is scored with the en model. */
  classify(text: string, lang?: string, opts?: FeatureOptions): SentimentResult;
}

/**
 * The class scores of one text: logits before the decision bias. Features `feats[skipFrom..skipTo)`
 * are left out (a text-only model skips the emoticon codes' features).
 */
export function logits(model: LinearModel, feats: Int32Array, strong: number, out: Float64Array, vals?: Float32Array, skipFrom = 0, skipTo = 0): void {
  const k = model.classes.length;
  const mask = (1 << model.bucketsLog2) - 1;
  const w = model.weights;
  out.fill(0, 0, k);
  const norm = Math.pow(Math.max(1, feats.length - strong), -(model.normPower ?? 0.5));
  for (let i = 0; i < feats.length; i++) {
    if (i === skipFrom && skipTo > skipFrom) { i = skipTo - 1; continue; }
    const h = feats[i]!;
    const base = ((h >>> 1) & mask) * k;
    const x = i < strong ? (vals ? vals[i]! : 1) : norm;
    // The low bit signs the feature, so colliding features cancel rather than add up.
    const v = h & 1 ? -x : x;
    for (let j = 0; j < k; j++) out[j]! += v * w[base + j]!;
  }
  const ws = model.weightScale ?? 1;
  if (ws !== 1) for (let j = 0; j < k; j++) out[j]! *= ws;
}

/**
 * The label, score and confidence of a text's logits `z` (overwritten): calibrated when the model
 * carries a calibration, then the arg-max of the logits plus the decision biases.
 */
export function decide(model: LinearModel, z: Float64Array, emoticons: number, p: Float64Array): Omit<SentimentResult, 'lang'> {
  const k = model.classes.length;
  const group = model.calibration ? calibrationGroup(model.calibration, emoticons) : undefined;
  if (group) applyCalibration(group, z, k);
  softmaxInto(z, k, p);
  let pPos = 0;
  let pNeg = 0;
  let best = 0;
  let bestV = -Infinity;
  for (let j = 0; j < k; j++) {
    if (model.classes[j] === 'positive') pPos = p[j]!;
    else if (model.classes[j] === 'negative') pNeg = p[j]!;
    const d = z[j]! + (model.decisionBias[j] ?? 0);
    if (d > bestV) { bestV = d; best = j; }
  }
  const score = pPos - pNeg;
  const label = Math.abs(score) < model.neutralBand ? 'neutral' : model.classes[best]!;
  return { score, label, confidence: group?.topLabel ? mapConfidence(group.topLabel, p[best]!) : p[best]! };
}

/** A model of one language with what it takes to read a text: its own feature extractor (and segmenter). */
interface LangModel {
  model: LinearModel;
  extractor: FeatureExtractor;
  /** The stream's class mix, when adapting to it. */
  shift?: PriorShift;
}

export interface SentimentModelOptions {
  /**
   * en: adapt the probabilities to the class mix of the posts classified so far (prior-shift.ts),
   * estimated over a window of the most recent ones; off when absent, or when the model file does
   * not say which mix its calibration was fitted for. Labels stay the model's (its decision biases
   * maximise macro recall, which no class mix changes); score and confidence follow the mix.
   */
  enPriorShift?: Omit<PriorShiftOptions, 'meanProbs'>;
}

/** The options for adapting en posts to a window of `enPriorWindowPosts` recent ones (0: off). */
export function streamOptions(enPriorWindowPosts: number): SentimentModelOptions {
  const enPriorShift = priorShiftOptions(enPriorWindowPosts);
  return enPriorShift ? { enPriorShift } : {};
}

/**
 * In place on `p` (the calibrated probabilities under the calibration's mix): adds the post to the
 * stream's window and adapts `p` to the stream's estimated mix. The label's confidence (after the
 * top-label map, fitted at the calibration's mix) moves by the factor its probability moved.
 */
function adaptToStream(model: LinearModel, shift: PriorShift, p: Float64Array, label: SentimentLabel, confidence: number): { score: number; confidence: number } {
  shift.observe(p);
  const at = model.classes.indexOf(label);
  const before = p[at]!;
  shift.adapt(p);
  let score = 0;
  for (let j = 0; j < model.classes.length; j++) {
    if (model.classes[j] === 'positive') score += p[j]!;
    else if (model.classes[j] === 'negative') score -= p[j]!;
  }
  return { score, confidence: before > 0 ? Math.min(1, (confidence * p[at]!) / before) : confidence };
}

/**
 * `models` are the two models or their loaders: a loader runs on the first text of its language,
 * so a pipeline that only ever sees English never holds the zh model and jieba's dictionary
 * (~45 MiB resident), and one that only sees Chinese never holds the en model.
 */
export function createSentimentModel(
  models: Record<SentimentLang, LinearModel | (() => LinearModel)>, segment?: (text: string) => string[],
  /** The zh segmenter made when the zh model loads (the one it was trained with), when `segment` is not given. */
  segmenterOf?: (zh: LinearModel) => ((text: string) => string[]) | undefined,
  options: SentimentModelOptions = {},
): SentimentModel {
  const loaded: Partial<Record<SentimentLang, LangModel>> = {};
  const get = (lang: SentimentLang): LangModel => {
    let m = loaded[lang];
    if (!m) {
      const src = models[lang];
      const model = typeof src === 'function' ? src() : src;
      const fn = lang === 'zh' ? segment ?? segmenterOf?.(model) : undefined;
      m = { model, extractor: new FeatureExtractor(fn, model.zhFeatures, model.enFeatures) };
      const mix = model.calibration?.mix;
      if (lang === 'en' && options.enPriorShift && mix && !model.fusion) {
        const meanProbs = model.calibration?.meanProbs;
        m.shift = new PriorShift(mix, { ...options.enPriorShift, ...(meanProbs ? { meanProbs } : {}) });
      }
      loaded[lang] = m;
    }
    return m;
  };
  const z = new Float64Array(8);
  const p = new Float64Array(8);
  const zt = new Float64Array(8);
  return {
    classify(text, lang, opts) {
      const detected = lang === 'zh' || lang === 'en' ? lang : detectLanguage(text);
      const { model, extractor, shift } = get(detected === 'zh' ? 'zh' : 'en');
      const feats = extractor.extract(text, model.lang, model.lexicon ? { ...opts, lexicon: model.lexicon } : opts);
      const blend = model.textModel && model.fusion ? fusionGroup(model.fusion, extractor.emoticons) : undefined;
      // A blend that reads one model's margin only (a weight of 0) skips the other model's scores.
      if (blend?.main !== 0) logits(model, feats, extractor.strong, z, extractor.vals);
      else z.fill(0);
      if (blend) {
        if (blend.text !== 0) logits(model.textModel!, feats, extractor.strong, zt, extractor.vals, extractor.emoticonsAt, extractor.emoticonsAt + extractor.emoticons);
        else zt.fill(0);
        fuseInto(blend, z, zt);
      }
      const d = decide(model, z, extractor.emoticons, p);
      const { label } = d;
      const { score, confidence } = shift ? adaptToStream(model, shift, p, label, d.confidence) : d;
      return { lang: detected, score: Math.round(score * 1e4) / 1e4, label, confidence: Math.round(confidence * 1e4) / 1e4 };
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

/**
 * The committed models; each caller (stage instance, CLI run) gets its own copy. Each language's
 * model (and for zh jieba) is read on the first text of that language; the files are checked now,
 * so a missing model fails at start-up, not on the first post.
 */
export function loadSentimentModel(dir = defaultModelDir(), options: SentimentModelOptions = {}): SentimentModel {
  const paths = { zh: join(dir, 'sentiment-zh.json'), en: join(dir, 'sentiment-en.json') };
  for (const path of Object.values(paths)) if (!existsSync(path)) throw new Error(`sentiment model ${path} not found`);
  return createSentimentModel({ zh: () => readModelFile(paths.zh), en: () => readModelFile(paths.en) }, undefined, segmenterFor, options);
}
