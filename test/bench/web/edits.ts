import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { loadPipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { createWorld, startSimsite } from '../../../src/simsite';
import { projectRoot, type ResultRow } from '../lib/results';
import { crawl, HOUR_MS, pathOf, steppedRun, truthRows, words, type ArticleRow, type Services } from './crawl';

type PageDoc = { url: string; text?: string; modified_at?: string; versions?: { text: string; modified_at: string }[] };

/**
 * Article edits caught as the shipped pipelines/news-monitor.yaml runs: its sitemaps (through
 * robots.txt) and feed are subjects the Poisson schedule polls at their own rates, and their
 * lastmod / updated times bring edited articles back at once. Every edit made in the measured
 * window must end up in the index, as the current text or a kept version, with its time.
 */
export async function editsViaSitemaps(svc: Services, seed: number, o: { stepSecs: number; warmupHours: number; measureHours: number; budgetPerHour: number }): Promise<{ rows: ResultRow[]; keptShare: number | null }> {
  const world = createWorld({ seed, users: 200, historyDays: 3 });
  const clock = new ManualClock(world.startMs);
  const site = await startSimsite({ world, clock, port: 0, requestLogMaxEntries: 2_000_000, sites: { news: { validators: true, announceSitemaps: true, editShare: 0.6 } } });
  const c = crawl(svc, 'edits', clock);
  try {
    const shipped = loadPipeline(join(projectRoot(), 'pipelines', 'news-monitor.yaml'), { SIMSITE_URL: site.url });
    const config = {
      ...shipped, name: 'bench-web-edits', source: { ...shipped.source, poll_interval_ms: 10 }, stages: shipped.stages.filter((st) => st.type === 'text_density' || st.type === 'content_signature'),
      schedule: { ...shipped.schedule, budget_per_hour: o.budgetPerHour, refit_interval_secs: 1 } as typeof shipped.schedule,
    };
    const t0 = clock.nowMs();
    const from = t0 + o.warmupHours * HOUR_MS;
    const to = from + o.measureHours * HOUR_MS;
    const built = await buildPipeline(config, { ...c.deps, logger: silentLogger, metrics: createMetrics(), rng: seededRng(seed), sleep: (ms) => sleep(ms) });
    await steppedRun(built, clock, to + HOUR_MS, o.stepSecs);
    await built.close();
    const truth = await truthRows<ArticleRow>(site, '/_truth/news/articles');
    const docs = new Map((await c.docs<PageDoc>('pages')).map((d) => [pathOf(d.source.url), d.source]));
    let edits = 0;
    let kept = 0;
    for (const a of truth) {
      const d = a.url === null ? undefined : docs.get(a.url);
      const held = d ? [{ text: d.text ?? '', at: d.modified_at }, ...(d.versions ?? []).map((v) => ({ text: v.text, at: v.modified_at }))] : [];
      for (const v of a.versions) {
        if (v.version === 0 || v.modifiedMs < from || v.modifiedMs >= to) continue;
        edits += 1;
        if (held.some((h) => words(h.text) === words(v.text) && h.at !== undefined && Date.parse(h.at) === v.modifiedMs)) kept += 1;
      }
    }
    const log = site.requestLog.entries().filter((e) => e.simMs >= from && e.simMs < to);
    const v = 'news-monitor-sitemaps-feed-poisson';
    return {
      rows: [
        { system: 'freshet', variant: v, metric: 'edits', value: edits },
        { system: 'freshet', variant: v, metric: 'edits_kept_as_versions', value: kept },
        { system: 'freshet', variant: v, metric: 'requests_per_hour', value: log.length / o.measureHours },
        { system: 'freshet', variant: v, metric: 'responses_304_share', value: log.length > 0 ? log.filter((e) => e.status === 304).length / log.length : null },
        { system: 'freshet', variant: v, metric: 'sitemap_requests_per_hour', value: log.filter((e) => /sitemap/.test(e.url)).length / o.measureHours },
      ],
      keptShare: edits > 0 ? kept / edits : null,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}
