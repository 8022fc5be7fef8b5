import { CrawlViews, type ServedPipeline } from '../../../../src/cli/serve/crawl-views';
import { freshnessBlock } from '../../../../src/cli/serve/pages/freshness';
import { ManualClock } from '../../../../src/core/clock';
import type { SubjectState } from '../../../../src/core/envelope';
import { parsePipeline } from '../../../../src/pipeline/load';

const HOUR_MS = 3_600_000;

function pipeline(schedule: string): ServedPipeline {
  return {
    config: parsePipeline(`name: fresh
source: { type: redis_frontier }
fetch: { type: http_fetch }
parse: { type: weibo_api, base_url: "http://127.0.0.1:9" }
sink: { type: elasticsearch }
schedule: ${schedule}
`, 'fresh.yaml'),
  } as ServedPipeline;
}

/** A served pipeline whose frontier answers `states` (or fails), counting the reads. */
function withStates(p: ServedPipeline, states: () => Promise<SubjectState[]>): { p: ServedPipeline; reads: () => number } {
  let n = 0;
  const frontier = { frontier: { allStates: () => ((n += 1), states()) } };
  return { p: { ...p, frontier: frontier as unknown as ServedPipeline['frontier'] }, reads: () => n };
}

function visited(nowMs: number, n: number): SubjectState[] {
  return Array.from({ length: n }, (_, i) => ({
    firstSeenMs: nowMs - 200 * HOUR_MS, lastVisitMs: nowMs - (i + 1) * HOUR_MS, postsSeen: 10 + i, visits: 4, failures: 0, status: 'active',
    schedule: { ep: 10 + i, eh: 100 },
  }));
}

describe('freshet serve: the freshness view', () => {
  const poisson = '{ type: poisson, objective: delay, budget_per_hour: 60 }';

  it('computes once for concurrent asks, holds 30 s, then reads again', async () => {
    const clock = new ManualClock(1_000 * HOUR_MS);
    const views = new CrawlViews(undefined as never, clock);
    const states = visited(clock.nowMs(), 20);
    const { p, reads } = withStates(pipeline(poisson), () => Promise.resolve(states));
    const [a, b] = await Promise.all([views.freshness(p), views.freshness(p)]);
    expect(reads()).toBe(1);
    expect(a).toBe(b);
    expect(a.meter!.unindexedPosts).toBeGreaterThan(0);
    clock.advanceMs(29_999);
    await views.freshness(p);
    expect(reads()).toBe(1);
    clock.advanceMs(1);
    const later = await views.freshness(p);
    expect(reads()).toBe(2);
    expect(later.computedAtMs).toBe(clock.nowMs());
    // 30 s more of waiting posts under the same model.
    expect(later.meter!.unindexedPosts).toBeGreaterThan(a.meter!.unindexedPosts);
  });

  it('holds figures that took long to compute 20 times as long (at most ~5 % of the server\'s time)', async () => {
    const clock = new ManualClock(1_000 * HOUR_MS);
    const views = new CrawlViews(undefined as never, clock);
    const states = visited(clock.nowMs(), 5);
    // Reading the states takes 5 s (a large frontier): the figures are held 100 s.
    const { p, reads } = withStates(pipeline(poisson), () => (clock.advanceMs(5_000), Promise.resolve(states)));
    const first = await views.freshness(p);
    clock.advanceMs(99_000);
    expect(await views.freshness(p)).toBe(first);
    expect(reads()).toBe(1);
    clock.advanceMs(1_000);
    await views.freshness(p);
    expect(reads()).toBe(2);
  });

  it('answers the last figures when Redis fails, and the error when there are none', async () => {
    const clock = new ManualClock(1_000 * HOUR_MS);
    const views = new CrawlViews(undefined as never, clock);
    let fail = false;
    const { p } = withStates(pipeline(poisson), () => (fail ? Promise.reject(new Error('Redis: connection refused')) : Promise.resolve(visited(clock.nowMs(), 5))));
    const first = await views.freshness(p);
    fail = true;
    clock.advanceMs(60_000);
    expect(await views.freshness(p)).toBe(first);
    const fresh = new CrawlViews(undefined as never, clock);
    await expect(fresh.freshness(p)).rejects.toThrow(/connection refused/);
  });

  it('does not read the frontier for a schedule without a rate model, and says why', async () => {
    const { p, reads } = withStates(pipeline('{ type: fixed_interval, interval_secs: 3600 }'), () => Promise.resolve([]));
    const f = await new CrawlViews(undefined as never, new ManualClock(0)).freshness(p);
    expect(reads()).toBe(0);
    expect(f).toMatchObject({ schedule: { type: 'fixed_interval' }, meter: null, reason: expect.stringMatching(/not a poisson schedule/) });
    expect(freshnessBlock(f)).toContain('not a poisson schedule (fixed_interval)');
  });

  it('renders the meter with its interval and escapes errors', () => {
    const html = freshnessBlock({
      schedule: { type: 'poisson', objective: 'delay', budgetPerHour: 60, plannedPagesPerHour: 58.04, estimatedPostsPerHour: 12.26, predictedMeanDelayHours: 1.234 },
      meter: { unindexedPosts: 41.6, unindexedLow: 30.2, unindexedHigh: 53.9, unindexedMeanAgeHours: 2.25, predictedMeanDelayHours: 1.234, unvisitedSubjects: 3 },
      computedAtMs: Date.UTC(2026, 0, 1, 12, 30, 5),
    });
    expect(html).toMatch(/~<b data-fresh="unindexedPosts">42<\/b> posts published, not yet indexed\s+\(90 %: <b data-fresh="unindexedLow">30<\/b>–<b data-fresh="unindexedHigh">54<\/b>\)/);
    expect(html).toContain('<b data-fresh="unvisitedSubjects">3</b> subjects not visited yet');
    expect(html).toContain('planned 58.0 of 60 fetches/hour');
    expect(html).toContain('12:30:05 UTC');
    expect(freshnessBlock(new Error('<b>down</b>'))).toBe('<p class="meta">freshness unavailable: &lt;b&gt;down&lt;/b&gt;</p>');
  });
});
