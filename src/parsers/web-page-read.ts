import type { Doc } from '../core/envelope';
import { isoTime } from '../core/iso-time';
import { underOrigin } from '../core/under-origin';
import { parseHtml } from '../extractors/dom';
import { HEAVY_ELEMENTS, stripHeavyMarkup } from '../extractors/heavy-markup';
import { FORUM_SCAN_CHARS } from '../extractors/page-kind';
import { applyRuleSet, selectRuleSet, type FieldValue } from '../extractors/rules/apply';
import type { RuleSet } from '../extractors/rules/schema';
import { attachParsedHtml } from '../extractors/parsed-html';
import { canonicalizer, pageCanonical, pageDocId, type Canonicalizer } from '../filters/url-canonical';
import type { FetchedText } from './adapter';
import { headLinks } from './head-links';
import type { WebPagesConfig } from './web-pages';

/** A document a stage that ran with the page read (on a page worker) dropped, and why. */
export interface DroppedDoc {
  doc: Pick<Doc, 'index' | 'id'>;
  stage: string;
  reason: string;
}

/** What one fetched page yields. */
export interface PageRead {
  /** The page's documents, in order: the page document first (when it is one), then its posts. */
  docs: Doc[];
  /** Documents dropped by the stages that ran with the read; empty when none ran. */
  drops: DroppedDoc[];
  /** Out-links the config allows (same origin or `allow_prefixes`); the adapter filters known ones. */
  links: string[];
  /** The pagination link, when the config allows it. */
  next?: string;
  /** Publication times of posts newer than `lastVisitMs`. */
  newPostTimesMs: number[];
  posts: number;
  /** The page's one URL: its rel=canonical when in scope, else its own canonical form (what its documents are keyed by). */
  canonicalUrl?: string;
  /** Feeds the page announces in its head (`<link rel=alternate>`), when the config discovers feeds. */
  feeds: string[];
}

/** Reads fetched pages: on the calling thread (`readPage`) or on page worker threads (`PagePool`). */
export interface PageReader {
  read(page: FetchedText, subject: string, lastVisitMs: number | undefined): PageRead | Promise<PageRead>;
}

/**
 * What reading a config's pages needs beyond the config, built once per config (the adapter's, or a
 * page worker's from the config it was given): its canonicaliser and the heavy elements each of its
 * rule sets reads.
 */
export interface PageReading {
  config: WebPagesConfig;
  canon: Canonicalizer;
  keptByRuleSet: ReadonlyMap<RuleSet, ReadonlySet<string>>;
}

export function pageReading(config: WebPagesConfig): PageReading {
  return { config, canon: canonicalizer(config.canonical), keptByRuleSet: new Map(config.rules.map((rs) => [rs, keptElements(rs)])) };
}

const parseUrl = (url: string): URL | undefined => {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
};

const str = (v: FieldValue | undefined): string | undefined => {
  const s = Array.isArray(v) ? v.join('\n') : v;
  return s === null || s === undefined || s.trim() === '' ? undefined : s.trim();
};

/**
 * `fromOrigin`: the linking page's origin (undefined when its URL does not parse). Links come
 * resolved and serialised, so one that starts with the origin and a `/` has that origin; only
 * the others (another host, credentials in the URL) are parsed to compare.
 */
export function linkAllowed(config: WebPagesConfig, url: string, fromOrigin: string | undefined): boolean {
  if (config.allow_prefixes.length > 0) return config.allow_prefixes.some((p) => url.startsWith(p));
  if (fromOrigin === undefined) return false;
  if (underOrigin(url, fromOrigin)) return true;
  return parseUrl(url)?.origin === fromOrigin;
}

/** The heavy elements a rule set names in its selectors (it reads them: they are not emptied). */
function keptElements(ruleSet: RuleSet): ReadonlySet<string> {
  const json = JSON.stringify(ruleSet).toLowerCase();
  return new Set(HEAVY_ELEMENTS.filter((name) => new RegExp(`\\b${name}\\b`).test(json)));
}

const NONE_KEPT: ReadonlySet<string> = new Set();

/**
 * The page's HTML as it is parsed: above `strip_heavy_markup_above_bytes`, without the contents of
 * the elements no extractor reads (a 10 MB page of framework state and icons would otherwise
 * cost a DOM many times its size on the thread that reads it).
 */
