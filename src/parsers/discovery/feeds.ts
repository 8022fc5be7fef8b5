import { DomUtils, parseDocument } from 'htmlparser2';
import { child, childrenNamed, elements, find, localName, parseFeedDate, parseXml, prefixOf, resolveHttp, textOf, type XmlNode } from './xml';

/** One entry of a feed, whatever the format. */
export interface FeedItem {
  /** guid / id / JSON Feed id: stable across edits and moves when the publisher keeps it so. */
  id?: string;
  url?: string;
  title?: string;
  publishedMs?: number;
  updatedMs?: number;
  author?: string;
  summary?: string;
}

export interface Feed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title?: string;
  /** The site the feed is about (RSS `link`, Atom `link rel=alternate`, JSON Feed `home_page_url`). */
  homeUrl?: string;
  /** Where the feed says it lives (atom:link rel=self, JSON Feed `feed_url`). */
  selfUrl?: string;
  updatedMs?: number;
  /** RSS `ttl`: minutes the publisher suggests between polls. */
  ttlMinutes?: number;
  items: FeedItem[];
}

export class FeedError extends Error {}

export interface FeedParseOptions {
  /** Offset of dates written without a zone; default: +8 h when the feed's language is Chinese, else UTC. */
  assumeOffsetMinutes?: number;
  maxItems?: number;
}

/** Text of an HTML fragment (descriptions and html-typed titles are HTML, also inside CDATA): tags out, entities decoded. */
const stripTags = (s: string): string => (/[<&]/.test(s) ? DomUtils.textContent(parseDocument(s.replace(/<(br|p|div|li)\b/gi, ' <$1'))) : s).replace(/\s+/g, ' ').trim();
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

/** Parses RSS 2.0 (and 0.9x), RSS 1.0 (RDF), Atom 1.0 or JSON Feed 1.x; relative links resolve against `feedUrl`. */
export function parseFeed(text: string, feedUrl: string, opts: FeedParseOptions = {}): Feed {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (t.startsWith('{')) return parseJsonFeed(t, feedUrl, opts);
  const root = elements(parseXml(t))[0];
  if (!root) throw new FeedError('not a feed: no root element');
  const name = localName(root);
  if (name === 'rss') return parseRss(root, feedUrl, opts);
  if (name === 'feed') return parseAtom(root, feedUrl, opts);
  if (name === 'rdf') return parseRdf(root, feedUrl, opts);
  throw new FeedError(`not a feed: root element <${root.name ?? ''}>`);
}

const chineseOffset = (lang: string): number => (/^zh/i.test(lang) ? 480 : 0);

function rssLink(n: XmlNode, base: string): string | undefined {
  // The unprefixed <link>; atom:link (also local name "link") is the feed's self reference.
  const link = childrenNamed(n, 'link').find((l) => prefixOf(l) === '');
  return resolveHttp(textOf(link) || undefined, base);
}

function parseRss(root: XmlNode, base: string, opts: FeedParseOptions): Feed {
  const channel = child(root, 'channel');
  if (!channel) throw new FeedError('RSS without <channel>');
  const offset = opts.assumeOffsetMinutes ?? chineseOffset(textOf(child(channel, 'language')));
  const self = childrenNamed(channel, 'link').find((l) => prefixOf(l) !== '' && (l.attribs?.['rel'] ?? '') === 'self');
  const items = childrenNamed(channel, 'item').slice(0, opts.maxItems ?? Infinity).map((it) => rssItem(it, base, offset));
  const ttl = Number.parseInt(textOf(child(channel, 'ttl')), 10);
  return defined({
    format: 'rss' as const,
    title: textOf(child(channel, 'title')),
    homeUrl: rssLink(channel, base),
    selfUrl: resolveHttp(self?.attribs?.['href'], base),
    updatedMs: parseFeedDate(textOf(child(channel, 'lastbuilddate')) || textOf(child(channel, 'pubdate')) || undefined, offset),
    ttlMinutes: Number.isFinite(ttl) && ttl > 0 ? ttl : undefined,
    items,
  });
}

function rssItem(it: XmlNode, base: string, offset: number): FeedItem {
  const guidNode = child(it, 'guid');
  const guid = textOf(guidNode);
  const permalink = guidNode && (guidNode.attribs?.['isPermaLink'] ?? guidNode.attribs?.['ispermalink'] ?? 'true').toLowerCase() !== 'false';
  const url = rssLink(it, base) ?? (permalink ? resolveHttp(guid, base) : undefined);
  // dc:date and atom:updated are common beside (or instead of) pubDate.
  const dates = elements(it);
  const dcDate = dates.find((e) => localName(e) === 'date');
  const updated = dates.find((e) => localName(e) === 'updated' || localName(e) === 'modified');
  const creator = dates.find((e) => localName(e) === 'creator') ?? child(it, 'author');
  return defined({
    id: guid || undefined,
    url,
    title: stripTags(textOf(child(it, 'title'))),
    publishedMs: parseFeedDate(textOf(child(it, 'pubdate')) || textOf(dcDate) || undefined, offset),
    updatedMs: parseFeedDate(textOf(updated) || undefined, offset),
    author: textOf(creator),
    summary: stripTags(textOf(child(it, 'description'))).slice(0, 500),
  });
}

