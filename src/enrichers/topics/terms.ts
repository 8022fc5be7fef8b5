import { DEFAULT_STOP_WORDS } from '../keywords/stop-words';

/**
 * The terms a post can make a topic with: its hashtags (`#话题#` on Weibo, `#tag` on Twitter),
 * its words (Chinese segmented by the injected segmenter, English tokenised) and the phrases of
 * two consecutive words. Links, mentions and emoticon codes are markup, not terms. Each term once.
 */
export interface TopicTermOptions {
  /** Chinese word segmenter (jieba); without one, Chinese text yields hashtags only. */
  segment?: (text: string) => string[];
  stopWords?: ReadonlySet<string>;
}

const NOISE_RE = /https?:\/\/\S+|@[\p{L}\p{N}_-]+|\[[^[\]]{1,8}\]/gu;
const ZH_TAG_RE = /#([^#\n]{1,40})#/g;
const EN_TAG_RE = /(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]{2,40})/gu;
const EN_WORD_RE = /[a-z][a-z'’-]*[a-z]|[a-z]/g;
const HAN_RE = /\p{Script=Han}/u;
const WORDISH_RE = /^[\p{L}\p{N}]/u;
const DIGITS_RE = /^[\d\p{P}\p{S}]+$/u;

export const DEFAULT_TOPIC_STOP_WORDS: ReadonlySet<string> = new Set(DEFAULT_STOP_WORDS);

export function topicTerms(text: string, lang: string, opts: TopicTermOptions = {}): string[] {
  const stop = opts.stopWords ?? DEFAULT_TOPIC_STOP_WORDS;
  const out = new Set<string>();
  let body = text.replace(NOISE_RE, ' ');
  // Hashtags are terms of their own, and their words are not counted again.
  body = body.replace(ZH_TAG_RE, (_m, tag: string) => {
    const t = tag.trim().toLowerCase();
    if (t) out.add(`#${t}`);
    return ' ';
  });
  body = body.replace(EN_TAG_RE, (m, tag: string) => {
    out.add(`#${tag.toLowerCase()}`);
    return m.startsWith('#') ? ' ' : `${m[0]} `;
  });
  const words: string[] = [];
  const zh = lang === 'zh' || (lang !== 'en' && HAN_RE.test(body));
  if (zh && opts.segment) {
    for (const raw of opts.segment(body)) {
      const w = raw.trim().toLowerCase();
      // A break in the phrase chain at punctuation, spaces and stop words.
      if (w.length < 2 || !WORDISH_RE.test(w) || DIGITS_RE.test(w) || stop.has(w)) { words.push(''); continue; }
      words.push(w);
    }
  } else if (!zh) {
    for (const piece of body.toLowerCase().split(/[.,;:!?()"“”]+/)) {
      for (const m of piece.matchAll(EN_WORD_RE)) {
        const w = m[0].replace(/’/g, "'");
        words.push(w.length < 3 || stop.has(w) ? '' : w);
      }
      words.push('');
    }
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w) continue;
    out.add(w);
    const next = words[i + 1];
    if (next) out.add(zh ? `${w}${next}` : `${w} ${next}`);
  }
  return [...out];
}
