import { escapeHtml } from '../text/compose';
import type { ForumWorld } from './forum-world';
import type { LiveArticle } from './news-lifecycle';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
/** A month key as sitemap file names carry it: `2026-11`. */
export const monthKey = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

export interface SitemapRef {
  path: string;
  lastmodMs: number;
}

/** A sitemap index (sitemaps.org): one `<sitemap>` per child with its last change. */
export function sitemapIndex(origin: string, children: SitemapRef[]): string {
  const items = children.map((c) => `<sitemap><loc>${origin}${c.path}</loc><lastmod>${iso(c.lastmodMs)}</lastmod></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">\n${items.join('\n')}\n</sitemapindex>\n`;
}

export interface UrlEntry {
  path: string;
  lastmodMs: number;
  changefreq?: 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly';
  priority?: number;
}

export function urlset(origin: string, entries: UrlEntry[]): string {
  const items = entries.map((e) => `<url><loc>${origin}${escapeHtml(e.path)}</loc><lastmod>${iso(e.lastmodMs)}</lastmod>`
    + `${e.changefreq ? `<changefreq>${e.changefreq}</changefreq>` : ''}${e.priority !== undefined ? `<priority>${e.priority.toFixed(1)}</priority>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${items.join('\n')}\n</urlset>\n`;
}

/** Google News sitemap: articles of the last two days, with publication name, language, date and title. */
export function newsSitemap(origin: string, items: LiveArticle[]): string {
  const urls = items.map((x) => `<url><loc>${origin}${x.path}</loc><news:news><news:publication><news:name>模拟日报</news:name>`
    + `<news:language>${x.a.lang === 'zh' ? 'zh-cn' : 'en'}</news:language></news:publication>`
    + `<news:publication_date>${iso(x.a.publishedMs)}</news:publication_date><news:title>${escapeHtml(x.version.title)}</news:title></news:news></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Article entries of one month's sitemap: the live articles published that month, at their current URL. */
export function articleEntries(items: LiveArticle[]): UrlEntry[] {
  return items.map((x) => ({ path: x.path, lastmodMs: x.version.modifiedMs, changefreq: 'daily', priority: 0.6 }));
}

/** Forum threads with the time of their last reply (what makes a crawler revisit a thread's last page). */
export function forumEntries(forum: ForumWorld, nowMs: number, threadUrl: (boardId: number, tid: number) => string): UrlEntry[] {
  const out: UrlEntry[] = [];
  for (const b of forum.boards) {
    for (const t of forum.activeThreads(b.id, nowMs)) {
      const n = forum.visiblePostCount(t, nowMs);
      if (n > 0) out.push({ path: threadUrl(b.id, t.tid), lastmodMs: t.postTimes[n - 1]!, changefreq: 'hourly' });
    }
  }
  return out;
}
