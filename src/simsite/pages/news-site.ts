import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { SimRequest, SimResponse } from '../http-types';
import { htmlResponse } from '../http-types';
import { escapeHtml } from '../text/compose';
import { ARTICLES_PER_INDEX_PAGE, type ArticleSite, type ArticleView, FEED_LINKS, articlePage, chinaTime } from './articles';
import { discuzThreadUrl } from './discuz';
import { FEED_ITEMS, atomFeed, jsonFeed, rssFeed } from './feeds';
import type { ForumWorld } from './forum-world';
import { type LiveArticle, NewsLifecycle, type NewsOptions } from './news-lifecycle';
import { articleEntries, forumEntries, monthKey, newsSitemap, sitemapIndex, urlset } from './sitemaps';
import { CALENDAR_RE, LOOP_RE, calendarDayPage, calendarMonthPage, calendarPath, trapLinks } from './traps';
import { LinkStyle, sessionId, stripPathParams } from './url-noise';
import { withValidators } from './validators';

const NOT_FOUND = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>404</title></head><body><h1>页面不存在</h1></body></html>';
const GONE = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>410</title></head><body><h1>该文章已被删除</h1></body></html>';
const NEWS_SITEMAP_WINDOW_MS = 2 * 86_400_000;

const notFound = (): SimResponse => htmlResponse(NOT_FOUND, 'text/html; charset=utf-8', 404);
/** A strong tag of the bytes, as servers that hash what they send (Express, nginx with static files) give. */
const bodyTag = (body: string | Buffer): string => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
const intParam = (v: string | null, fallback: number): number => (v !== null && /^\d{1,6}$/.test(v) ? Number(v) : fallback);

/**
 * The news site under `/news/` with what real portals have around articles: feeds, sitemaps
 * (index, monthly gzipped, news), validators and 304s, edits, deletions and moves, noisy links and
 * traps — each part as the options say (see NewsOptions; the defaults serve the plain site).
 */
export class NewsSite {
  readonly lifecycle: NewsLifecycle;

  constructor(private readonly seed: number, readonly articles: ArticleSite, private readonly forum: ForumWorld, readonly options: NewsOptions) {
    this.lifecycle = new NewsLifecycle(articles, seed, options);
  }

  handle(req: SimRequest): SimResponse | null {
    const path = stripPathParams(req.pathname);
    if (path === '/sitemap.xml' || path === '/sitemap-news.xml' || path.startsWith('/sitemaps/')) return this.sitemap(req, path);
    if (!path.startsWith('/news/')) return null;
    if (path === '/news/rss.xml' || path === '/news/atom.xml' || path === '/news/feed.json') return this.feed(req, path);
    if (path === '/news/') return this.index(req, intParam(req.query.get('page'), 1));
    if (this.options.traps && LOOP_RE.test(path)) return this.index(req, 1);
    const cal = this.options.traps ? CALENDAR_RE.exec(path) : null;
    if (cal) return this.calendar(req, cal);
    const m = /^\/news\/(?:amp\/|(\d{4})\/(\d{2})\/)?(\d+)\.html$/.exec(path);
    return m ? this.article(req, path, Number(m[3]), m[1] !== undefined) : notFound();
  }

  /** `Sitemap:` lines for robots.txt, when the options announce them. */
  robotsLines(req: SimRequest): string {
    if (!this.options.announceSitemaps) return '';
    const o = origin(req);
    return `\nSitemap: ${o}/sitemap.xml\nSitemap: ${o}/sitemap-news.xml\n`;
  }

  private links(req: SimRequest): LinkStyle {
    return new LinkStyle(this.options, this.seed, this.options.sessionIds === 'none' ? null : sessionId(this.seed, req.client, req.nowMs));
  }

  private validated(req: SimRequest, lastModifiedMs: number, render: () => SimResponse): SimResponse {
    if (!this.options.validators) return render();
    // The tag is of the bytes, so the page is rendered to answer even a conditional request.
    const r = render();
    if (r.status !== 200) return r;
    return withValidators(req, { etag: bodyTag(r.body), lastModifiedMs }, () => r);
  }

