import { z } from 'zod';
import type { Job, SubjectState } from '../core/envelope';
import { ErrorCodes, FreshetError } from '../core/errors';
import { selectRuleSet } from '../extractors/rules/apply';
import { ruleSetsSchema } from '../extractors/rules/schema';
import { TrapGuard, trapGuardSchema, DEFAULT_TRAP_GUARD, type TrapRefusal } from '../filters/trap-guard';
import { canonicalConfigSchema, DEFAULT_CANONICAL_CONFIG } from '../filters/url-canonical';
import { conditionalHeaders, packValidators, unpackValidators, validatorsOf, type ConditionalSavings } from '../fetchers/conditional-get';
import type { Adapter, Emitted, VisitContext, VisitOutcome } from './adapter';
import { threadListSchema, visitBoard, type BoardScope } from './web-board-visit';
import { clearMissing, missingStatus, missingVisit, movedMarker } from './web-page-fate';
import { WEB_FEED_PREFIX, visitFeedOrSitemap, webFeedSubject, webRobotsSubject, type DiscoveryScope } from './web-feed-visit';
import { linkAllowed, pageReading, readPage, type PageReader, type PageReading } from './web-page-read';

export const webPagesConfigSchema = z.strictObject({
  type: z.literal('web_pages'),
  /**
   * html_rules rule sets: a list item is one post (fields `id`, `author`, `text`, `created_at`
   * are indexed), `links` are discovered as new pages and `pagination` is followed in the visit.
   */
  rules: ruleSetsSchema.default([]),
  /** Pages of one listing or thread read per visit (the first plus the pagination). */
  max_pages_per_visit: z.number().int().min(1).default(5),
  /** Discovered pages further than this from a seed are not queued. */
  max_depth: z.number().int().min(0).default(3),
  /**
   * Links discovered in recent visits are not offered again (the frontier would find them known:
   * a page links to the same navigation and related pages as its neighbours). Bounded; 0: off.
   */
  recent_links: z.number().int().min(0).default(50_000),
  /** Discovered URLs must start with one of these; empty: the origin of the page that links to them. */
  allow_prefixes: z.array(z.string().min(1)).default([]),
  /**
   * Pages that no rule set matches become `pages` documents with their HTML for the text_density
   * stage; off: they are ignored. (Matched pages are documents when their rule set says
   * `page_document: true`.)
   */
  page_documents: z.boolean().default(false),
  /**
   * Worker threads that read pages (parse, rules) and run the pipeline's leading stateless stages
   * (text_density, language, sentiment, keywords, match) on them, so the fetch and frontier work
   * on the main thread is not queued behind page CPU; 0: everything on the main thread.
   */
  worker_threads: z.number().int().min(0).max(64).default(0),
  /**
   * How many of those leading stateless stages run on the worker threads (default: all); the
   * rest run on the main thread. With few cores, keeping the light enrichers on the main thread
   * balances the two sides, and a thread that runs no segmenting stage never loads jieba.
   */
  worker_stages: z.number().int().min(0).optional(),
  /**
   * Pages larger than this have the contents of their scripts (other than ld+json), styles, SVG
   * and templates, and their comments, removed before they are parsed: the extractors never read
   * them, and on a huge page they are most of what its DOM would weigh. A rule set whose selectors
   * name one of these elements keeps it; the page document carries the HTML as parsed. 0: never.
   */
  strip_heavy_markup_above_bytes: z.number().int().min(0).max(2 ** 40).default(1024 * 1024),
  /** How URLs are made canonical (links, document ids): parameters removed, query order, rel=canonical. */
  canonical: canonicalConfigSchema.default(DEFAULT_CANONICAL_CONFIG),
  /** Limits that keep a crawl out of traps (calendars, facets, repeating paths); each refusal is counted. */
  trap_guard: trapGuardSchema.default(DEFAULT_TRAP_GUARD),
  /** Feeds a page announces (`<link rel=alternate>`) become `web:feed:` subjects. */
  discover_feeds: z.boolean().default(false),
  /**
   * Each site a crawl reaches gets a `web:robots:<origin>` subject whose visit offers the sitemaps
   * its robots.txt names (else /sitemap.xml) as `web:sitemap:` subjects.
   */
  discover_sitemaps: z.boolean().default(false),
  /**
   * Revisits send the validators of the last answer (If-None-Match, If-Modified-Since); a 304
   * ends the visit with nothing to read (a "not changed" observation). Validators are kept in the
   * subject's state.
   */
  conditional_get: z.boolean().default(true),
  /**
   * Pages that answer 404/410 twice, `deletion_grace_secs` apart, are marked deleted; pages that
   * redirect to another URL are marked moved (never on a timeout or a 5xx). The marks are partial
   * documents: the sink must keep `pages` versioned (`versioned_indices: [pages]`).
   */
  mark_gone: z.boolean().default(false),
  deletion_grace_secs: z.number().int().min(0).default(6 * 3600),
  /**
   * Forum boards monitored incrementally: a page whose rule set is named here is a thread list;
   * its visit reads only the new pages of the threads whose reply count grew, and emits only their
   * new posts (see web-board-visit.ts). Progress per thread is kept in the board's state.
   */
  thread_lists: z.array(threadListSchema).default([]),
});

