/**
 * The hashing under the sentiment features (FNV-1a over code points, finished by murmur3's mix),
 * one seed per feature namespace: training, inference and the simhash enricher share it.
 */

/** Feature namespaces: the seed of each hash, so that e.g. a word and a character never collide on purpose. */
export const NS = {
  char1: 0x1001, char2: 0x1002, char3: 0x1003,
  zhWord: 0x1004, char4: 0x1005, zhWordBigram: 0x1006, enChar: 0x3007,
  emoticon: 0x2001, lexicon: 0x2005, zhLexicon: 0x2006, emoji: 0x2002, url: 0x2003, bias: 0x2004,
  word: 0x3001, negWord: 0x3002, bigram: 0x3003, punct: 0x3005, hashtag: 0x3006,
} as const;

const FNV_PRIME = 0x01000193;

export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

export function step(h: number, cp: number): number {
  return Math.imul(h ^ cp, FNV_PRIME);
}

export function hashString(ns: number, s: string, from = 0, to = s.length): number {
  let h = step(0x811c9dc5, ns);
  for (let i = from; i < to; i++) h = step(h, s.charCodeAt(i));
  return mix(h);
}

/** The hash of a word unigram, plain or inside a negation scope; the training prior uses it too. */
export function wordHash(word: string, negated: boolean): number {
  return hashString(negated ? NS.negWord : NS.word, word);
}

/** A zh lexicon word's hash, as FeatureExtractor computes it while scanning (UTF-16 code units). */
export function zhWordHash(word: string): number {
  return hashString(NS.zhLexicon, word);
}
