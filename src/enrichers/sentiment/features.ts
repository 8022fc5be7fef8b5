import { isNegator, scanValence, type Valence } from './english';
import { withoutTagEchoes } from './tag-echoes';
import { hashString, mix, NS, step, wordHash } from './feature-hash';
import { zhLexiconCounts, zhLexiconTable, type ZhLexiconTable } from './zh-lexicon';
import { foldCp, isHan, isSpace } from './code-points';

/**
 * Hashed features for the sentiment model, shared by training and inference so that both see
 * exactly the same buckets. Everything is hashed from code points without building substrings:
 * the extractor sits on the pipeline's hot path (tens of thousands of posts per second).
 */

export type SentimentLang = 'zh' | 'en';

/** Weibo emoticon codes such as `[哈哈]`, `[泪]`, `[doge]` (the data sets' own regex). */
export const EMOTICON_RE = /\[[^[\]]{1,8}\]/g;
const URL_RE = /https?:\/\/\S+/g;
// Word tokens, negation-scope breakers, ASCII emoticons, hearts and pictographic emoji, in one pass (any case).
// Emoticons come first: the punctuation alternative would otherwise take the `:` of `:)`.
const EN_TOKEN_RE = /[:;=x8][-'o^]?[)(\][dpo/\\|*](?![a-z0-9])|<\/?3|[a-z0-9#@][a-z0-9'’_-]*|[.,;:!?]+|\p{Extended_Pictographic}/giu;
const PUNCT_RE = /^[.,;:!?]+$/;
// A letter written three or more times in a row (`soooo`): folded to two, flagged once.
const ELONGATED_RE = /([a-z])\1\1/;
const ELONGATED_G = /([a-z])\1{2,}/g;
const CAMEL_RE = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;

/**
 * The en features are fixed (the model file records no switches, so training and inference must
 * agree by construction). Splitting camel-case hashtags (#DumpTrump) gained tune +0.6, check ±0.
 * Tried and dropped, on the dev tune slice (macro recall, 2,000 train tweets), none moving it by
 * more than the noise (±0.5): in-word char 3-grams, tweet-shape features (length, digits, mentions,
 * first person), joint pos×neg bins, AFINN scanned as a second list on its own (tune +1, check
 * −0.5), weights averaged over 5 shuffling seeds, counts of strong (|valence| ≥ 2) words, Pattern's
 * subjectivity lexicon (textblob 0.20.1; tune +1, check −0.5); dropping the n-grams altogether
 * costs little: the lexicon sums carry the model.
 */
const ELONG_HASH = hashString(NS.punct, 'elong');
const REAL_COMPOUND_HASH = hashString(NS.lexicon, 'rc');
const REAL_POS_HASH = hashString(NS.lexicon, 'rp');
const REAL_NEG_HASH = hashString(NS.lexicon, 'rn');

/** Optional zh feature families, recorded in the model file so that inference extracts what training did. */
export interface ZhFeatureSet {
  /** Character 4-grams next to the 1–3-grams. */
  char4?: boolean;
  /** Pairs of consecutive segmenter words. */
  wordBigrams?: boolean;
  /**
   * Leave out the text of Weibo topic tags (`#城南地铁三号线#`): a tag names what a post is about,
   * and its n-grams otherwise carry whatever polarity the training posts about similar names had
   * into every post of a new topic.
   */
  noTags?: boolean;
  /** With `noTags`: also leave out the tags' words repeated in the text (`withoutTagEchoes`). */
  noTagEchoes?: boolean;
}

const ZH_TAG_RE = /#[^#\n]{1,40}#/g;

/** Optional en feature families, recorded in the model file. */
export interface EnFeatureSet {
  /** Character 3- and 4-grams inside each word, with its boundaries (`^goo`, `ood$`): misspellings and inflections. */
  charNgrams?: boolean;
}

export { ZH_LEXICON_MAX_LEN } from './zh-lexicon';

