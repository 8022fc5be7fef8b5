import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { buildPipeline } from '../../../src/runner/build';
import { RECHECK_HOURS } from '../../../src/schedule/core-bridge';
import { MAPPINGS, frozenSimsite, pipelineFor, seedsOf } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

const H = 3_600_000;

describe('the runner asks the poisson schedule before visiting a claimed subject', () => {
  it('defers a stale due time without fetching, and visits once the planned time has come', async () => {
    const r = await useRedis('recheck');
    const s = await useSearch('recheck');
    const site = await frozenSimsite(40, 31);
    try {
      const base = pipelineFor(site, 'recheck', seedsOf(site));
      const poisson = (budgetPerHour: number) => ({
        ...base,
        schedule: { type: 'poisson' as const, objective: 'delay' as const, budget_per_hour: budgetPerHour, max_visit_interval_hours: 720, min_visit_interval_minutes: 5, page_size: 10, page_limit: 10, time_of_day: false, half_life_hours: 336, forgetting: "auto" as const, recent_half_life_visits: 1, change_probability: 0.3, prior: "mixture" as const, change_sigma: 1.5, retire_after_quiet_hours: 0, refit_interval_secs: 300 },
      });
      // The crawler's clock stands still unless the test moves it (the site's clock is the same one).
      const pipeline = (budgetPerHour: number) => buildPipeline(poisson(budgetPerHour), {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}frontier`,
      });
      const subjects = seedsOf(site);
      // A generous budget writes short intervals (40 subjects, 400 visits an hour)...
      const generous = await pipeline(400);
      const t0 = site.frozen.nowMs();
      const first = await generous.runner.run({ untilIdle: true });
      await generous.close();
      expect(first.jobs).toBe(40);
      let latestDue = 0;
      for (const subject of subjects) latestDue = Math.max(latestDue, (await generous.frontier.nextDue(subject))!);
      expect(latestDue - t0).toBeLessThan(RECHECK_HOURS * H);

      // ...then the budget drops to one visit an hour: every due time written is stale.
      const built = await pipeline(1);
      site.frozen.advanceMs(latestDue - t0 + 1);
      const now = site.frozen.nowMs();
      const requestsBefore = site.requestLog.entries().length;
      const second = await built.runner.run({ untilIdle: true });
      expect(second.jobs).toBe(0);
      expect(second.requests).toBe(0);
      expect(site.requestLog.entries().length).toBe(requestsBefore);
      let capped = 0;
      for (const subject of subjects) {
        const st = (await built.frontier.getState(subject))!;
        expect(st.visits).toBe(1);
        expect(st.lastVisitMs).toBeLessThanOrEqual(t0);
        const due = (await built.frontier.nextDue(subject))!;
        expect(due).toBeGreaterThan(now);
        expect(due - now).toBeLessThanOrEqual(RECHECK_HOURS * H);
        // The interval now planned, not the old one, is what the queue is said to hold.
        const iv = st.schedule!['iv'] as number;
        expect(iv).toBeGreaterThan((latestDue - t0) / H);
        if (iv > (now - t0) / H + RECHECK_HOURS) capped += 1;
      }
      expect(capped).toBeGreaterThan(5);

      // Past every planned interval (at most 720 h): all are visited, none deferred.
      await built.close();
      site.frozen.advanceMs(721 * H);
      const later = await pipeline(1);
      const third = await later.runner.run({ untilIdle: true });
      await later.close();
      expect(third.jobs).toBe(40);
      expect(third.requests).toBeGreaterThanOrEqual(40);
      for (const subject of subjects) expect((await later.frontier.getState(subject))!.visits).toBe(2);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