export type WebPagesConfig = z.infer<typeof webPagesConfigSchema>;

/** What the adapter counts for the metrics: links the trap guards refused (by reason), revisits answered 304 (with the bytes saved). */
export interface WebPageCounters {
  refused(reason: TrapRefusal): void;
  notModified(bytesSaved: number): void;
}

const NO_COUNTERS: WebPageCounters = { refused: () => undefined, notModified: () => undefined };

export const WEB_PAGE_PREFIX = 'web:page:';

/** Sites remembered as having their robots subject offered (a forgotten one is offered again: the frontier knows it). */
const MAX_SITEMAP_ORIGINS = 100_000;

/** The subject of a page: its absolute URL after the prefix (fragments never name another page). */
export const webPageSubject = (url: string): string => `${WEB_PAGE_PREFIX}${url.replace(/#.*$/, '')}`;

/**
 * Web pages (`web:page:<url>`): fetched as HTML (rendered, when the URL matches `fetch.render`),
 * read with html_rules rule sets into one `posts` document per list item, with pagination
 * followed and out-links discovered. Document ids come from the page URL and the item's `id`
 * field (its position when it has none), so a revisit overwrites.
 */
export class WebPagesAdapter implements Adapter {
  readonly type = 'web_pages';

  /** Insertion-ordered, so the oldest link is evicted first. */
  private readonly recentLinks = new Set<string>();
  private readonly guard: TrapGuard;
  private readonly board: BoardScope;
  private readonly reader: PageReader;
  private readonly scope: DiscoveryScope;

  /**
   * `reader`: page worker threads; undefined: pages are read on the calling thread. `nowMs`: the
   * clock the calendar guard reads. `counters`: where refusals and 304s are counted (metrics).
   */
  constructor(
    private readonly config: WebPagesConfig,
    reader?: PageReader,
    nowMs: () => number = Date.now,
    private readonly counters: WebPageCounters = NO_COUNTERS,
  ) {
    this.guard = new TrapGuard(config.trap_guard, nowMs);
    const reading: PageReading = pageReading(config);
    this.reader = reader ?? { read: (page, subject, lastVisitMs) => readPage(reading, page, subject, lastVisitMs) };
    this.board = { canon: reading.canon, reader: this.reader, threadRuleSet: (url) => selectRuleSet(url, config.rules) };
    this.scope = {
      canon: reading.canon, allowed: (u, from) => linkAllowed(config, u, from), admit: (urls) => this.admit(urls), pageSubject: webPageSubject,
    };
  }

