import type { Rng } from '../../core/rng';
import { chance, pick } from '../random';
import {
  EMOTICONS, EN_FILLERS, EN_FOODS, EN_PLACES, EN_TEMPLATES, EN_THINGS, EN_TIMES, EN_TOPICS,
  ZH_FILLERS, ZH_FOODS, ZH_PLACES, ZH_TEMPLATES, ZH_THINGS, ZH_TIMES, ZH_TOPICS,
  type Lang, type Sentiment,
} from './lexicon';

export type Token =
  | { kind: 'text'; text: string }
  | { kind: 'topic'; name: string }
  | { kind: 'mention'; name: string }
  | { kind: 'emoticon'; code: string; file: string }
  | { kind: 'br' }
  /** A t.cn short link shown as 网页链接 (spec §1.4 link markup). */
  | { kind: 'link'; code: string }
  /** A check-in place: the location url-icon followed by the place name. */
  | { kind: 'place'; name: string; code: string };

export interface ComposedText {
  lang: Lang;
  sentiment: Sentiment;
  tokens: Token[];
}

export interface ComposeOptions {
  lang: Lang;
  /** Share of positive / negative posts for this author; the rest are neutral. */
  positiveShare: number;
  negativeShare: number;
  /** Long posts get filler paragraphs, so the site truncates them and serves the rest on the long-text endpoint. */
  long: boolean;
  mentionCandidates: readonly string[];
  /** Names for {name} slots (public figures, other users). */
  names: readonly string[];
}

export function fillSlots(rng: Rng, template: string, lang: Lang, names: readonly string[]): string {
  const zh = lang === 'zh';
  return template.replace(/\{(topic|thing|place|time|food|name)\}/g, (_m, slot: string) => {
    switch (slot) {
      case 'thing': return pick(rng, zh ? ZH_THINGS : EN_THINGS);
      case 'place': return pick(rng, zh ? ZH_PLACES : EN_PLACES);
      case 'time': return pick(rng, zh ? ZH_TIMES : EN_TIMES);
      case 'food': return pick(rng, zh ? ZH_FOODS : EN_FOODS);
      case 'name': return names.length > 0 ? pick(rng, names) : (zh ? '他' : 'them');
      default: return pick(rng, zh ? ZH_TOPICS : EN_TOPICS);
    }
  });
}

function shortCode(rng: Rng): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let c = '';
  for (let i = 0; i < 7; i++) c += alphabet[Math.floor(rng.next() * alphabet.length)];
  return c;
}

export function chooseSentiment(rng: Rng, positiveShare: number, negativeShare: number): Sentiment {
  const r = rng.next();
  return r < positiveShare ? 'positive' : r < positiveShare + negativeShare ? 'negative' : 'neutral';
}

/** A microblog post: a sentiment-bearing sentence with optional topic, mentions, emoticons and filler. */
export function composePost(rng: Rng, opts: ComposeOptions): ComposedText {
  const sentiment = chooseSentiment(rng, opts.positiveShare, opts.negativeShare);
  const zh = opts.lang === 'zh';
  const tokens: Token[] = [];
  if (chance(rng, 0.35)) {
    tokens.push({ kind: 'topic', name: pick(rng, zh ? ZH_TOPICS : EN_TOPICS) });
    if (!zh) tokens.push({ kind: 'text', text: ' ' });
  }
  tokens.push({ kind: 'text', text: fillSlots(rng, pick(rng, (zh ? ZH_TEMPLATES : EN_TEMPLATES)[sentiment]), opts.lang, opts.names) });
  // Emoticons follow the sentiment of the sentence (or are neutral), so they never contradict the label.
  if (chance(rng, 0.55)) {
    const pool = chance(rng, 0.8) ? EMOTICONS[sentiment] : EMOTICONS.neutral;
    const n = chance(rng, 0.3) ? 2 : 1;
    for (let i = 0; i < n; i++) tokens.push({ kind: 'emoticon', ...pick(rng, pool) });
  }
  if (opts.long) {
    const fillers = zh ? ZH_FILLERS : EN_FILLERS;
    for (let i = 0; i < 3; i++) {
      tokens.push({ kind: 'br' });
      tokens.push({ kind: 'text', text: pick(rng, fillers) });
    }
  }
  // Emoji above the BMP appear raw in real texts (surrogate pairs in JSON strings).
  if (chance(rng, 0.1)) tokens.push({ kind: 'text', text: pick(rng, ['😂', '👍', '🎉', '😭', '🤔']) });
  if (chance(rng, 0.08)) tokens.push({ kind: 'link', code: shortCode(rng) });
  if (zh && chance(rng, 0.06)) tokens.push({ kind: 'place', name: `${pick(rng, ZH_PLACES)}·${pick(rng, ['三里屯', '西湖', '春熙路', '外滩', '大雁塔'])}`, code: shortCode(rng) });
  if (opts.mentionCandidates.length > 0 && chance(rng, 0.25)) {
    tokens.push({ kind: 'text', text: ' ' });
    tokens.push({ kind: 'mention', name: pick(rng, opts.mentionCandidates) });
    tokens.push({ kind: 'text', text: ' ' });
  }
  return { lang: opts.lang, sentiment, tokens };
}

