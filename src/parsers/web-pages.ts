import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Job } from '../core/envelope';
import { isoTime } from '../core/iso-time';
import { ErrorCodes, FreshetError } from '../core/errors';
import { parseHtml } from '../extractors/dom';
import { applyRuleSet, selectRuleSet, type FieldValue } from '../extractors/html-rules';
import { attachParsedHtml } from '../extractors/parsed-html';
import { ruleSetsSchema } from '../extractors/rules/schema';
import type { Adapter, Emitted, VisitContext, VisitOutcome } from './adapter';

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
});

export type WebPagesConfig = z.infer<typeof webPagesConfigSchema>;

export const WEB_PAGE_PREFIX = 'web:page:';

/** The subject of a page: its absolute URL after the prefix (fragments never name another page). */
export const webPageSubject = (url: string): string => `${WEB_PAGE_PREFIX}${url.replace(/#.*$/, '')}`;

const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');

const parseUrl = (url: string): URL | undefined => {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
};

const originOf = (url: string): string | undefined => parseUrl(url)?.origin;

const str = (v: FieldValue | undefined): string | undefined => {
  const s = Array.isArray(v) ? v.join('\n') : v;
  return s === null || s === undefined || s.trim() === '' ? undefined : s.trim();
};

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

  constructor(private readonly config: WebPagesConfig) {}

  accepts(subject: string): boolean {
    return subject.startsWith(WEB_PAGE_PREFIX);
  }

  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
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
    while (url) {
      if (requests >= c.max_pages_per_visit) {
        pageLimitHit = true;
        break;
      }
      seen.add(url);
      const page = await ctx.fetchText(url, 'html');
      requests += 1;
      lastMs = page.fetchedAtMs;
      const crawledAt = isoTime(page.fetchedAtMs);
      // Every document of this page is keyed by its URL's hash, and every link judged by its origin.
      const pageKey = sha1(page.url);
      const pageUrl = parseUrl(page.url);
      const from = pageUrl?.origin;
      const ruleSet = selectRuleSet(page.url, c.rules);
      const pageDocument = ruleSet ? ruleSet.page_document : c.page_documents;
      if (!ruleSet && !pageDocument) break;
      const root = parseHtml(page.text);
      if (pageDocument) {
        // text_density reads this very DOM: one parse per page for rules and extraction.
        const doc = { index: 'pages', id: pageKey, body: { url: page.url, site: pageUrl?.host, html: page.text, content_type: 'text/html; charset=utf-8', crawled_at: crawledAt, subject: job.subject } };
        yield { kind: 'doc', doc: attachParsedHtml(doc, page.text, root) };
      }
      if (!ruleSet) break;
      const result = applyRuleSet(root, page.url, ruleSet);
      for (const [i, item] of result.items.entries()) {
        const postId = str(item['id']) ?? String(i + 1);
        const createdAt = str(item['created_at']);
        const createdMs = createdAt ? Date.parse(createdAt) : Number.NaN;
        if (Number.isFinite(createdMs) && createdMs > (job.state.lastVisitMs ?? -Infinity)) newPostTimesMs.push(createdMs);
        const author = str(item['author']);
        posts += 1;
        yield {
          kind: 'doc',
          doc: {
            index: 'posts',
            id: `web:${pageKey}:${postId}`,
            body: {
              platform: 'web', id: postId, url: page.url, subject: job.subject,
              ...(author ? { author: { name: author } } : {}),
              text: str(item['text']) ?? '',
              ...(Number.isFinite(createdMs) ? { created_at: isoTime(createdMs) } : {}),
              crawled_at: crawledAt,
            },
          },
        };
      }
      if (depth <= c.max_depth) {
        for (const link of result.links) {
          if (seen.has(link) || this.recentLinks.has(link) || !this.allowed(link, from)) continue;
          yield { kind: 'discovered', subject: webPageSubject(link), state: { depth } };
        }
      }
      url = result.next && !seen.has(result.next) && this.allowed(result.next, from) ? result.next : undefined;
    }
    return {
      state: { ...job.state, visits: job.state.visits + 1, failures: 0, lastVisitMs: lastMs, postsSeen: job.state.postsSeen + posts },
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
      if (!subject.startsWith(WEB_PAGE_PREFIX)) continue;
      if (this.recentLinks.size >= max) this.recentLinks.delete(this.recentLinks.values().next().value!);
      this.recentLinks.add(subject.slice(WEB_PAGE_PREFIX.length));
    }
  }

  /** `fromOrigin`: the linking page's origin (undefined when its URL does not parse). */
  private allowed(url: string, fromOrigin: string | undefined): boolean {
    if (this.config.allow_prefixes.length > 0) return this.config.allow_prefixes.some((p) => url.startsWith(p));
    const origin = originOf(url);
    return origin !== undefined && origin === fromOrigin;
  }
}