export interface FeatureOptions {
  /** Remove Weibo emoticon codes first (the "text-only" run the data set README asks for). */
  stripEmoticons?: boolean;
  /**
   * en: word hash (`wordHash(w, false)`) → valence −4..4; adds binned lexicon-sum features.
   * zh: `zhWordHash(w)` → polarity ±1 (HowNet words); adds binned counts of the polar words.
   */
  lexicon?: ReadonlyMap<number, number>;
}

/**
 * Collects the hashed features of one text into a reusable buffer. One extractor per model
 * instance; not shared across concurrent callers.
 */
export class FeatureExtractor {
  private buf = new Int32Array(4096);
  /** Values of the strong features (1 unless a lexicon sum). */
  vals = new Float32Array(64);
  private toks: string[] = [];
  private caps: boolean[] = [];
  private hashes: number[] = [];
  /** The open-addressing set of dedupe(): a slot holds a feature when its stamp is the current one. */
  private seen = new Int32Array(4096);
  private seenStamp = new Uint32Array(4096);
  private stamp = 0;
  /** Scratch space and byte counts of sortRange(). */
  private scratch = new Int32Array(4096);
  private radixCounts = new Int32Array(1024);
  private valence: Valence = { pos: 0, neg: 0, hits: 0, last: 0, compound: 0 };
  /** The zh lexicon's hash table, built the first time a lexicon is scanned with (a model keeps its one lexicon). */
  private zhTable: { of: ReadonlyMap<number, number>; table: ZhLexiconTable } | undefined;
  count = 0;
  /** The first `strong` features (bias, link, emoticons) count in full; the rest share a 1/√n norm. */
  strong = 0;
  /** Weibo emoticon codes read from the last text (0 when stripped): the calibration group. */
  emoticons = 0;
  /** Where the emoticon codes' features start in the buffer (`emoticons` of them): a text-only model skips them. */
  emoticonsAt = 0;

  /** `segment`: an optional Chinese word segmenter whose words become features next to the n-grams. */
  constructor(private readonly segment?: (text: string) => string[], private readonly zh: ZhFeatureSet = {}, private readonly en: EnFeatureSet = {}) {}

  /** Hashes for `text` in `this.buf[0..count)`; returns the buffer view. */
  extract(text: string, lang: SentimentLang, opts: FeatureOptions = {}): Int32Array {
    this.count = 0;
    this.emoticons = 0;
    this.push(mix(step(0x811c9dc5, NS.bias)));
    let body = text.replace(URL_RE, ' ');
    if (body.length !== text.length) this.push(hashString(NS.url, 'u'));
    this.emoticonsAt = this.count;
    if (body.includes('[')) {
      if (!opts.stripEmoticons) {
        for (const m of body.matchAll(EMOTICON_RE)) {
          this.push(hashString(NS.emoticon, m[0]));
          this.emoticons++;
        }
      }
      body = body.replace(EMOTICON_RE, ' ');
    }
    this.strong = this.count;
    for (let i = 0; i < this.strong; i++) this.setValue(i, 1);
    if (lang === 'zh') {
      if (this.zh.noTags && body.includes('#')) body = this.zh.noTagEchoes ? withoutTagEchoes(body) : body.replace(ZH_TAG_RE, ' ');
      this.charNgrams(body);
      if (this.segment) this.zhWords(this.segment(body));
      if (opts.lexicon) this.zhLexicon(body, opts.lexicon);
    }
    else this.words(body, opts.lexicon);
    this.dedupe();
    return this.buf.subarray(0, this.count);
  }