/** A short comment with its own sentiment. */
export function composeComment(rng: Rng, lang: Lang): ComposedText {
  const zh = lang === 'zh';
  const sentiment = chooseSentiment(rng, 0.45, 0.25);
  const lines: Record<Sentiment, readonly string[]> = zh
    ? { positive: ['说得好', '太棒了', '支持！', '羡慕了', '好可爱'], negative: ['太离谱了', '无语', '真的很失望', '气死我了'], neutral: ['路过', 'mark一下', '在哪里买的？', '第一次知道'] }
    : { positive: ['Love this', 'So good!', 'Well said'], negative: ['That is awful', 'So annoying'], neutral: ['Where is this?', 'Noted', 'Interesting'] };
  const tokens: Token[] = [{ kind: 'text', text: pick(rng, lines[sentiment]) }];
  if (chance(rng, 0.5)) tokens.push({ kind: 'emoticon', ...pick(rng, EMOTICONS[sentiment]) });
  return { lang, sentiment, tokens };
}

/** Plain text as a reader sees it: emoticons as their alt codes, topics as #x#, mentions as @x. */
export function tokensToPlain(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) {
    if (t.kind === 'text') s += t.text;
    else if (t.kind === 'topic') s += `#${t.name}#`;
    else if (t.kind === 'mention') s += `@${t.name}`;
    else if (t.kind === 'emoticon') s += t.code;
    else if (t.kind === 'link') s += '网页链接';
    else if (t.kind === 'place') s += t.name;
    else s += '\n';
  }
  return s;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function tokenHtml(t: Token): string {
  switch (t.kind) {
    case 'text': return escapeHtml(t.text);
    case 'br': return '<br />';
    case 'link':
      return `<a href='http://t.cn/${t.code}' data-hide=''><span class='url-icon'><img style='width: 1rem;height: 1rem' src='//h5.sinaimg.cn/upload/2015/09/25/3/timeline_card_small_web_default.png'></span><span class='surl-text'>网页链接</span></a>`;
    case 'place':
      return `<a data-url="http://t.cn/${t.code}" href="https://m.weibo.cn/p/index?containerid=2306570042${t.code}&luicode=10000011" data-hide=""><span class='url-icon'><img style='width: 1rem;height: 1rem' src='//h5.sinaimg.cn/upload/2015/09/25/3/timeline_card_small_location_default.png'></span><span class="surl-text">${escapeHtml(t.name)}</span></a>`;
    case 'mention': return `<a href='/n/${escapeHtml(t.name)}'>@${escapeHtml(t.name)}</a>`;
    case 'emoticon':
      return `<span class="url-icon"><img alt="${t.code}" src="//h5.sinaimg.cn/m/emoticon/icon/default/${t.file}.png" style="width:1em; height:1em;" /></span>`;
    case 'topic': {
      const q = encodeURIComponent(`#${t.name}#`);
      return `<a  href="https://m.weibo.cn/search?containerid=231522type%3D1%26t%3D10%26q%3D${q}&extparam=${q}&luicode=10000011" data-hide=""><span class="surl-text">#${escapeHtml(t.name)}#</span></a>`;
    }
  }
}

/** Microblog text markup (spec §1.4): `<br />`, topic links with span.surl-text, /n/ mentions, url-icon emoticons. */
export function tokensToHtml(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) s += tokenHtml(t);
  return s;
}

/** Plain length in characters of the tokens (the site's textLength). */
export function plainLength(tokens: readonly Token[]): number {
  return tokensToPlain(tokens).length;
}

/**
 * The truncated form of a long post: whole tokens up to about `maxChars` plain characters, then
 * `...<a href="/status/{id}">全文</a>` as the site does (never cutting inside markup).
 */
export function truncatedHtml(tokens: readonly Token[], maxChars: number, mid: string): string {
  let s = '';
  let used = 0;
  for (const t of tokens) {
    const plain = tokensToPlain([t]);
    if (t.kind === 'text' && used + plain.length > maxChars) {
      s += escapeHtml(plain.slice(0, Math.max(0, maxChars - used)));
      break;
    }
    if (used + plain.length > maxChars) break;
    s += tokenHtml(t);
    used += plain.length;
  }
  return `${s} ...<a href="/status/${mid}">全文</a>`;
}
