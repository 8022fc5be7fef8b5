import { canonicalizer } from '../../../src/filters/url-canonical';
import type { ResultRow } from '../lib/results';
import { crawl, DAY_MS, manualSite, newsPipeline, pathOf, truthRows, words, type ArticleRow, type Services } from './crawl';

/** What the news scenarios measured, for the goals. */
export interface NewsFigures {
  rows: ResultRow[];
  notModifiedShare: number | null;
  unchangedReindexed: number | null;
  editsKeptShare: number | null;
  duplicates: number | null;
  trapFetchRatio: number | null;
  trapArticlesCaptured: number | null;
  falseDeletionMarks: number | null;
}

const canon = canonicalizer();
const canonicalPath = (path: string): string => pathOf(canon.canonical(path, 'http://site.invalid/')!);

const row = (variant: string, metric: string, value: number | null): ResultRow => ({ system: 'freshet', variant, metric, value });

type PageDoc = { url: string; text?: string; modified_at?: string; status?: string; first_missing_at?: string; moved_to?: string; versions?: { text: string; modified_at: string }[] };

/**
 * Revisits a news site whose articles are edited: round 0 reads everything, each later round
 * (one simulated day on) revisits every page with its validators. An article unchanged between
 * two visits should answer 304; an edited one is read again and its earlier version kept.
 */