  /**
   * Presence, not counts: `哈哈哈哈哈` says as much as `哈哈`, once. The features after the strong
   * ones end up unique and in ascending order (logits sums them in that order). Duplicates are
   * dropped first through an open-addressing set, so only the distinct features (about 60 % on
   * news text) are sorted.
   */
  private dedupe(): void {
    const n = this.count - this.strong;
    if (n === 0) return;
    let size = this.seen.length;
    while (size < n * 2) size *= 2;
    if (size !== this.seen.length) {
      this.seen = new Int32Array(size);
      this.seenStamp = new Uint32Array(size);
      this.stamp = 0;
    }
    // A new stamp empties the set without clearing it.
    if (++this.stamp === 0x100000000) {
      this.seenStamp.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const seen = this.seen;
    const seenStamp = this.seenStamp;
    const mask = size - 1;
    const buf = this.buf;
    let w = this.strong;
    for (let r = this.strong; r < this.count; r++) {
      const h = buf[r]!;
      let at = (Math.imul(h, 0x9e3779b1) >>> 0) & mask;
      for (;;) {
        if (seenStamp[at] !== stamp) {
          seenStamp[at] = stamp;
          seen[at] = h;
          buf[w++] = h;
          break;
        }
        if (seen[at] === h) break;
        at = (at + 1) & mask;
      }
    }
    this.sortRange(this.strong, w);
    this.count = w;
  }

  /**
   * Sorts `buf[from..to)` ascending as signed integers (what Int32Array#sort does), by an LSD
   * radix sort on bytes: the native sort boxes every value outside the small-integer range into
   * a heap number (half of all hashes) and costs several times as much on these sizes.
   */
  private sortRange(from: number, to: number): void {
    const n = to - from;
    if (n < 2) return;
    if (this.scratch.length < n) this.scratch = new Int32Array(Math.max(n, this.scratch.length * 2));
    const counts = this.radixCounts;
    counts.fill(0);
    const buf = this.buf;
    for (let i = from; i < to; i++) {
      // The sign bit flipped: signed order becomes unsigned order.
      const x = buf[i]! ^ 0x80000000;
      counts[x & 0xff]!++;
      counts[256 + ((x >>> 8) & 0xff)]!++;
      counts[512 + ((x >>> 16) & 0xff)]!++;
      counts[768 + (x >>> 24)]!++;
    }
    for (let d = 0; d < 1024; d += 256) {
      let sum = 0;
      for (let b = d; b < d + 256; b++) {
        const c = counts[b]!;
        counts[b] = sum;
        sum += c;
      }
    }
    // Four passes: buf → scratch → buf → scratch → buf.
    const tmp = this.scratch;
    for (let i = from; i < to; i++) { const v = buf[i]!; tmp[counts[(v ^ 0x80000000) & 0xff]!++] = v; }
    for (let i = 0; i < n; i++) { const v = tmp[i]!; buf[from + counts[256 + (((v ^ 0x80000000) >>> 8) & 0xff)]!++] = v; }
    for (let i = from; i < to; i++) { const v = buf[i]!; tmp[counts[512 + (((v ^ 0x80000000) >>> 16) & 0xff)]!++] = v; }
    for (let i = 0; i < n; i++) { const v = tmp[i]!; buf[from + counts[768 + ((v ^ 0x80000000) >>> 24)]!++] = v; }
  }

  private push(h: number): void {
    if (this.count === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.count++] = h;
  }

  /** Segmenter words of two or more characters; with `wordBigrams` also pairs of consecutive words (spaces skipped). */
  private zhWords(words: string[]): void {
    let prev = 0;
    for (const w of words) {
      if (w.length > 1) this.push(hashString(NS.zhWord, w));
      if (!this.zh.wordBigrams || w.trim() === '') continue;
      const h = hashString(NS.zhWordBigram, w);
      if (prev !== 0) this.push(mix(step(step(0x811c9dc5, prev), h)));
      prev = h;
    }
  }

  /** Character 1–3-grams (and 4-grams when enabled): the usual strong baseline for Chinese short texts, no segmenter needed. */
  private charNgrams(text: string): void {
    const four = this.zh.char4 === true;
    let p1 = -1;
    let p2 = -1;
    let p3 = -1;
    // By code point, as `for…of` iterates (a lone surrogate is a code point of its own), without a string per character.
    const n = text.length;
    for (let i = 0; i < n; i++) {
      let raw = text.charCodeAt(i);
      if (raw >= 0xd800 && raw <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          raw = ((raw - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
          i++;
        }
      }
      if (isSpace(raw)) { p1 = -1; p2 = -1; p3 = -1; continue; }
      const cp = foldCp(raw);
      this.push(mix(step(step(0x811c9dc5, NS.char1), cp)));
      if (p1 >= 0) this.push(mix(step(step(step(0x811c9dc5, NS.char2), p1), cp)));
      if (p2 >= 0) this.push(mix(step(step(step(step(0x811c9dc5, NS.char3), p2), p1), cp)));
      if (four && p3 >= 0) this.push(mix(step(step(step(step(step(0x811c9dc5, NS.char4), p3), p2), p1), cp)));
      if (raw > 0xffff && !isHan(raw)) this.push(mix(step(step(0x811c9dc5, NS.emoji), raw)));
      p3 = p2;
      p2 = p1;
      p1 = cp;
    }
  }

  /**
   * Counts of the positive and negative lexicon words (2–4 characters, every occurrence, overlaps
   * too) as strong features: opinion words then count in full, whatever the length of the post,
   * where the n-grams of topic nouns share a norm (a long hashtag cannot drown them).
   */
  private zhLexicon(text: string, lexicon: ReadonlyMap<number, number>): void {
    if (this.zhTable?.of !== lexicon) this.zhTable = { of: lexicon, table: zhLexiconTable(lexicon) };
    const { pos, neg } = zhLexiconCounts(text, this.zhTable.table);
    this.pushStrong(hashString(NS.zhLexicon, `p${Math.min(pos, 3)}`));
    this.pushStrong(hashString(NS.zhLexicon, `n${Math.min(neg, 3)}`));
    this.pushStrong(hashString(NS.zhLexicon, `d${Math.max(-3, Math.min(3, pos - neg))}`));
  }

  /** In-word character 3- and 4-grams of `^tok$` (0x5e, 0x24 as the boundaries). */
  private wordCharNgrams(tok: string): void {
    const n = tok.length + 2;
    const at = (i: number): number => (i === 0 ? 0x5e : i === n - 1 ? 0x24 : tok.charCodeAt(i - 1));
    for (let i = 0; i + 3 <= n; i++) {
      const h3 = step(step(step(step(0x811c9dc5, NS.enChar), at(i)), at(i + 1)), at(i + 2));
      this.push(mix(h3));
      if (i + 4 <= n) this.push(mix(step(h3, at(i + 3))));
    }
  }

  /** Adds a full-weight feature with value `v`, keeping the strong features a prefix of the buffer. */
  private pushStrong(h: number, v = 1): void {
    this.push(h);
    const at = this.count - 1;
    this.buf[at] = this.buf[this.strong]!;
    this.buf[this.strong] = h;
    this.setValue(this.strong++, v);
  }

  private setValue(i: number, v: number): void {
    if (i >= this.vals.length) {
      const next = new Float32Array(Math.max(this.vals.length * 2, i + 1));
      next.set(this.vals);
      this.vals = next;
    }
    this.vals[i] = v;
  }

  /**
   * Words (elongations folded: `sooooo` → `soo`), negation-scoped words (`not good` → NOT_good),
   * bigrams, hashtags without `#`, emoticons and emoji; with a lexicon, VADER-style valence sums
   * as strong features (binned, so the model can learn a non-linear response, and real-valued).
   */
  private words(text: string, lexicon?: ReadonlyMap<number, number>): void {
    const toks = this.toks;
    const caps = this.caps;
    const keys = this.hashes;
    let n = 0;
    const add = (tok: string, raw: string, key: number): void => {
      toks[n] = tok;
      caps[n] = raw.length > 1 && raw !== tok && raw === raw.toUpperCase();
      keys[n] = key;
      n++;
    };
    for (const m of text.matchAll(EN_TOKEN_RE)) {
      const raw = m[0];
      let tok = raw.toLowerCase();
      const c0 = tok.charCodeAt(0);
      if (c0 === 0x2e || c0 === 0x2c || c0 === 0x3b || c0 === 0x21 || c0 === 0x3f || (c0 === 0x3a && PUNCT_RE.test(tok))) {
        add(tok, raw, 0);
        continue;
      }
      if (c0 === 0x40) { add('@user', raw, wordHash('@user', false)); continue; }
      if (tok.includes('’')) tok = tok.replace(/’/g, "'");
      let key = wordHash(c0 === 0x23 ? tok.slice(1) : tok, false);
      if (ELONGATED_RE.test(tok)) {
        const once = tok.replace(ELONGATED_G, '$1');
        tok = tok.replace(ELONGATED_G, '$1$1');
        this.push(ELONG_HASH);
        // `goooood` is `good`, `yessss` is `yes`: the lexicon knows one of the two foldings, if any.
        key = wordHash(tok, false);
        if (lexicon && !lexicon.has(key)) key = wordHash(once, false);
      }
      add(tok, raw, key);
      if (c0 === 0x23) {
        // #DumpTrump, #ThankYouObama: the camel-case parts are words the lexicon may know.
        const parts = raw.slice(1).match(CAMEL_RE);
        if (parts && parts.length > 1) {
          for (const part of parts) { const lp = part.toLowerCase(); add(lp, part, wordHash(lp, false)); }
          // A break after the parts: the `not` of #NotMyPresident negates inside the tag, not the words after it.
          add('.', '.', 0);
        }
      }
    }
    let negated = false;
    let prev = 0;
    let hasPrev = false;
    for (let i = 0; i < n; i++) {
      const tok = toks[i]!;
      if (keys[i] === 0) {
        negated = false;
        hasPrev = false;
        if (tok.includes('!')) this.push(hashString(NS.punct, '!'));
        if (tok.includes('?')) this.push(hashString(NS.punct, '?'));
        continue;
      }
      const w = wordHash(tok, negated);
      this.push(w);
      if (this.en.charNgrams && tok.length > 2) this.wordCharNgrams(tok);
      if (tok.charCodeAt(0) === 0x23 && tok.length > 1) this.push(wordHash(tok.slice(1), negated));
      if (hasPrev) this.push(mix(step(step(step(0x811c9dc5, NS.bigram), prev), w)));
      if (isNegator(tok)) negated = true;
      prev = w;
      hasPrev = true;
    }
    if (!lexicon) return;
    const v = scanValence(toks, caps, n, (i) => (keys[i] === 0 ? undefined : lexicon.get(keys[i]!)), this.valence);
    const { pos, neg } = v;
    // Binned sums: a linear model can then learn a non-linear response to how much valence a tweet carries.
    if (pos > 0) this.pushStrong(hashString(NS.lexicon, `p${Math.min(8, Math.round(pos * 2))}`));
    if (neg > 0) this.pushStrong(hashString(NS.lexicon, `n${Math.min(8, Math.round(neg * 2))}`));
    this.pushStrong(hashString(NS.lexicon, `d${Math.max(-8, Math.min(8, Math.round(pos - neg)))}`));
    this.pushStrong(hashString(NS.lexicon, `c${Math.round(v.compound * 5)}`));
    this.pushStrong(hashString(NS.lexicon, `h${Math.min(v.hits, 4)}`));
    this.pushStrong(hashString(NS.lexicon, `l${v.last}`));
    this.pushStrong(REAL_COMPOUND_HASH, v.compound);
    this.pushStrong(REAL_POS_HASH, pos / (1 + pos));
    this.pushStrong(REAL_NEG_HASH, neg / (1 + neg));
  }
}