function atomLink(n: XmlNode, base: string, rel: string): string | undefined {
  const link = childrenNamed(n, 'link').find((l) => (l.attribs?.['rel'] ?? 'alternate') === rel && (rel !== 'alternate' || !/xml|json/.test(l.attribs?.['type'] ?? '')));
  return resolveHttp(link?.attribs?.['href'], n.attribs?.['xml:base'] ? new URL(n.attribs['xml:base'], base).toString() : base);
}

function parseAtom(root: XmlNode, base: string, opts: FeedParseOptions): Feed {
  const offset = opts.assumeOffsetMinutes ?? chineseOffset(root.attribs?.['xml:lang'] ?? '');
  const feedBase = root.attribs?.['xml:base'] ? new URL(root.attribs['xml:base'], base).toString() : base;
  const items = childrenNamed(root, 'entry').slice(0, opts.maxItems ?? Infinity).map((e): FeedItem => {
    const author = child(e, 'author');
    return defined({
      id: textOf(child(e, 'id')) || undefined,
      url: atomLink(e, feedBase, 'alternate'),
      title: stripTags(textOf(child(e, 'title'))),
      publishedMs: parseFeedDate(textOf(child(e, 'published')) || textOf(child(e, 'issued')) || undefined, offset),
      updatedMs: parseFeedDate(textOf(child(e, 'updated')) || textOf(child(e, 'modified')) || undefined, offset),
      author: textOf(author ? child(author, 'name') : undefined),
      summary: stripTags(textOf(child(e, 'summary')) || textOf(child(e, 'content'))).slice(0, 500),
    });
  });
  return defined({
    format: 'atom' as const,
    title: stripTags(textOf(child(root, 'title'))),
    homeUrl: atomLink(root, feedBase, 'alternate'),
    selfUrl: atomLink(root, feedBase, 'self'),
    updatedMs: parseFeedDate(textOf(child(root, 'updated')) || undefined, offset),
    items,
  });
}

function parseRdf(root: XmlNode, base: string, opts: FeedParseOptions): Feed {
  const channel = child(root, 'channel');
  const offset = opts.assumeOffsetMinutes ?? chineseOffset(textOf(channel ? find(channel, 'language') : undefined));
  const items = childrenNamed(root, 'item').slice(0, opts.maxItems ?? Infinity).map((it) => ({
    ...rssItem(it, base, offset),
    ...(it.attribs?.['rdf:about'] ? { id: it.attribs['rdf:about'] } : {}),
  }));
  return defined({ format: 'rdf' as const, title: textOf(channel ? child(channel, 'title') : undefined), homeUrl: channel ? rssLink(channel, base) : undefined, items });
}

interface JsonFeedItem {
  id?: unknown; url?: unknown; external_url?: unknown; title?: unknown; summary?: unknown; content_text?: unknown; content_html?: unknown;
  date_published?: unknown; date_modified?: unknown; author?: { name?: unknown }; authors?: { name?: unknown }[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined);

function parseJsonFeed(text: string, base: string, opts: FeedParseOptions): Feed {
  let doc: { version?: unknown; title?: unknown; home_page_url?: unknown; feed_url?: unknown; language?: unknown; items?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch (err) {
    throw new FeedError(`JSON Feed does not parse: ${(err as Error).message}`);
  }
  if (typeof doc.version !== 'string' || !doc.version.startsWith('https://jsonfeed.org/version/') || !Array.isArray(doc.items)) {
    throw new FeedError('not a JSON Feed: no jsonfeed.org version or no items');
  }
  const offset = opts.assumeOffsetMinutes ?? chineseOffset(str(doc.language) ?? '');
  const items = (doc.items as JsonFeedItem[]).slice(0, opts.maxItems ?? Infinity).map((it): FeedItem => defined({
    id: str(it.id),
    url: resolveHttp(str(it.url) ?? str(it.external_url), base),
    title: str(it.title),
    publishedMs: parseFeedDate(str(it.date_published), offset),
    updatedMs: parseFeedDate(str(it.date_modified), offset),
    author: str(it.authors?.[0]?.name) ?? str(it.author?.name),
    summary: (str(it.summary) ?? str(it.content_text) ?? stripTags(str(it.content_html) ?? ''))?.slice(0, 500),
  }));
  return defined({ format: 'json' as const, title: str(doc.title), homeUrl: resolveHttp(str(doc.home_page_url), base), selfUrl: resolveHttp(str(doc.feed_url), base), items });
}

/** Times an item gives: publication, else its update (feeds that carry only dc:date or updated). */
export const itemTimeMs = (i: FeedItem): number | undefined => i.publishedMs ?? i.updatedMs;
