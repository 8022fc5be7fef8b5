import type { Job } from '../core/envelope';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Canonicalizer } from '../filters/url-canonical';
import type { Emitted, VisitContext, VisitOutcome } from './adapter';
import { FeedError, itemTimeMs, parseFeed } from './discovery/feeds';
import { parseRobots } from '../fetchers/robots-parser';
import { absoluteSitemaps } from '../fetchers/robots-cache';
import { changedSince, parseSitemap, SitemapError, sitemapText, WELL_KNOWN_SITEMAPS } from './discovery/sitemap';

export const WEB_FEED_PREFIX = 'web:feed:';
export const WEB_SITEMAP_PREFIX = 'web:sitemap:';
/** A site's robots.txt read for its `Sitemap:` lines (`web:robots:<origin>`). */
export const WEB_ROBOTS_PREFIX = 'web:robots:';

export const webFeedSubject = (url: string): string => `${WEB_FEED_PREFIX}${url.replace(/#.*$/, '')}`;
export const webSitemapSubject = (url: string): string => `${WEB_SITEMAP_PREFIX}${url.replace(/#.*$/, '')}`;
export const webRobotsSubject = (origin: string): string => `${WEB_ROBOTS_PREFIX}${origin}`;

/** What a feed or sitemap visit needs of the web_pages adapter: how links become subjects it admits. */
export interface DiscoveryScope {
  canon: Canonicalizer;
  /** Same origin or allow_prefixes, as for page links. */
  allowed(url: string, fromOrigin: string | undefined): boolean;
  /** Trap guards and known-link filtering; returns the URLs to offer. */
  admit(urls: string[]): string[];
  pageSubject(url: string): string;
}

/**
 * A feed (`web:feed:<url>`) or a sitemap (`web:sitemap:<url>`) as a subject of its own: its items
 * are discovered as pages, and the publication times of items newer than the last visit are its
 * "posts", so the scheduler learns the feed's rate and polls it as often as it publishes.
 * A sitemap index discovers its child sitemaps (those changed since the last visit).
 */
export async function* visitFeedOrSitemap(job: Job, ctx: VisitContext, scope: DiscoveryScope): AsyncGenerator<Emitted, VisitOutcome, void> {
  if (job.subject.startsWith(WEB_ROBOTS_PREFIX)) return yield* visitRobots(job, ctx);
  const isFeed = job.subject.startsWith(WEB_FEED_PREFIX);
  const url = job.subject.slice((isFeed ? WEB_FEED_PREFIX : WEB_SITEMAP_PREFIX).length);
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new FreshetError(ErrorCodes.fetchInvalidUrl, 'non_retryable', `not a ${isFeed ? 'feed' : 'sitemap'} URL: ${url}`, { subject: job.subject });
  }
  const page = await ctx.fetchText(url, 'html');
  const since = job.state.lastVisitMs;
  const newTimes: number[] = [];
  // Every item of a full feed is new: more may have been published than the feed holds.
  let overflow = false;
  const pages: string[] = [];
  // Pages the feed or sitemap says changed since the last visit: known ones are revisited now.
  const changed: string[] = [];
  const changedSitemaps: string[] = [];
  const sitemaps: string[] = [];
  const fromOrigin = (() => {
    try {
      return new URL(page.url).origin;
    } catch {
      return origin;
    }
  })();
  const take = (raw: string | undefined, into: string[]): void => {
    const c = raw === undefined ? undefined : scope.canon.canonical(raw);
    if (c !== undefined && scope.allowed(c, fromOrigin)) into.push(c);
  };
  try {
    if (isFeed) {
      const feed = parseFeed(page.text, page.url);
      overflow = since !== undefined && feed.items.length > 0 && feed.items.every((i) => (itemTimeMs(i) ?? -Infinity) > since);
      for (const item of feed.items) {
        const t = itemTimeMs(item);
        if (t !== undefined && (since === undefined || t > since)) newTimes.push(t);
        take(item.url, pages);
        // Published before the last visit, updated after it: an edit.
        if (since !== undefined && item.updatedMs !== undefined && item.updatedMs > since && (item.publishedMs ?? -Infinity) <= since) take(item.url, changed);
      }
    } else {
      // Gzipped sitemaps are told by their bytes; the text decoding would have spoilt them.
      const sm = parseSitemap(page.body ? sitemapText(Buffer.from(page.body.buffer, page.body.byteOffset, page.body.length)) : page.text, page.url);
      if (sm.kind === 'index') {
        for (const s of sm.sitemaps) {
          if (since !== undefined && s.lastmodMs !== undefined && s.lastmodMs <= since) continue;
          take(s.url, sitemaps);
          // A child changed since the last visit: evidence for the index's rate, and known children are revisited.
          if (since !== undefined && s.lastmodMs !== undefined) {
            newTimes.push(s.lastmodMs);
            take(s.url, changedSitemaps);
          }
        }
      } else {
        for (const u of changedSince(sm.urls, since)) {
          const t = u.news?.publishedMs ?? u.lastmodMs;
          if (t !== undefined && since !== undefined && t > since) newTimes.push(t);
          take(u.url, pages);
          if (since !== undefined && u.lastmodMs !== undefined && u.lastmodMs > since) take(u.url, changed);
        }
      }
    }
  } catch (err) {
    if (err instanceof FeedError || err instanceof SitemapError) {
      throw new FreshetError(ErrorCodes.parseShape, 'non_retryable', `${isFeed ? 'feed' : 'sitemap'} ${page.url}: ${err.message}`, { subject: job.subject });
    }
    throw err;
  }
  const depth = (job.state.depth ?? 0) + 1;
  const subjects = [...scope.admit(pages).map((u) => scope.pageSubject(u)), ...sitemaps.map(webSitemapSubject)];
  if (subjects.length > 0) yield { kind: 'discovered_all', subjects, state: { depth } };
  const revisit = [...changed.map((u) => scope.pageSubject(u)), ...changedSitemaps.map(webSitemapSubject)];
  if (revisit.length > 0) yield { kind: 'revisit', subjects: revisit };
  newTimes.sort((a, b) => a - b);
  return {
    state: {
      ...job.state, visits: job.state.visits + 1, failures: 0, lastVisitMs: page.fetchedAtMs, postsSeen: job.state.postsSeen + newTimes.length,
      ...(newTimes.length > 0 ? { lastPostMs: Math.max(newTimes[newTimes.length - 1]!, job.state.lastPostMs ?? 0) } : {}),
    },
    newPostTimesMs: newTimes,
    pageLimitHit: overflow,
    requests: 1,
  };
}

