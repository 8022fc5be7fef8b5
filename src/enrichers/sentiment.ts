import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { loadSentimentModel } from './sentiment/model';

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
});

/**
 * `sentiment {score −1..1, label}` from the learned linear models (models/sentiment-*.json):
 * hashed character n-grams, emoticon codes and emoji for zh; words, negation scopes and a VADER
 * prior for en. The model is loaded once per stage instance, not shared between pipelines.
 */
export const sentimentStage = defineStage({
  type: 'sentiment',
  kind: 'enricher',
  schema: sentimentConfigSchema,
  build: (config) => {
    const model = loadSentimentModel(config.model_dir);
    return map((env) => {
      const body = env.doc.body;
      if (!config.overwrite && body[config.target] !== undefined) return env;
      const text = body[config.field];
      if (typeof text !== 'string' || text.length === 0) return env;
      const lang = body[config.lang_field];
      const r = model.classify(text, typeof lang === 'string' ? lang : undefined);
      body[config.target] = { score: r.score, label: r.label };
      return env;
    });
  },
});