  /** The front page list, or a section's (`?section=`, the portal's channels and the articles' topics); other parameters are ignored. */
  private index(req: SimRequest, page: number): SimResponse {
    const now = req.nowMs;
    const section = req.query.get('section');
    const all = section === null ? null : this.lifecycle.latest(now).filter((x) => x.a.section === section);
    const total = all === null ? this.lifecycle.liveCount(now) : all.length;
    const pages = Math.max(1, Math.ceil(total / ARTICLES_PER_INDEX_PAGE));
    if (page < 1 || page > pages) return notFound();
    return this.validated(req, this.lifecycle.lastEventMs(now), () => {
      const skip = (page - 1) * ARTICLES_PER_INDEX_PAGE;
      const items = all === null ? this.lifecycle.latest(now, ARTICLES_PER_INDEX_PAGE, skip) : all.slice(skip, skip + ARTICLES_PER_INDEX_PAGE);
      const links = this.links(req);
      const list = items.map((x) => `<li><a href="${links.href(x.path, -page)}">${escapeHtml(x.version.title)}</a> <span class="time">${chinaTime(x.a.publishedMs)}</span></li>`);
      const nextPath = section === null ? `/news/?page=${page + 1}` : `/news/?section=${encodeURIComponent(section)}&page=${page + 1}`;
      const next = page < pages ? `<a class="next" rel="next" href="${links.href(nextPath, -page)}">下一页</a>` : '';
      const traps = this.options.traps ? trapLinks(req.query, now) : '';
      return htmlResponse(`<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>模拟日报 - 最新</title>${FEED_LINKS}</head>
<body><header class="site-header"><div class="logo"><a href="/news/">模拟日报</a></div></header>
<ul class="news-list">${list.join('\n')}</ul><div class="pager">${next}</div>${traps}</body></html>`);
    });
  }

  private article(req: SimRequest, path: string, id: number, dated: boolean): SimResponse {
    const now = req.nowMs;
    const a = this.articles.article(id, now);
    if (!a) return notFound();
    const state = this.lifecycle.state(a, now);
    if (state.kind === 'gone') return htmlResponse(state.status === 410 ? GONE : NOT_FOUND, 'text/html; charset=utf-8', state.status);
    // The dated URL exists once the article moved there; the old one then redirects.
    if (dated !== (state.kind === 'moved') || (dated && path !== state.path)) {
      if (state.kind === 'moved' && !dated) return { status: 301, headers: { location: `${origin(req)}${state.path}`, 'content-type': 'text/html; charset=utf-8' }, body: '', kind: 'html' };
      return notFound();
    }
    return this.validated(req, this.lifecycle.changedMs(a, now), () => {
      const links = this.links(req);
      const v = state.version;
      const view: ArticleView = {
        title: v.title,
        paragraphs: v.paragraphs,
        modifiedMs: v.version > 0 ? v.modifiedMs : null,
        canonicalPath: state.path,
        href: (other) => {
          const x = this.lifecycle.live(other, now);
          return x ? links.href(x.path, id) : null;
        },
        navExtra: this.options.traps ? `<li><a href="${calendarPath(new Date(a.publishedMs).getUTCFullYear(), new Date(a.publishedMs).getUTCMonth() + 1)}">往期</a></li>` : '',
      };
      return htmlResponse(articlePage(this.articles, a, now, view));
    });
  }

