import { gunzipSync } from 'node:zlib';
import { child, childrenNamed, elements, localName, parseFeedDate, parseXml, resolveHttp, textOf } from './xml';

/** What a sitemap says of one page (sitemaps.org 0.9, with the Google News extension). */
export interface SitemapUrl {
  url: string;
  lastmodMs?: number;
  changefreq?: string;
  priority?: number;
  /** From `<news:news>`: the article's publication time, title, language and publication name. */
  news?: { publishedMs?: number; title?: string; language?: string; publication?: string };
}

export interface SitemapRef {
  url: string;
  lastmodMs?: number;
}

export type Sitemap =
  | { kind: 'index'; sitemaps: SitemapRef[]; skipped: number }
  | { kind: 'urlset'; urls: SitemapUrl[]; skipped: number };

/** sitemaps.org: at most 50,000 URLs and 50 MB uncompressed per file. */
export const SITEMAP_MAX_ENTRIES = 50_000;
export const SITEMAP_MAX_BYTES = 52_428_800;

export class SitemapError extends Error {}

/**
 * The bytes of a sitemap as text: gunzipped when they are gzip (by their magic bytes, whatever the
 * Content-Type or name says — servers send `.xml.gz` as application/octet-stream, or gzip an
 * `.xml` twice over with Content-Encoding), refusing more than `maxBytes` once inflated.
 */
export function sitemapText(bytes: Buffer, maxBytes = SITEMAP_MAX_BYTES): string {
  let b = bytes;
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) {
    try {
      b = gunzipSync(b, { maxOutputLength: maxBytes });
    } catch (err) {
      throw new SitemapError(`sitemap does not gunzip within ${maxBytes} bytes: ${(err as Error).message}`);
    }
  }
  if (b.length > maxBytes) throw new SitemapError(`sitemap is ${b.length} bytes, over ${maxBytes}`);
  return b.toString('utf8');
}

/**
 * Parses a sitemap index, a urlset (with news, image or hreflang extensions ignored but for news)
 * or a plain-text sitemap (one URL a line). Entries whose `loc` does not resolve to http(s) are
 * skipped and counted; so are entries past `maxEntries`.
 */
export function parseSitemap(text: string, baseUrl: string, maxEntries = SITEMAP_MAX_ENTRIES): Sitemap {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) {
    const urls: SitemapUrl[] = [];
    let skipped = 0;
    for (const line of trimmed.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const url = resolveHttp(line, baseUrl);
      if (url && urls.length < maxEntries) urls.push({ url });
      else skipped += 1;
    }
    return { kind: 'urlset', urls, skipped };
  }
  const root = elements(parseXml(trimmed)).find((e) => localName(e) === 'sitemapindex' || localName(e) === 'urlset');
  if (!root) throw new SitemapError('not a sitemap: no <urlset> or <sitemapindex> element');
  let skipped = 0;
  if (localName(root) === 'sitemapindex') {
    const sitemaps: SitemapRef[] = [];
    for (const s of childrenNamed(root, 'sitemap')) {
      const url = resolveHttp(textOf(child(s, 'loc')), baseUrl);
      if (!url || sitemaps.length >= maxEntries) {
        skipped += 1;
        continue;
      }
      const lastmodMs = parseFeedDate(textOf(child(s, 'lastmod')) || undefined);
      sitemaps.push({ url, ...(lastmodMs !== undefined ? { lastmodMs } : {}) });
    }
    return { kind: 'index', sitemaps, skipped };
  }
  const urls: SitemapUrl[] = [];
  for (const u of childrenNamed(root, 'url')) {
    const url = resolveHttp(textOf(child(u, 'loc')), baseUrl);
    if (!url || urls.length >= maxEntries) {
      skipped += 1;
      continue;
    }
    const entry: SitemapUrl = { url };
    const lastmodMs = parseFeedDate(textOf(child(u, 'lastmod')) || undefined);
    if (lastmodMs !== undefined) entry.lastmodMs = lastmodMs;
    const changefreq = textOf(child(u, 'changefreq')).toLowerCase();
    if (changefreq) entry.changefreq = changefreq;
    const priority = Number.parseFloat(textOf(child(u, 'priority')));
    if (Number.isFinite(priority)) entry.priority = priority;
    const news = child(u, 'news');
    if (news) {
      const pub = child(news, 'publication');
      const publishedMs = parseFeedDate(textOf(child(news, 'publication_date')) || undefined);
      const title = textOf(child(news, 'title'));
      const language = textOf(pub ? child(pub, 'language') : undefined);
      const publication = textOf(pub ? child(pub, 'name') : undefined);
      entry.news = {
        ...(publishedMs !== undefined ? { publishedMs } : {}), ...(title ? { title } : {}),
        ...(language ? { language } : {}), ...(publication ? { publication } : {}),
      };
    }
    urls.push(entry);
  }
  return { kind: 'urlset', urls, skipped };
}

/** Where a site's sitemaps are when robots.txt names none: the well-known paths crawlers try. */
export const WELL_KNOWN_SITEMAPS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap-index.xml', '/sitemap.xml.gz'];

/**
 * The entries of a urlset changed since a time: lastmod after it, or news publication after it;
 * entries without any time are kept (the sitemap says nothing, so the page must be looked at).
 */
export function changedSince(urls: readonly SitemapUrl[], sinceMs: number | undefined): SitemapUrl[] {
  if (sinceMs === undefined) return [...urls];
  return urls.filter((u) => {
    const t = u.lastmodMs ?? u.news?.publishedMs;
    return t === undefined || t > sinceMs;
  });
}