/**
 * A site's sitemaps: the `Sitemap:` lines of its robots.txt, else the well-known paths. A missing
 * robots.txt (404) is no error: the well-known paths are tried. The subject is revisited like any
 * other (sites add sitemaps rarely, so its rate stays low). When the fetcher obeys robots.txt its
 * cache already holds the file (or fetches it once for both uses), so no second request is sent.
 */
async function* visitRobots(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
  const origin = job.subject.slice(WEB_ROBOTS_PREFIX.length);
  const nowMs = ctx.nowMs();
  const cached = ctx.robotsSitemaps?.(origin);
  const read = cached !== undefined ? { sitemaps: await cached, fetchedAtMs: nowMs, requests: 0 } : await fetchRobotsSitemaps(origin, ctx);
  const sitemaps = read.sitemaps.length > 0 ? read.sitemaps : [`${origin}${WELL_KNOWN_SITEMAPS[0]!}`];
  yield { kind: 'discovered_all', subjects: sitemaps.map(webSitemapSubject), state: { depth: job.state.depth ?? 0 } };
  return {
    state: { ...job.state, visits: job.state.visits + 1, failures: 0, lastVisitMs: read.fetchedAtMs },
    newPostTimesMs: [],
    pageLimitHit: false,
    requests: read.requests,
  };
}

/** robots.txt fetched by the visit itself (a fetcher that does not read robots.txt). */
async function fetchRobotsSitemaps(origin: string, ctx: VisitContext): Promise<{ sitemaps: string[]; fetchedAtMs: number; requests: number }> {
  try {
    const page = await ctx.fetchText(`${origin}/robots.txt`, 'html');
    return { sitemaps: absoluteSitemaps(parseRobots(page.text).sitemaps, origin), fetchedAtMs: page.fetchedAtMs, requests: 1 };
  } catch (err) {
    if (!(err instanceof FreshetError) || (err.fields?.['status'] !== 404 && err.fields?.['status'] !== 410)) throw err;
    return { sitemaps: [], fetchedAtMs: ctx.nowMs(), requests: 1 };
  }
}
