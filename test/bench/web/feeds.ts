import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { createWorld, startSimsite } from '../../../src/simsite';
import type { ResultRow } from '../lib/results';
import { crawl, HOUR_MS, pathOf, steppedRun, truthRows, type ArticleRow, type Services } from './crawl';

/**
 * New articles through the site's RSS feed: freshet is seeded with the feed alone and runs with
 * the Poisson scheduler; the feed's poll interval is what the scheduler makes of the item times it
 * sees. The simulated clock stands still while freshet works and moves `stepSecs` at a time when
 * nothing is due or in flight, so the delay measured is the schedule's: the crawl's own latency
 * (about 0.1 s of real time per article) would be inflated hundreds of times on an accelerated clock.
 * Measured on the articles published between the warm-up and the end: share indexed, and their
 * publication-to-index delay against the feed's mean poll interval over the same window.
 *
 * Publications are a Poisson process, so no schedule can do better than a wait of half the mean
 * interval on average (Σgap²/2Σgap ≥ mean/2); each article's wait is a draw over its gap, and the
 * ratio's sampling error is about 0.29/√n. At the site's default 24 articles a day the window held
 * ~27 articles (±0.055): runs of one seed read 0.43–0.61 with the same schedule. The site here
 * publishes `articlesPerDay` (144 by default: a busy news desk) so the ratio is measured to about
 * ±0.02, with the budget scaled alike (30 pages an hour per article an hour, as before); the delay is split into the wait for the first poll after publication, poll to the
 * article's request, and request to index, and the ratio these polls would give on average is reported.
 */