  private calendar(req: SimRequest, m: RegExpExecArray): SimResponse {
    const now = new Date(req.nowMs);
    const y = m[1] === undefined ? now.getUTCFullYear() : Number(m[1]);
    const mo = m[2] === undefined ? now.getUTCMonth() + 1 : Number(m[2]);
    if (y < 1 || y > 9999 || mo < 1 || mo > 12) return notFound();
    if (m[3] === undefined) return this.validated(req, this.lifecycle.lastEventMs(req.nowMs), () => htmlResponse(calendarMonthPage(y, mo)));
    const d = Number(m[3]);
    if (d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return notFound();
    const from = Date.UTC(y, mo - 1, d);
    return this.validated(req, this.lifecycle.lastEventMs(req.nowMs), () => {
      const items = this.lifecycle.latest(req.nowMs).filter((x) => x.a.publishedMs >= from && x.a.publishedMs < from + 86_400_000);
      return htmlResponse(calendarDayPage(y, mo, d, items, this.links(req)));
    });
  }

  private feed(req: SimRequest, path: string): SimResponse {
    const now = req.nowMs;
    return this.validated(req, this.lifecycle.lastEventMs(now), () => {
      const items = this.lifecycle.latest(now, FEED_ITEMS);
      const o = origin(req);
      if (path.endsWith('rss.xml')) return xmlResponse(rssFeed(o, items, now), 'application/rss+xml; charset=utf-8');
      if (path.endsWith('atom.xml')) return xmlResponse(atomFeed(o, items, now), 'application/atom+xml; charset=utf-8');
      return xmlResponse(jsonFeed(o, items), 'application/feed+json; charset=utf-8');
    });
  }

  /** Live articles grouped by month of publication, oldest month first. */
  private byMonth(nowMs: number): Map<string, LiveArticle[]> {
    const months = new Map<string, LiveArticle[]>();
    for (const x of this.lifecycle.latest(nowMs).reverse()) {
      const k = monthKey(x.a.publishedMs);
      const list = months.get(k) ?? [];
      list.push(x);
      months.set(k, list);
    }
    return months;
  }

  private sitemap(req: SimRequest, path: string): SimResponse {
    const now = req.nowMs;
    const o = origin(req);
    const last = this.lifecycle.lastEventMs(now);
    if (path === '/sitemap.xml') {
      return this.validated(req, last, () => {
        const months = [...this.byMonth(now)].map(([k, list]) => ({ path: `/sitemaps/news-${k}.xml.gz`, lastmodMs: Math.max(...list.map((x) => x.version.modifiedMs)) }));
        const forumLast = Math.max(0, ...forumEntries(this.forum, now, threadUrl(this.forum)).map((e) => e.lastmodMs));
        return xmlResponse(sitemapIndex(o, [
          { path: '/sitemaps/pages.xml', lastmodMs: last }, ...months, { path: '/sitemap-news.xml', lastmodMs: last }, { path: '/sitemaps/forum.xml', lastmodMs: forumLast },
        ]), 'application/xml; charset=utf-8');
      });
    }
    if (path === '/sitemap-news.xml') {
      return this.validated(req, last, () => xmlResponse(newsSitemap(o, this.lifecycle.latest(now).filter((x) => x.a.publishedMs > now - NEWS_SITEMAP_WINDOW_MS)), 'application/xml; charset=utf-8'));
    }
    if (path === '/sitemaps/pages.xml') {
      return this.validated(req, last, () => xmlResponse(urlset(o, [{ path: '/news/', lastmodMs: last, changefreq: 'always', priority: 1 }]), 'application/xml; charset=utf-8'));
    }
    if (path === '/sitemaps/forum.xml') {
      const entries = forumEntries(this.forum, now, threadUrl(this.forum));
      return this.validated(req, Math.max(0, ...entries.map((e) => e.lastmodMs)), () => xmlResponse(urlset(o, entries), 'application/xml; charset=utf-8'));
    }
    const m = /^\/sitemaps\/news-(\d{4}-\d{2})\.xml\.gz$/.exec(path);
    const list = m ? this.byMonth(now).get(m[1]!) : undefined;
    if (!list) return notFound();
    return this.validated(req, Math.max(...list.map((x) => x.version.modifiedMs)), () => ({
      status: 200, headers: { 'content-type': 'application/x-gzip' }, body: gzipSync(urlset(o, articleEntries(list))), kind: 'text',
    }));
  }
}

function origin(req: SimRequest): string {
  const host = typeof req.headers.host === 'string' && req.headers.host !== '' ? req.headers.host : req.host;
  return `http://${host}`;
}

const xmlResponse = (body: string, contentType: string): SimResponse => ({ status: 200, headers: { 'content-type': contentType }, body, kind: 'text' });

const threadUrl = (forum: ForumWorld) => (boardId: number, tid: number): string =>
  forum.board(boardId)?.flavour === 'discuz' ? discuzThreadUrl(tid, 1) : `/phpbb/viewtopic.php?f=${boardId}&t=${tid}`;