export async function conditionalGet(svc: Services, seed: number, rounds: number): Promise<Pick<NewsFigures, 'rows' | 'notModifiedShare' | 'unchangedReindexed' | 'editsKeptShare'>> {
  const site = await manualSite(seed, { sites: { news: { validators: true, editShare: 0.3 } } });
  const c = crawl(svc, 'cond', site.frozen);
  try {
    const config = newsPipeline(site.url, 'bench-web-cond', [`web:page:${site.url}/news/`], { stages: '  - { type: content_signature }', sink: ', versioned_indices: [pages]' });
    const t0 = site.frozen.nowMs();
    let prev = new Map((await truthRows<ArticleRow>(site, '/_truth/news/articles')).map((a) => [a.url!, a.versions.length]));
    await c.round(config, true);
    let unchanged = 0;
    let notModified = 0;
    let bytesSaved = 0;
    let revisitRequests = 0;
    const everChanged = new Set<string>();
    for (let r = 1; r < rounds; r++) {
      const since = site.frozen.nowMs();
      site.frozen.advanceMs(DAY_MS + 1000);
      await c.round(config, false);
      const now = new Map((await truthRows<ArticleRow>(site, '/_truth/news/articles')).map((a) => [a.url!, a.versions.length]));
      const log = site.requestLog.entries().filter((e) => e.simMs > since && prev.has(e.url));
      revisitRequests += log.length;
      for (const e of log) {
        if (now.get(e.url) !== prev.get(e.url)) {
          everChanged.add(e.url);
          continue;
        }
        unchanged += 1;
        if (e.status === 304) {
          notModified += 1;
          // What an unconditional GET would have fetched again (the clock is frozen: the same body).
          bytesSaved += (await (await fetch(`${site.url}${e.url}`, { headers: { 'x-client-id': 'bench-measure' } })).arrayBuffer()).byteLength;
        }
      }
      prev = now;
    }
    const tEnd = site.frozen.nowMs();
    const docs = await c.docs<PageDoc>('pages');
    const truth = new Map((await truthRows<ArticleRow>(site, '/_truth/news/articles')).map((a) => [a.url!, a]));
    // Unchanged all along (by the truth): never re-written.
    const neverChanged = docs.filter((d) => !everChanged.has(pathOf(d.source.url)));
    const reindexed = neverChanged.filter((d) => d.version > 1).length;
    // Edits made while monitored (after the first read, up to the last), each to be found as the
    // current text or a kept version, with its time.
    let edits = 0;
    let kept = 0;
    let seenAtVisit = 0;
    const visitTimes = new Map<string, number[]>();
    for (const e of site.requestLog.entries()) visitTimes.set(e.url, [...(visitTimes.get(e.url) ?? []), e.simMs]);
    for (const d of docs) {
      const a = truth.get(pathOf(d.source.url));
      if (!a) continue;
      const held = [{ text: d.source.text ?? '', at: d.source.modified_at }, ...(d.source.versions ?? []).map((v) => ({ text: v.text, at: v.modified_at }))];
      for (const v of a.versions) {
        if (v.version === 0 || v.modifiedMs <= t0 || v.modifiedMs > tEnd) continue;
        edits += 1;
        if (held.some((h) => words(h.text) === words(v.text) && h.at !== undefined && Date.parse(h.at) === v.modifiedMs)) kept += 1;
        // Current at some visit: made before it, and the next version (if any) after it.
        const next = a.versions.find((x) => x.version === v.version + 1);
        if ((visitTimes.get(a.url!) ?? []).some((t) => t >= v.modifiedMs && (next === undefined || t < next.modifiedMs))) seenAtVisit += 1;
      }
    }
    const v = 'conditional-get';
    return {
      rows: [
        row(v, 'revisit_requests', revisitRequests), row(v, 'revisits_unchanged', unchanged), row(v, 'revisits_304', notModified),
        row(v, 'requests_saved', notModified), row(v, 'bytes_saved', bytesSaved), row(v, 'unchanged_pages_reindexed', reindexed),
        row(v, 'edits_while_monitored', edits), row(v, 'edits_current_at_some_visit', seenAtVisit), row(v, 'edits_kept_as_versions', kept),
      ],
      notModifiedShare: unchanged > 0 ? notModified / unchanged : null,
      unchangedReindexed: reindexed,
      editsKeptShare: edits > 0 ? kept / edits : null,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}

/** A broad crawl of a site whose links carry tracking parameters, session ids, AMP copies and dot segments. */
export async function duplicates(svc: Services, seed: number, sessionIds: 'path' | 'query'): Promise<{ rows: ResultRow[]; duplicates: number }> {
  const site = await manualSite(seed, { sites: { news: { trackingLinks: true, sessionIds } } });
  const c = crawl(svc, `dup-${sessionIds}`, site.frozen);
  try {
    await c.round(newsPipeline(site.url, `bench-web-dup-${sessionIds}`, [`web:page:${site.url}/news/`]), true);
    const docs = await c.docs<PageDoc>('pages');
    const live = (await truthRows<ArticleRow>(site, '/_truth/news/articles')).filter((a) => a.status !== 'deleted');
    const byUrl = new Map<string, number>();
    for (const d of docs) byUrl.set(pathOf(d.source.url), (byUrl.get(pathOf(d.source.url)) ?? 0) + 1);
    const dup = docs.length - byUrl.size;
    const missing = live.filter((a) => !byUrl.has(a.url!)).length;
    const v = `noisy-links-session-${sessionIds}`;
    return { rows: [row(v, 'documents', docs.length), row(v, 'canonical_pages', live.length), row(v, 'duplicate_documents', dup), row(v, 'articles_missing', missing), row(v, 'requests', site.requestLog.entries().length)], duplicates: dup + missing };
  } finally {
    await c.cleanup();
    await site.close();
  }
}

/** A broad crawl of a site with an endless calendar, faceted navigation and a repeating path. */
export async function traps(svc: Services, seed: number): Promise<{ rows: ResultRow[]; ratio: number; captured: number }> {
  const site = await manualSite(seed, { sites: { news: { traps: true } } });
  const c = crawl(svc, 'traps', site.frozen);
  try {
    await c.round(newsPipeline(site.url, 'bench-web-traps', [`web:page:${site.url}/news/`]), true);
    const pages = await truthRows<{ url: string; kind: string }>(site, '/_truth/news/pages');
    const real = pages.filter((p) => p.kind === 'index' || p.kind === 'section' || p.kind === 'article').length;
    const fetched = site.requestLog.entries().length;
    const docs = new Set((await c.docs<PageDoc>('pages')).map((d) => pathOf(d.source.url)));
    const articles = pages.filter((p) => p.kind === 'article');
    const captured = articles.filter((p) => docs.has(p.url)).length / articles.length;
    // Which fetches were of real pages (by their canonical form) and which of traps or duplicates.
    const realSet = new Set(pages.filter((p) => p.kind === 'index' || p.kind === 'section' || p.kind === 'article').map((p) => canonicalPath(p.url)));
    const fetchedUrls = site.requestLog.entries().map((e) => canonicalPath(e.url));
    const fetchedReal = new Set(fetchedUrls.filter((u) => realSet.has(u))).size;
    const v = 'trap-site';
    return {
      rows: [
        row(v, 'real_pages', real), row(v, 'pages_fetched', fetched), row(v, 'real_pages_fetched', fetchedReal), row(v, 'other_pages_fetched', fetchedUrls.filter((u) => !realSet.has(u)).length),
        row(v, 'articles', articles.length), row(v, 'articles_captured', captured * articles.length),
      ],
      ratio: fetched / real,
      captured,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}

/**
 * Daily revisits of a site whose articles are deleted (404/410) and moved (301), while 5xx answers
 * and timeouts are injected: every mark must be true; the deletions the crawl could see twice
 * (a grace period apart) should be marked.
 */
export async function deletions(svc: Services, seed: number, rounds: number): Promise<{ rows: ResultRow[]; falseMarks: number }> {
  const site = await manualSite(seed, {
    sites: { news: { validators: true, editShare: 0.2, deleteShare: 0.15, moveShare: 0.1 } },
    faults: { seed, serverErrors: { rate: 0.1, burstLength: 1 }, timeouts: { rate: 0.03, holdMs: 3000 } },
  });
  const c = crawl(svc, 'gone', site.frozen);
  try {
    const config = newsPipeline(site.url, 'bench-web-gone', [`web:page:${site.url}/news/`], {
      parse: '  mark_gone: true\n  deletion_grace_secs: 3600', stages: '  - { type: content_signature }', sink: ', versioned_indices: [pages]',
      fetch: ', headers_timeout_ms: 1000, body_timeout_ms: 1000, total_timeout_ms: 2000, retry: { max_attempts: 1 }',
    });
    for (let r = 0; r < rounds; r++) {
      if (r > 0) site.frozen.advanceMs(DAY_MS + 1000);
      await c.round(config, r === 0);
    }
    const tEnd = site.frozen.nowMs();
    const truth = new Map((await truthRows<ArticleRow>(site, '/_truth/news/articles')).map((a) => [a.originalUrl, a]));
    const docs = (await c.docs<PageDoc>('pages')).map((d) => d.source);
    const deleted = docs.filter((d) => d.status === 'deleted');
    const moved = docs.filter((d) => d.status === 'moved');
    const falseDeleted = deleted.filter((d) => {
      const a = truth.get(pathOf(d.url));
      return !a || a.status !== 'deleted' || a.deletedMs! > Date.parse(d.first_missing_at!);
    }).length;
    const falseMoved = moved.filter((d) => {
      const a = truth.get(pathOf(d.url));
      return !a || a.status !== 'moved' || pathOf(d.moved_to!) !== a.url;
    }).length;
    // Deletions the crawl had indexed and could have seen missing on two daily visits.
    const indexed = new Set(docs.map((d) => pathOf(d.url)));
    const seeable = [...truth.values()].filter((a) => a.status === 'deleted' && indexed.has(a.originalUrl) && a.deletedMs! < tEnd - DAY_MS - 1000);
    const markedSet = new Set(deleted.map((d) => pathOf(d.url)));
    const v = 'deletions-with-5xx-and-timeouts';
    return {
      rows: [
        row(v, 'faulted_requests', site.requestLog.entries().filter((e) => e.fault !== null).length), row(v, 'deleted_marks', deleted.length),
        row(v, 'false_deleted_marks', falseDeleted), row(v, 'moved_marks', moved.length), row(v, 'false_moved_marks', falseMoved),
        row(v, 'deletions_seeable_twice', seeable.length), row(v, 'deletions_marked', seeable.filter((a) => markedSet.has(a.originalUrl)).length),
      ],
      falseMarks: falseDeleted + falseMoved,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}