export async function feeds(svc: Services, seed: number, o: { stepSecs: number; warmupHours: number; measureHours: number; budgetPerHour: number; articlesPerDay: number; retireAfterQuietHours?: number }): Promise<{ rows: ResultRow[]; delayOverInterval: number | null; captured: number | null }> {
  const world = createWorld({ seed, users: 200, historyDays: 3 });
  const clock = new ManualClock(world.startMs);
  const site = await startSimsite({ world, clock, port: 0, requestLogMaxEntries: 1_000_000, sites: { articlesPerDay: o.articlesPerDay, news: { validators: true } } });
  const c = crawl(svc, 'feeds', clock);
  const feed = `${site.url}/news/rss.xml`;
  try {
    const config = parsePipeline(`name: bench-web-feeds
seeds: ["web:feed:${feed}"]
source: { type: redis_frontier, max_in_flight: 16, poll_interval_ms: 10, lease_secs: 86400 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false }
parse:
  type: web_pages
  max_depth: 2
  rules:
    - { name: article, match: { regex: ['/news/\\d+\\.html'] }, page_document: true }
stages:
  - { type: text_density, min_chars: 20 }
  - { type: content_signature }
sink: { type: elasticsearch, replicas: 0, flush_interval_ms: 100, versioned_indices: [pages] }
schedule: { type: poisson, objective: delay, budget_per_hour: ${o.budgetPerHour}, retire_after_quiet_hours: ${o.retireAfterQuietHours ?? 0}, refit_interval_secs: 1 }
`, 'bench-web-feeds.yaml');
    const t0 = clock.nowMs();
    const endMs = t0 + (o.warmupHours + o.measureHours + 1) * HOUR_MS;
    const built = await buildPipeline(config, { ...c.deps, logger: silentLogger, metrics: createMetrics(), rng: seededRng(seed), sleep: (ms) => sleep(ms) });
    await steppedRun(built, clock, endMs, o.stepSecs);
    await built.close();
    const from = t0 + o.warmupHours * HOUR_MS;
    const to = from + o.measureHours * HOUR_MS;
    const polls = site.requestLog.entries().filter((e) => e.url === '/news/rss.xml').map((e) => e.simMs).sort((a, b) => a - b);
    const inWindow = polls.filter((t) => t >= from && t < to);
    const gaps = inWindow.slice(1).map((t, i) => t - inWindow[i]!);
    const meanIntervalMs = gaps.length > 0 ? gaps.reduce((a, b) => a + b, 0) / gaps.length : null;
    // The wait a publication at a random time has until the next poll: Σgap²/(2Σgap), half the mean
    // interval only when the polls are evenly spaced.
    const residualMs = gaps.length > 0 ? gaps.reduce((a, b) => a + b * b, 0) / (2 * gaps.reduce((a, b) => a + b, 0)) : null;
    const articles = (await truthRows<ArticleRow>(site, '/_truth/news/articles')).filter((a) => a.publishedMs >= from && a.publishedMs < to);
    const index = indexName(c.prefix, 'pages');
    await svc.search.indices.refresh({ index });
    // When each page was first indexed (revisits of a versioned page keep it).
    const res = await svc.search.search<{ url: string; first_seen_at: string }>({ index, size: 10_000, _source: ['url', 'first_seen_at'] });
    const crawled = new Map(res.hits.hits.map((h) => [pathOf(h._source!.url), Date.parse(h._source!.first_seen_at)]));
    const delays = articles.filter((a) => crawled.has(a.url!)).map((a) => crawled.get(a.url!)! - a.publishedMs);
    const meanDelayMs = delays.length > 0 ? delays.reduce((a, b) => a + b, 0) / delays.length : null;
    // Where the delay goes: publication → the first poll after it → the article's first request → indexed.
    const firstRequest = new Map<string, number>();
    for (const e of site.requestLog.entries()) if (!firstRequest.has(e.url)) firstRequest.set(e.url, e.simMs);
    const parts = articles.filter((a) => crawled.has(a.url!)).map((a) => {
      const poll = polls.find((t) => t >= a.publishedMs) ?? NaN;
      const fetched = firstRequest.get(a.url!) ?? NaN;
      return { wait: poll - a.publishedMs, toFetch: fetched - poll, toIndex: crawled.get(a.url!)! - fetched };
    });
    const meanOf = (k: 'wait' | 'toFetch' | 'toIndex'): number | null => (parts.length > 0 ? parts.reduce((a, p) => a + p[k], 0) / parts.length : null);
    const captured = articles.length > 0 ? delays.length / articles.length : null;
    // The ratio's sampling error: publications are a Poisson process, so each article's wait is a
    // draw (uniform over the gap it falls in); with n articles the mean wait is known to ±sd/√n.
    const sdDelayMs = delays.length > 1 && meanDelayMs !== null ? Math.sqrt(delays.reduce((a, d) => a + (d - meanDelayMs) ** 2, 0) / (delays.length - 1)) : null;
    const ratioStdErr = sdDelayMs !== null && meanIntervalMs !== null ? sdDelayMs / Math.sqrt(delays.length) / meanIntervalMs : null;
    // The poll interval's drift over the window: the article subjects the feed brings in share
    // its budget, and if old ones keep their share the feed is polled less and less often.
    const meanGapSecs = (lo: number, hi: number): number | null => {
      const ts = polls.filter((t) => t >= lo && t < hi);
      return ts.length > 1 ? (ts[ts.length - 1]! - ts[0]!) / (ts.length - 1) / 1000 : null;
    };
    const articleRequests = site.requestLog.entries().filter((e) => /\/news\/\d+\.html/.test(e.url) && e.simMs >= to - 6 * HOUR_MS && e.simMs < to).length;
    const v = 'rss-feed-poisson';
    const h = (ms: number | null): number | null => (ms === null ? null : ms / HOUR_MS);
    return {
      rows: [
        { system: 'freshet', variant: v, metric: 'articles_published', value: articles.length },
        { system: 'freshet', variant: v, metric: 'articles_indexed', value: delays.length },
        { system: 'freshet', variant: v, metric: 'mean_delay_hours', value: h(meanDelayMs) },
        { system: 'freshet', variant: v, metric: 'mean_feed_poll_interval_hours', value: h(meanIntervalMs) },
        { system: 'freshet', variant: v, metric: 'mean_wait_for_next_poll_hours', value: h(residualMs) },
        { system: 'freshet', variant: v, metric: 'mean_wait_for_first_poll_after_publication_hours', value: h(meanOf('wait')) },
        { system: 'freshet', variant: v, metric: 'mean_poll_to_article_request_hours', value: h(meanOf('toFetch')) },
        { system: 'freshet', variant: v, metric: 'mean_article_request_to_index_hours', value: h(meanOf('toIndex')) },
        { system: 'freshet', variant: v, metric: 'delay_over_interval_std_error', value: ratioStdErr },
        { system: 'freshet', variant: v, metric: 'expected_delay_over_interval_for_these_polls', value: residualMs !== null && meanIntervalMs !== null ? residualMs / meanIntervalMs : null },
        { system: 'freshet', variant: v, metric: 'feed_polls', value: inWindow.length },
        { system: 'freshet', variant: v, metric: 'feed_poll_interval_secs_first_6h', value: meanGapSecs(from, from + 6 * HOUR_MS) },
        { system: 'freshet', variant: v, metric: 'feed_poll_interval_secs_last_6h', value: meanGapSecs(to - 6 * HOUR_MS, to) },
        { system: 'freshet', variant: v, metric: 'article_requests_per_hour_last_6h', value: articleRequests / 6 },
        { system: 'freshet', variant: v, metric: 'requests_total', value: site.requestLog.entries().length },
      ],
      delayOverInterval: meanDelayMs !== null && meanIntervalMs !== null ? meanDelayMs / meanIntervalMs : null,
      captured,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}
