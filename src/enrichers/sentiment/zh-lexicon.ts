import { mix, NS, step } from './feature-hash';

/** The longest zh lexicon word scanned for (longer HowNet entries are phrases, rarely written as such). */
export const ZH_LEXICON_MAX_LEN = 4;

/**
 * Occurrences of the positive and negative lexicon words in `text` (2–4 characters, every
 * occurrence, overlaps too), by the rolling hash `zhWordHash` gives each word: three lookups per
 * position, no substrings.
 */
export function zhLexiconCounts(text: string, lexicon: ReadonlyMap<number, number>): { pos: number; neg: number } {
  let pos = 0;
  let neg = 0;
  const n = text.length;
  for (let i = 0; i + 1 < n; i++) {
    let h = step(step(0x811c9dc5, NS.zhLexicon), text.charCodeAt(i));
    for (let len = 2; len <= ZH_LEXICON_MAX_LEN && i + len <= n; len++) {
      h = step(h, text.charCodeAt(i + len - 1));
      const p = lexicon.get(mix(h));
      if (p === undefined) continue;
      if (p > 0) pos++;
      else if (p < 0) neg++;
    }
  }
  return { pos, neg };
}
