import { escapeHtml } from '../text/compose';
import type { LiveArticle } from './news-lifecycle';
import type { LinkStyle } from './url-noise';

/**
 * Crawler traps as news sites grow them by accident: a calendar that pages to any month forever,
 * faceted navigation whose links multiply query strings (in every parameter order), and a
 * relative link that makes a path repeat itself (`/news/news/news/…`). Every trap page answers 200.
 */

export const CALENDAR_RE = /^\/news\/calendar\/(?:(\d{4})\/(\d{2})\/(?:(\d{2})\/)?)?$/;
export const LOOP_RE = /^\/news\/(?:news\/)+$/;

export const FACETS: Readonly<Record<string, readonly string[]>> = {
  section: ['tech', 'finance', 'sports', 'ent', 'life'],
  sort: ['new', 'hot', 'old'],
  view: ['list', 'grid'],
  period: ['day', 'week', 'month', 'all'],
};

const p2 = (n: number): string => String(n).padStart(2, '0');
export const calendarPath = (y: number, m: number, d?: number): string => `/news/calendar/${y}/${p2(m)}/${d === undefined ? '' : `${p2(d)}/`}`;

/** Facet links of a listing: each sets one facet on the current query, appended last (so orders vary), the page reset. */
export function facetLinks(query: URLSearchParams): string {
  const out: string[] = [];
  for (const [name, values] of Object.entries(FACETS)) {
    for (const v of values) {
      const q = new URLSearchParams();
      for (const [k, x] of query) if (k !== name && k !== 'page') q.append(k, x);
      q.append(name, v);
      out.push(`<a href="/news/?${escapeHtml(q.toString())}" rel="nofollow">${name}: ${v}</a>`);
    }
  }
  return `<div class="facets">${out.join(' ')}</div>`;
}

/** What traps add to a listing page: the facets, the calendar entry and the looping relative link. */
export function trapLinks(query: URLSearchParams, nowMs: number): string {
  const d = new Date(nowMs);
  return `${facetLinks(query)}<p class="more"><a href="${calendarPath(d.getUTCFullYear(), d.getUTCMonth() + 1)}">按日期浏览</a> | <a href="news/">编辑推荐</a></p>`;
}

const shell = (title: string, body: string): string => `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title} - 模拟日报</title></head>
<body><header class="site-header"><div class="logo"><a href="/news/">模拟日报</a></div></header>${body}</body></html>`;

/** A month: every day links its day page; previous and next months link on without end. */
export function calendarMonthPage(y: number, m: number): string {
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells = Array.from({ length: days }, (_, i) => `<td><a href="${calendarPath(y, m, i + 1)}">${i + 1}</a></td>`);
  const prev = m === 1 ? calendarPath(y - 1, 12) : calendarPath(y, m - 1);
  const next = m === 12 ? calendarPath(y + 1, 1) : calendarPath(y, m + 1);
  return shell(`${y}年${m}月`, `<h1>${y}年${m}月</h1><table class="calendar"><tr>${cells.join('')}</tr></table>
<p class="cal-nav"><a class="prev" href="${prev}">上个月</a> <a class="next" href="${next}">下个月</a></p>`);
}

/** A day: the articles published that day (UTC), and the neighbouring days. */
export function calendarDayPage(y: number, m: number, d: number, items: LiveArticle[], links: LinkStyle): string {
  const t = Date.UTC(y, m - 1, d);
  const at = (ms: number): Date => new Date(ms);
  const prev = at(t - 86_400_000);
  const next = at(t + 86_400_000);
  const list = items.map((x) => `<li><a href="${links.href(x.path, t)}">${escapeHtml(x.version.title)}</a></li>`).join('');
  return shell(`${y}-${p2(m)}-${p2(d)}`, `<h1>${y}-${p2(m)}-${p2(d)}</h1><ul class="day-list">${list}</ul>
<p class="cal-nav"><a class="prev" href="${calendarPath(prev.getUTCFullYear(), prev.getUTCMonth() + 1, prev.getUTCDate())}">前一天</a> <a class="next" href="${calendarPath(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate())}">后一天</a> <a href="${calendarPath(y, m)}">本月</a></p>`);
}
