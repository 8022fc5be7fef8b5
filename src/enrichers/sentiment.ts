import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { defaultModelDir, loadSentimentModel, streamOptions } from './sentiment/model';
import { decideLabel, OPINION_WORDS_FILE, readOpinionWords, ZH_NO_OPINION_BELOW } from './sentiment/neutral';
import type { OpinionWords } from './sentiment/opinion-words';
import { EN_PRIOR_WINDOW_POSTS } from './sentiment/prior-shift';

export const sentimentConfigSchema = z.strictObject({
  type: z.literal('sentiment'),
  /** The text field to read, the language field (zh/en; detected when absent) and the field to write. */
  field: z.string().default('text'),
  lang_field: z.string().default('lang'),
  target: z.string().default('sentiment'),
  /** A folder holding sentiment-zh.json and sentiment-en.json; the committed models by default. */
  model_dir: z.string().optional(),
  /** Keep a sentiment the adapter already set. */
  overwrite: z.boolean().default(false),
  /**
   * Label posts with |score| below this `neutral` (|score| = 2 × confidence − 1 on the binary zh
   * model). Default 0: neither zh data set has a neutral class, so every band costs measured polar
   * accuracy; the enrichment benchmark reports the cost (rows `*-abstain-below-τ`).
   */
  neutral_band: z.number().min(0).max(1).default(0),
  /**
   * Abstain: label `neutral` when the calibrated confidence of the model's label is below this
   * (0.5..1 on zh, 1/3..1 on en; default 0, never). A post reported at 0.8 is right about 80 % of
   * the time, so this says directly which share of wrong polar calls is tolerable.
   */
  min_confidence: z.number().min(0).max(1).default(0),
  /**
   * zh: label `neutral` a polar call below this confidence (0: never; above 1: every such post)
   * that no opinion word or emoticon of its own side supports (`models/zh-opinion-words.txt`:
   * HowNet's evaluation and emotion words that the zh model, reading the word alone, also leans
   * that way on). The zh model has no neutral class, so it puts announcements and questions on a
   * side, often from the n-grams of what the post is about. On simsite's break-outs this brings
   * the worst topic sentiment mix from 0.41 to 0.10 off; its cost on the binary files (where
   * every neutral is wrong) is in the enrichment benchmark (rows `*-zh-opinion-gate-below-τ`; the
   * topics without it: `simsite-no-opinion-gate`).
   */
  zh_no_opinion_below: z.number().min(0).max(2).default(ZH_NO_OPINION_BELOW),
  /**
   * en: the class mix of the stream is estimated over this many recent English posts, and each
   * post's score and confidence adapted to it (0: off). The model is calibrated for one mix; a
   * stream that runs more negative than that (a crisis) would otherwise get confidences that are
   * too high on its positive calls and too low on its negative ones. Labels are not changed.
   */
  en_prior_window: z.number().int().min(0).default(EN_PRIOR_WINDOW_POSTS),
});

/**
 * `sentiment {score −1..1, label, confidence}` from the learned linear models (models/sentiment-*.json):
 * hashed character n-grams, emoticon codes and emoji for zh (jieba words only if the model file asks for them); for en words, in-word
 * character n-grams, bigrams, negation scopes and VADER-style valence sums (VADER + AFINN lexicon
 * with degree words, capitals, negation, "but", exclamations) whose weights are learned, three
 * classes. Scores and confidence are calibrated (fitted by cross-validation on the training files).
 * One copy per stage instance, not shared between pipelines; each language's model is read on the
 * first post of that language.
 */
export const sentimentStage = defineStage({
  type: 'sentiment',
  kind: 'enricher',
  stateless: true,
  schema: sentimentConfigSchema,
  build: (config) => {
    const dir = config.model_dir ?? defaultModelDir();
    const model = loadSentimentModel(dir, streamOptions(config.en_prior_window));
    // Read on the first zh post that needs them, like the zh model itself.
    let words: OpinionWords | undefined | null = null;
    const opinionWords = (): OpinionWords | undefined => {
      if (words === null) words = readOpinionWords(dir);
      return words;
    };
    if (config.zh_no_opinion_below > 0 && !existsSync(join(dir, OPINION_WORDS_FILE))) {
      throw new Error(`sentiment: zh_no_opinion_below needs ${join(dir, OPINION_WORDS_FILE)} (or set it to 0)`);
    }
    const rule = { neutralBand: config.neutral_band, minConfidence: config.min_confidence, zhNoOpinionBelow: config.zh_no_opinion_below };
    return map((env) => {
      const body = env.doc.body;
      if (!config.overwrite && body[config.target] !== undefined) return env;
      const text = body[config.field];
      if (typeof text !== 'string' || text.length === 0) return env;
      const lang = body[config.lang_field];
      const r = model.classify(text, typeof lang === 'string' ? lang : undefined);
      const label = decideLabel(r, text, rule, opinionWords);
      body[config.target] = { score: r.score, label, confidence: r.confidence };
      return env;
    });
  },
});