  private readonly savings: ConditionalSavings = { notModified: 0, bytesSaved: 0 };
  /** Sites whose robots subject this process offered (bounded by the number of sites crawled). */
  private readonly sitemapOrigins = new Set<string>();

  /** Revisits answered 304 so far, and the body bytes they did not fetch again. */
  conditionalSavings(): Readonly<ConditionalSavings> {
    return this.savings;
  }

  /** Links the trap guards refused so far, by reason (for the drop counters and the benchmark). */
  trapRefusals(): ReadonlyMap<TrapRefusal, number> {
    return this.guard.refusals;
  }

  /** New links that pass the trap guards; links offered recently skip the guards (they passed them once). */
  private admit(urls: string[]): string[] {
    const out: string[] = [];
    for (const u of urls) {
      const refusal = this.recentLinks.has(u) ? null : this.guard.check(u);
      if (refusal === null) out.push(u);
      else this.counters.refused(refusal);
    }
    return out;
  }

  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    if (!job.subject.startsWith(WEB_PAGE_PREFIX)) return yield* visitFeedOrSitemap(job, ctx, this.scope);
    const first = job.subject.slice(WEB_PAGE_PREFIX.length);
    try {
      new URL(first);
    } catch {
      throw new FreshetError(ErrorCodes.fetchInvalidUrl, 'non_retryable', `not a page URL: ${first}`, { subject: job.subject });
    }
    const c = this.config;
    const depth = (job.state.depth ?? 0) + 1;
    const seen = new Set<string>();
    let url: string | undefined = first;
    let requests = 0;
    let lastMs = ctx.nowMs();
    let posts = 0;
    const newPostTimesMs: number[] = [];
    let pageLimitHit = false;
    // The subject's first page is asked "only if changed"; pages followed within the visit are not.
    const meta: Record<string, string> = { ...job.state.meta };
    const validators = c.conditional_get ? unpackValidators(meta['v']) : undefined;
    let movedTo: string | undefined;
    while (url) {
      if (requests >= c.max_pages_per_visit) {
        pageLimitHit = true;
        break;
      }
      seen.add(url);
      const first = requests === 0;
      let page;
      try {
        page = await ctx.fetchText(url, 'html', first && validators ? conditionalHeaders(validators) : undefined);
      } catch (err) {
        // A 404/410 of the page itself is evidence of a deletion (when marking is on); anything else fails the visit.
        const missing = first && c.mark_gone ? missingStatus(err) : undefined;
        if (missing === undefined) throw err;
        const gone = missingVisit(job.state, missing, this.scope.canon.canonical(url) ?? url, ctx.nowMs(), c.deletion_grace_secs * 1000);
        if (gone.marker) yield { kind: 'doc', doc: gone.marker };
        return { state: gone.state, newPostTimesMs: [], pageLimitHit: false, requests: 1 };
      }
      requests += 1;
      lastMs = page.fetchedAtMs;
      if (first) clearMissing(meta);
      if (first && page.status === 304) {
        const saved = Number.parseInt(meta['b'] ?? '0', 36) || 0;
        this.savings.notModified += 1;
        this.savings.bytesSaved += saved;
        this.counters.notModified(saved);
        break;
      }
      if (first && c.conditional_get) {
        const v = validatorsOf(page.headers ?? {}, page.fetchedAtMs);
        if (v) {
          meta['v'] = packValidators(v);
          meta['b'] = (page.bodyBytes ?? page.text.length).toString(36);
        } else {
          delete meta['v'];
          delete meta['b'];
        }
      }
      const boardRules = first && c.thread_lists.length > 0 ? selectRuleSet(page.url, c.rules) : undefined;
      const threadList = boardRules ? c.thread_lists.find((t) => t.rule_set === boardRules.name) : undefined;
      if (boardRules && threadList) {
        const b = yield* visitBoard(job, ctx, this.board, threadList, boardRules, page, c.max_pages_per_visit);
        requests += b.requests;
        posts += b.posts;
        newPostTimesMs.push(...b.newPostTimesMs);
        pageLimitHit = b.pageLimitHit;
        if (b.progress === '') delete meta['th'];
        else meta['th'] = b.progress;
        break;
      }
      const reading = this.reader.read(page, job.subject, job.state.lastVisitMs);
      // The reader has the page now (a page thread its own copy): the visit keeps what it reads
      // after, so a big page's bytes and text are garbage once handed over, not held to its end.
      page = { url: page.url, status: page.status, text: '', fetchedAtMs: page.fetchedAtMs, ...(page.permanentRedirect !== undefined ? { permanentRedirect: page.permanentRedirect } : {}) };
      const read = await reading;
      if (first && c.mark_gone && page.permanentRedirect === true) {
        // Moved for good (301/308) to another page: the old URL's document is marked moved, the new URL
        // offered. A temporary redirect (a login page, a maintenance notice) is no move.
        const was = this.scope.canon.canonical(url);
        if (was !== undefined && read.canonicalUrl !== undefined && was !== read.canonicalUrl && this.scope.canon.canonical(page.url) !== was) {
          yield { kind: 'doc', doc: movedMarker(was, read.canonicalUrl, page.fetchedAtMs) };
          movedTo = read.canonicalUrl;
        }
      }
      for (const doc of read.docs) yield { kind: 'doc', doc };
      for (const d of read.drops) yield { kind: 'dropped', doc: { ...d.doc, body: {} }, stage: d.stage, reason: d.reason };
      posts += read.posts;
      newPostTimesMs.push(...read.newPostTimesMs);
      if (depth <= c.max_depth) {
        const subjects: string[] = [];
        const fresh = read.links.filter((link) => !seen.has(link) && !this.recentLinks.has(link));
        for (const link of this.admit(fresh)) subjects.push(webPageSubject(link));
        for (const feed of read.feeds) if (!this.recentLinks.has(feed)) subjects.push(webFeedSubject(feed));
        if (c.discover_sitemaps) {
          // Once per site and process; the frontier keeps the subject known after that.
          const origin = new URL(page.url).origin;
          if (!this.sitemapOrigins.has(origin)) {
            if (this.sitemapOrigins.size >= MAX_SITEMAP_ORIGINS) this.sitemapOrigins.delete(this.sitemapOrigins.values().next().value!);
            this.sitemapOrigins.add(origin);
            subjects.push(webRobotsSubject(origin));
          }
        }
        // One step for a page's links, not one per link: an article links to dozens.
        if (subjects.length > 0) yield { kind: 'discovered_all', subjects, state: { depth } };
      }
      url = read.next && !seen.has(read.next) ? read.next : undefined;
    }
    if (movedTo !== undefined && depth <= c.max_depth) yield { kind: 'discovered_all', subjects: [webPageSubject(movedTo)], state: { depth: depth - 1 } };
    const state: SubjectState = {
      ...job.state, visits: job.state.visits + 1, failures: 0, lastVisitMs: lastMs, postsSeen: job.state.postsSeen + posts, meta,
      // A moved page is visited at its new URL from now on.
      ...(movedTo !== undefined ? { status: 'gone' as const } : {}),
    };
    if (Object.keys(meta).length === 0) delete state.meta;
    return {
      state,
      newPostTimesMs,
      pageLimitHit,
      requests,
    };
  }

  /** Remembered only once the frontier holds them: a link of a visit that failed is offered again. */
  offered(subjects: string[]): void {
    const max = this.config.recent_links;
    if (max === 0) return;
    for (const subject of subjects) {
      const prefix = subject.startsWith(WEB_PAGE_PREFIX) ? WEB_PAGE_PREFIX : subject.startsWith(WEB_FEED_PREFIX) ? WEB_FEED_PREFIX : undefined;
      if (prefix === undefined) continue;
      if (this.recentLinks.size >= max) this.recentLinks.delete(this.recentLinks.values().next().value!);
      this.recentLinks.add(subject.slice(prefix.length));
    }
  }
}
