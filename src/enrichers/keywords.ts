import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { jiebaDicts, jiebaModule } from './jieba';
import { DEFAULT_STOP_WORDS } from './keywords/stop-words';

export const keywordsConfigSchema = z.strictObject({
  type: z.literal('keywords'),
  field: z.string().default('text'),
  target: z.string().default('keywords'),
  /** How many keywords per document, best first. */
  top_k: z.number().int().min(1).max(50).default(5),
  /** Shortest keyword in characters (a single Han character is rarely a topic). */
  min_length: z.number().int().min(1).default(2),
  /** jieba part-of-speech tags to keep: nouns, names, places, organisations, verbal nouns, English words. */
  allowed_pos: z.array(z.string()).default(['n', 'nr', 'ns', 'nt', 'nz', 'nrt', 'vn', 'eng']),
  /** Added to the built-in stop words. */
  stop_words: z.array(z.string()).default([]),
  overwrite: z.boolean().default(false),
});

export type KeywordsConfig = z.infer<typeof keywordsConfigSchema>;

// Links, mentions, emoticon codes and the '#' of topics are markup, not words of the post.
const NOISE_RE = /https?:\/\/\S+|@[\p{L}\p{N}_-]+|\[[^[\]]{1,8}\]|#/gu;

export interface KeywordExtractor {
  extract(text: string): string[];
}

/** TF-IDF over jieba's segmentation with jieba's IDF table; one segmenter per caller. */
export function createKeywordExtractor(config: Pick<KeywordsConfig, 'top_k' | 'min_length' | 'allowed_pos' | 'stop_words'>): KeywordExtractor {
  const { Jieba, TfIdf } = jiebaModule();
  const { dict, idf } = jiebaDicts();
  const jieba = Jieba.withDict(dict);
  const tfidf = TfIdf.withDict(idf);
  const stop = new Set([...DEFAULT_STOP_WORDS, ...config.stop_words]);
  return {
    extract(text) {
      const clean = text.replace(NOISE_RE, ' ');
      // Stop words are filtered here (the binding's setConfig rejects a JS Set), so ask for spares.
      const found = tfidf.extractKeywords(jieba, clean, config.top_k * 3, config.allowed_pos);
      const out: string[] = [];
      for (const k of found) {
        const word = k.keyword.trim().toLowerCase();
        if (word.length < config.min_length || stop.has(word) || /^[\d\p{P}\p{S}]+$/u.test(word) || out.includes(word)) continue;
        out.push(word);
        if (out.length === config.top_k) break;
      }
      return out;
    },
  };
}

export const keywordsStage = defineStage({
  type: 'keywords',
  kind: 'enricher',
  stateless: true,
  schema: keywordsConfigSchema,
  build: (config) => {
    const extractor = createKeywordExtractor(config);
    return map((env) => {
      const body = env.doc.body;
      if (!config.overwrite && Array.isArray(body[config.target])) return env;
      const text = body[config.field];
      if (typeof text === 'string' && text.length > 0) body[config.target] = extractor.extract(text);
      return env;
    });
  },
});
