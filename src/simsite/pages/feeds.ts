import { escapeHtml } from '../text/compose';
import type { LiveArticle } from './news-lifecycle';

/** Items a news feed carries, as most CMSes default to. */
export const FEED_ITEMS = 20;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const xml = escapeHtml;
/** RFC 822 dates as RSS 2.0 writes them, in China time as the portal would: `Sat, 21 Nov 2026 08:00:00 +0800`. */
function rfc822China(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0800`;
}

const summary = (x: LiveArticle): string => x.version.paragraphs[0]!.slice(0, 120);
/** A stable id across moves and edits (links change when an article moves; the guid does not). */
export const articleGuid = (id: number): string => `tag:news.simsite,2026:article-${id}`;

/** RSS 2.0 with the atom:link self reference and dc:creator, as WordPress and most portals emit. */
export function rssFeed(origin: string, items: LiveArticle[], nowMs: number): string {
  const last = items[0]?.a.publishedMs ?? nowMs;
  const entries = items.map((x) => `<item>
<title>${xml(x.version.title)}</title>
<link>${origin}${x.path}</link>
<guid isPermaLink="false">${articleGuid(x.a.id)}</guid>
<pubDate>${rfc822China(x.a.publishedMs)}</pubDate>
<dc:creator><![CDATA[${x.a.author}]]></dc:creator>
<category><![CDATA[${x.a.section}]]></category>
<description><![CDATA[${summary(x)}…]]></description>
</item>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>模拟日报 - 最新</title>
<link>${origin}/news/</link>
<atom:link href="${origin}/news/rss.xml" rel="self" type="application/rss+xml" />
<description>模拟日报最新新闻</description>
<language>zh-CN</language>
<lastBuildDate>${rfc822China(last)}</lastBuildDate>
<ttl>30</ttl>
${entries.join('\n')}
</channel>
</rss>`;
}

/** Atom 1.0: `updated` is the version's time, `published` the publication. */
export function atomFeed(origin: string, items: LiveArticle[], nowMs: number): string {
  const updated = Math.max(0, ...items.map((x) => x.version.modifiedMs));
  const entries = items.map((x) => `<entry>
<title type="text">${xml(x.version.title)}</title>
<link rel="alternate" type="text/html" href="${origin}${x.path}"/>
<id>${articleGuid(x.a.id)}</id>
<published>${iso(x.a.publishedMs)}</published>
<updated>${iso(x.version.modifiedMs)}</updated>
<author><name>${xml(x.a.author)}</name></author>
<summary type="html">${xml(summary(x))}…</summary>
</entry>`);
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="zh-CN">
<title>模拟日报</title>
<subtitle>最新新闻</subtitle>
<link rel="self" type="application/atom+xml" href="${origin}/news/atom.xml"/>
<link rel="alternate" type="text/html" href="${origin}/news/"/>
<id>${origin}/news/</id>
<updated>${iso(items.length > 0 ? updated : nowMs)}</updated>
${entries.join('\n')}
</feed>`;
}

/** JSON Feed 1.1. */
export function jsonFeed(origin: string, items: LiveArticle[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: '模拟日报',
    home_page_url: `${origin}/news/`,
    feed_url: `${origin}/news/feed.json`,
    language: 'zh-CN',
    items: items.map((x) => ({
      id: articleGuid(x.a.id),
      url: `${origin}${x.path}`,
      title: x.version.title,
      summary: summary(x),
      date_published: iso(x.a.publishedMs),
      ...(x.version.version > 0 ? { date_modified: iso(x.version.modifiedMs) } : {}),
      authors: [{ name: x.a.author }],
      tags: [x.a.section],
    })),
  });
}
