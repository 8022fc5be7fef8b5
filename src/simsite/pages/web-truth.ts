import { ArticleSite } from './articles';
import { articleGuid } from './feeds';
import { articlePath } from './news-lifecycle';
import type { NewsSite } from './news-site';
import { monthKey } from './sitemaps';

/** The channels the article template's navigation links. */
export const NAV_SECTIONS = ['tech', 'life', 'travel', 'finance', 'sports', 'ent'];

/**
 * Ground truth of the news site's life: every published article with each version made so far
 * (text and time), and whether it is live, moved (and where) or deleted (and how it answers).
 */
export function* newsArticleTruth(news: NewsSite, nowMs: number): Generator<Record<string, unknown>> {
  const n = news.articles.countAt(nowMs);
  for (let id = 1; id <= n; id++) {
    const a = news.articles.article(id, nowMs)!;
    const fate = news.lifecycle.fate(a);
    const state = news.lifecycle.state(a, nowMs);
    const versions = fate.versions.filter((v) => v.modifiedMs <= nowMs).map((v) => ({
      version: v.version, modifiedMs: v.modifiedMs, modifiedAt: new Date(v.modifiedMs).toISOString(), title: v.title,
      text: ArticleSite.mainText({ ...a, paragraphs: v.paragraphs }),
    }));
    yield {
      id, guid: articleGuid(id), originalUrl: articlePath(id), url: state.kind === 'gone' ? null : state.path,
      status: state.kind === 'gone' ? 'deleted' : state.kind,
      ...(state.kind === 'gone' ? { goneStatus: state.status, deletedMs: fate.deleted!.atMs } : {}),
      ...(state.kind === 'moved' ? { movedMs: fate.moved!.atMs } : {}),
      publishedMs: a.publishedMs, publishedAt: new Date(a.publishedMs).toISOString(), lang: a.lang, section: a.section, versions,
    };
  }
}

/**
 * The pages a crawler of the news site should fetch, once each: index pages, live articles at
 * their one URL, the feeds and the sitemaps. Everything else it can reach (tracking and session
 * variants, AMP copies, calendars, facets, repeated paths) is a duplicate or a trap.
 */
export function* newsPageTruth(news: NewsSite, nowMs: number, pagesPerIndex: number): Generator<Record<string, unknown>> {
  const live = news.lifecycle.latest(nowMs);
  const pages = Math.max(1, Math.ceil(live.length / pagesPerIndex));
  yield { url: '/news/', kind: 'index' };
  for (let p = 2; p <= pages; p++) yield { url: `/news/?page=${p}`, kind: 'index' };
  // Section lists: the channels the navigation links (empty or not) and every topic articles have.
  const sections = new Map<string, number>(NAV_SECTIONS.map((s) => [s, 0]));
  for (const x of live) sections.set(x.a.section, (sections.get(x.a.section) ?? 0) + 1);
  for (const [s, n] of sections) {
    const q = encodeURIComponent(s);
    yield { url: `/news/?section=${q}`, kind: 'section' };
    for (let p = 2; p <= Math.ceil(n / pagesPerIndex); p++) yield { url: `/news/?page=${p}&section=${q}`, kind: 'section' };
  }
  for (const x of live) yield { url: x.path, kind: 'article', id: x.a.id };
  for (const f of ['/news/rss.xml', '/news/atom.xml', '/news/feed.json']) yield { url: f, kind: 'feed' };
  for (const s of ['/sitemap.xml', '/sitemap-news.xml', '/sitemaps/pages.xml', '/sitemaps/forum.xml']) yield { url: s, kind: 'sitemap' };
  for (const m of new Set(live.map((x) => monthKey(x.a.publishedMs)))) yield { url: `/sitemaps/news-${m}.xml.gz`, kind: 'sitemap' };
}
