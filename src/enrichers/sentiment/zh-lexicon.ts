import { mix, NS, step } from './feature-hash';

/** The longest zh lexicon word scanned for (longer HowNet entries are phrases, rarely written as such). */
export const ZH_LEXICON_MAX_LEN = 4;

/**
 * A lexicon's word hashes in an open-addressing table of typed arrays: the scan looks up three
 * hashes per character of a post (a zh article is thousands), and a `Map` keyed by int32 hashes
 * boxes most of them (only 31-bit integers are small enough not to be).
 */
export interface ZhLexiconTable {
  keys: Int32Array;
  /** 0: empty slot; 1: positive word; 2: negative word; 3: a word of polarity 0 (counted as neither). */
  signs: Uint8Array;
  mask: number;
}

/** Built once per lexicon (a model's, read once with it and never changed after) by whoever scans with it. */
export function zhLexiconTable(lexicon: ReadonlyMap<number, number>): ZhLexiconTable {
  let size = 16;
  while (size < lexicon.size * 2) size *= 2;
  const t: ZhLexiconTable = { keys: new Int32Array(size), signs: new Uint8Array(size), mask: size - 1 };
  for (const [h, p] of lexicon) {
    let i = h & t.mask;
    while (t.signs[i] !== 0 && t.keys[i] !== h) i = (i + 1) & t.mask;
    t.keys[i] = h;
    t.signs[i] = p > 0 ? 1 : p < 0 ? 2 : 3;
  }
  return t;
}

/**
 * Occurrences of the positive and negative lexicon words in `text` (2–4 characters, every
 * occurrence, overlaps too), by the rolling hash `zhWordHash` gives each word: three lookups per
 * position, no substrings.
 */
export function zhLexiconCounts(text: string, table: ZhLexiconTable): { pos: number; neg: number } {
  const { keys, signs, mask } = table;
  let pos = 0;
  let neg = 0;
  const n = text.length;
  const seed = step(0x811c9dc5, NS.zhLexicon);
  for (let i = 0; i + 1 < n; i++) {
    let h = step(seed, text.charCodeAt(i));
    for (let len = 2; len <= ZH_LEXICON_MAX_LEN && i + len <= n; len++) {
      h = step(h, text.charCodeAt(i + len - 1));
      const key = mix(h);
      let slot = key & mask;
      while (signs[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
      const sign = signs[slot];
      if (sign === 1) pos++;
      else if (sign === 2) neg++;
    }
  }
  return { pos, neg };
}