function parsedSource(reading: PageReading, text: string, ruleSet: RuleSet | undefined): string {
  const limit = reading.config.strip_heavy_markup_above_bytes;
  const keep = (ruleSet && reading.keptByRuleSet.get(ruleSet)) ?? NONE_KEPT;
  // UTF-16 length ≤ UTF-8 length ≤ 3 × it: the byte count is taken only where it can decide.
  if (limit === 0 || text.length * 3 <= limit || (text.length <= limit && Buffer.byteLength(text) <= limit)) return text;
  return stripHeavyMarkup(text, { keep, from: FORUM_SCAN_CHARS });
}

/**
 * One page of a `web_pages` visit: parsed once, read with its rule set into one `posts` document
 * per list item (and a `pages` document carrying the DOM for `text_density` when the rule set says
 * `page_document`). Pure: the same page gives the same read on any thread. `owned`: the caller
 * hands the page over (a page thread's copy of it), and its text may be let go once parsed.
 */
export function readPage(reading: PageReading, page: FetchedText, subject: string, lastVisitMs: number | undefined, owned = false): PageRead {
  const { config, canon } = reading;
  const read: PageRead = { docs: [], drops: [], links: [], newPostTimesMs: [], posts: 0, feeds: [] };
  const ruleSet = selectRuleSet(page.url, config.rules);
  const pageDocument = ruleSet ? ruleSet.page_document : config.page_documents;
  if (!ruleSet && !pageDocument) return read;
  const crawledAt = isoTime(page.fetchedAtMs);
  const pageUrl = parseUrl(page.url);
  const from = pageUrl?.origin;
  const html = parsedSource(reading, page.text, ruleSet);
  // A page thread's own copy of a big page is not kept through the parse beside what is parsed
  // of it (9.5 MB of text, 19 for a page in a non-Latin script, on a thread parsing one page).
  if (owned && html !== page.text) page.text = '';
  const root = parseHtml(html);
  const head = headLinks(root, page.url);
  // Every document of this page is keyed by its one URL (tracking, session and canonical variants
  // give the same key), and every link judged by its origin.
  const canonicalUrl = pageCanonical(canon, page.url, head.canonical, (u) => linkAllowed(config, u, from)) ?? page.url;
  read.canonicalUrl = canonicalUrl;
  if (config.discover_feeds) read.feeds = head.feeds.map((f) => f.url).filter((u) => linkAllowed(config, u, from));
  const pageKey = pageDocId(canonicalUrl);
  // A page that says it changed since the last visit: a change at a known time, evidence for its rate.
  if (pageDocument && head.modifiedMs !== undefined && head.modifiedMs > (lastVisitMs ?? -Infinity)) read.newPostTimesMs.push(head.modifiedMs);
  if (pageDocument) {
    // text_density reads this very DOM: one parse per page for rules and extraction.
    const doc = {
      index: 'pages', id: pageKey,
      body: {
        url: canonicalUrl, site: pageUrl?.host, html, content_type: 'text/html; charset=utf-8', crawled_at: crawledAt, subject,
        ...(head.modifiedMs !== undefined ? { modified_at: isoTime(head.modifiedMs) } : {}),
      },
    };
    read.docs.push(attachParsedHtml(doc, html, root));
  }
  if (!ruleSet) return read;
  const result = applyRuleSet(root, page.url, ruleSet);
  for (const [i, item] of result.items.entries()) {
    const postId = str(item['id']) ?? String(i + 1);
    const createdAt = str(item['created_at']);
    const createdMs = createdAt ? Date.parse(createdAt) : Number.NaN;
    if (Number.isFinite(createdMs) && createdMs > (lastVisitMs ?? -Infinity)) read.newPostTimesMs.push(createdMs);
    const author = str(item['author']);
    read.posts += 1;
    read.docs.push({
      index: 'posts',
      id: `web:${pageKey}:${postId}`,
      body: {
        platform: 'web', id: postId, url: canonicalUrl, subject,
        ...(author ? { author: { name: author } } : {}),
        text: str(item['text']) ?? '',
        ...(Number.isFinite(createdMs) ? { created_at: isoTime(createdMs) } : {}),
        crawled_at: crawledAt,
      },
    });
  }
  const seen = new Set<string>();
  for (const raw of result.links) {
    const link = canon.canonical(raw);
    if (link === undefined || seen.has(link)) continue;
    seen.add(link);
    if (linkAllowed(config, link, from)) read.links.push(link);
  }
  // Pagination is followed as linked: a server may need the query as written.
  if (result.next && linkAllowed(config, result.next, from)) read.next = result.next;
  return read;
}
