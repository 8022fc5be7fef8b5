import { searchFaceted, timeline, type TimeInterval } from '../../search/facets';
import { parseSince, type SearchFilters } from '../../search/full-text';
import { deadLetterView } from './crawl-views';
import { chartPage } from './pages/chart';
import { deadLettersPage } from './pages/dead-letters';
import { freshnessBlock } from './pages/freshness';
import { overviewPage } from './pages/overview';
import { searchPage, type SearchForm } from './pages/search';
import { searchIndices, type ServeDeps } from './routes';

const SENTIMENTS = new Set(['positive', 'neutral', 'negative']);

function formOf(url: URL): SearchForm {
  const get = (k: string) => url.searchParams.get(k)?.trim() || undefined;
  const since = get('since');
  const sentiment = get('sentiment');
  const platform = get('platform');
  const author = get('author');
  const until = get('until');
  return {
    q: get('q') ?? '', ...(since ? { since } : {}), ...(until ? { until } : {}), ...(sentiment ? { sentiment } : {}), ...(platform ? { platform } : {}), ...(author ? { author } : {}),
  };
}

function filtersOf(form: SearchForm, nowMs: number): SearchFilters {
  const f: SearchFilters = {};
  // The time menu gives 24h, 7d…; a time facet gives the ISO instants its interval starts and ends at.
  if (form.since) f.sinceMs = parseSince(form.since, nowMs);
  if (form.until) f.untilMs = parseSince(form.until, nowMs);
  if (form.sentiment) {
    if (!SENTIMENTS.has(form.sentiment)) throw new Error('sentiment: positive, neutral or negative');
    f.sentiment = form.sentiment as SearchFilters['sentiment'];
  }
  if (form.platform) f.platform = form.platform;
  if (form.author) f.author = form.author;
  return f;
}

/** The HTML pages, rendered on the server from the same views as the API; undefined: no such page. */
export async function servePage(deps: ServeDeps, url: URL): Promise<string | undefined> {
  switch (url.pathname) {
    case '/':
      return overviewPage(await Promise.all([...deps.pipelines.values()].map(async (p) => {
        const [overview, freshness] = await Promise.all([deps.views.overview(p), deps.views.freshness(p).catch((err: Error) => err)]);
        return { overview, freshness };
      })));
    case '/fragments/freshness': {
      const p = deps.pipelines.get(url.searchParams.get('pipeline') ?? '');
      if (!p) return undefined;
      return freshnessBlock(await deps.views.freshness(p).catch((err: Error) => err));
    }
    case '/search': {
      const form = formOf(url);
      if (form.q === '') return searchPage(form, undefined);
      if (!deps.search) return searchPage(form, undefined, 'no search node configured');
      try {
        const res = await searchFaceted(deps.search, searchIndices(deps.indexPrefix), form.q, 20, filtersOf(form, deps.clock.nowMs()));
        return searchPage(form, res);
      } catch (err) {
        return searchPage(form, undefined, (err as Error).message);
      }
    }
    case '/chart': {
      const q = url.searchParams.get('q')?.trim() ?? '';
      const i = url.searchParams.get('interval');
      const interval: TimeInterval = i === 'hour' || i === 'week' ? i : 'day';
      if (!deps.search) return chartPage(q, interval, undefined, 'no search node configured');
      try {
        return chartPage(q, interval, { interval, points: await timeline(deps.search, `${deps.indexPrefix}posts`, q, interval) });
      } catch (err) {
        return chartPage(q, interval, undefined, (err as Error).message);
      }
    }
    case '/dead-letters': {
      const names = [...deps.pipelines.keys()];
      const name = url.searchParams.get('pipeline') ?? names[0];
      const p = name === undefined ? undefined : deps.pipelines.get(name);
      if (!p) return deadLettersPage(names, name, undefined, name === undefined ? 'no pipeline served' : `no pipeline "${name}"`);
      const before = url.searchParams.get('before') ?? undefined;
      try {
        const [total, rows] = await Promise.all([p.frontier.deadLetters.length(), p.frontier.deadLetters.list(100, before && /^\d+-\d+$/.test(before) ? before : undefined)]);
        return deadLettersPage(names, name, { total, items: rows.map((r) => deadLetterView(r.id, r.fields)), ...(rows.length === 100 ? { next: rows[99]!.id } : {}) });
      } catch (err) {
        return deadLettersPage(names, name, undefined, (err as Error).message);
      }
    }
    default:
      return undefined;
  }
}
