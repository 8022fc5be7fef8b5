import type { z } from 'zod';
import type { searchResult } from '../schemas';
import { esc, highlighted, layout, queryString } from './html';

export interface SearchForm {
  q: string;
  since?: string;
  /** Set with `since` by a time facet: the end of its interval (ISO). */
  until?: string;
  sentiment?: string;
  platform?: string;
  author?: string;
}

type Result = z.infer<typeof searchResult>;

function facetList(title: string, key: keyof SearchForm, buckets: Result['facets']['sentiment'], form: SearchForm, label = (k: string) => k): string {
  if (buckets.length === 0) return '';
  const chosen = form[key];
  return `<div data-facet="${key}"><b>${title}</b><ul>${buckets.map((b) => {
    const href = `/search${queryString({ ...form, [key]: chosen === b.key ? undefined : b.key })}`;
    return `<li><a href="${esc(href)}"${chosen === b.key ? ' style="font-weight:bold"' : ''}>${esc(label(b.key))}</a> <span class="meta">${b.count}</span></li>`;
  }).join('')}</ul></div>`;
}

const DAY_MS = 86_400_000;

/** The time facet (days, newest first): a click narrows to that day, a second click widens again. */
function timeFacet(buckets: Result['facets']['time'], form: SearchForm): string {
  if (buckets.length === 0) return '';
  return `<div data-facet="time"><b>Time</b><ul>${buckets.map((b) => {
    const until = new Date(Date.parse(b.key) + DAY_MS).toISOString();
    const chosen = form.since === b.key && form.until === until;
    const href = `/search${queryString({ ...form, since: chosen ? undefined : b.key, until: chosen ? undefined : until })}`;
    return `<li><a href="${esc(href)}"${chosen ? ' style="font-weight:bold"' : ''}>${esc(b.key.slice(0, 10))}</a> <span class="meta">${b.count}</span></li>`;
  }).join('')}</ul></div>`;
}

/** Search with highlights and facets: sentiment, platform, author, time (a click narrows, a second click widens again). */
export function searchPage(form: SearchForm, result: Result | undefined, error?: string): string {
  const since = form.since ?? '';
  const hits = result ? result.hits.map((h) => {
    const f = h.fields;
    const author = (f['author'] as { name?: string } | undefined)?.name;
    const mood = f['sentiment'] as { label?: string; score?: number } | undefined;
    const when = String(f['created_at'] ?? f['published_at'] ?? '');
    const fragments = h.highlight.length > 0 ? h.highlight.map(highlighted).join(' … ') : esc(String(f['title'] ?? f['text'] ?? '').slice(0, 200));
    const link = typeof f['url'] === 'string' ? ` · <a href="${esc(f['url'])}">source</a>` : '';
    return `<div class="hit" data-hit="${esc(h.id)}"><div>${fragments}</div><div class="meta">${author ? `@${esc(author)} · ` : ''}${esc(f['platform'] ?? '')} · ${esc(when)}${
      mood?.label ? ` · <span class="${esc(mood.label)}">${esc(mood.label)} ${(mood.score ?? 0).toFixed(2)}</span>` : ''}${link}</div></div>`;
  }).join('') : '';
  const facets = result ? `<div class="facets">
${facetList('Sentiment', 'sentiment', result.facets.sentiment, form)}
${facetList('Platform', 'platform', result.facets.platform, form)}
${facetList('Author', 'author', result.facets.author, form)}
${timeFacet(result.facets.time.slice(-10).reverse(), form)}
</div>` : '';
  const body = `<h1>Search</h1>
<form class="q" method="get" action="/search"><input type="text" name="q" value="${esc(form.q)}" placeholder="words, Chinese or English" autofocus>
<select name="since"><option value="">any time</option>${[...['24h', '7d', '30d', '365d'], ...(since && !['24h', '7d', '30d', '365d'].includes(since) ? [since] : [])].map((v) => `<option${v === since ? ' selected' : ''}>${esc(v)}</option>`).join('')}</select>
${form.until ? `<input type="hidden" name="until" value="${esc(form.until)}">` : ''}${form.sentiment ? `<input type="hidden" name="sentiment" value="${esc(form.sentiment)}">` : ''}${form.platform ? `<input type="hidden" name="platform" value="${esc(form.platform)}">` : ''}${form.author ? `<input type="hidden" name="author" value="${esc(form.author)}">` : ''}
<button>Search</button></form>
${error ? `<p class="err">${esc(error)}</p>` : ''}
${result ? `<p><b data-total="${result.total}">${result.total}</b> matches${form.sentiment || form.platform || form.author ? ` (filtered: ${esc([form.sentiment, form.platform, form.author].filter(Boolean).join(', '))})` : ''} · <a href="/chart${esc(queryString({ q: form.q }))}">chart volume and sentiment over time</a></p>${facets}<div class="hits">${hits}</div>` : ''}`;
  return layout(form.q ? `Search: ${form.q}` : 'Search', 'search', body);
}
