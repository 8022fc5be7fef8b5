import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { zhihuApiConfigSchema } from '../../../src/parsers/zhihu-api';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { frozenSimsite, MAPPINGS, pipelineFor } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

describe('Q&A crawl (zhihu_api) through the runner', () => {
  it('discovers followees breadth-first from seeds, visits every active member once, records zombies, never pages past is_end', async () => {
    const r = await useRedis('qa');
    const s = await useSearch('qa');
    const site = await frozenSimsite(300, 51);
    try {
      const w = site.world;
      const seeds = w.users.filter((u) => w.followeesOf(u.index).length >= 10).slice(0, 3).map((u) => `zhihu:user:${u.urlToken}`);
      const base = pipelineFor(site, 'qa', seeds);
      const config: PipelineConfig = { ...base, parse: zhihuApiConfigSchema.parse({ type: 'zhihu_api', base_url: site.url, max_users: 120 }) };
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`,
      });
      const summary = await built.runner.run({ untilIdle: true });
      await built.close();
      expect(summary.jobsFailed).toBe(0);

      const log = site.requestLog.entries().map((e) => new URL(e.url, 'http://x'));
      const profiles = log.filter((u) => /^\/api\/v4\/members\/[^/]+$/.test(u.pathname)).map((u) => decodeURIComponent(u.pathname.split('/')[4]!));
      expect(new Set(profiles).size).toBe(profiles.length); // each member visited once
      let active = 0;
      let zombies = 0;
      for (const u of w.users) {
        const st = await built.frontier.getState(`zhihu:user:${u.urlToken}`);
        if (!st) continue;
        if (st.status === 'zombie') {
          zombies += 1;
          expect(profiles).not.toContain(u.urlToken);
          expect(await built.frontier.nextDue(`zhihu:user:${u.urlToken}`)).toBeUndefined();
        } else {
          active += 1;
          expect(profiles).toContain(u.urlToken);
        }
      }
      // Breadth-first: no member of depth d+1 is read before the last of depth d-1.
      const depths: number[] = [];
      for (const t of profiles) depths.push((await built.frontier.getState(`zhihu:user:${t}`))!.depth ?? 0);
      expect(Math.max(...depths)).toBeGreaterThanOrEqual(2);
      for (let level = 1; level <= Math.max(...depths); level++) {
        const firstDeeper = depths.indexOf(level + 1);
        if (firstDeeper >= 0) expect(firstDeeper).toBeGreaterThan(depths.lastIndexOf(level - 1));
      }
      expect(zombies).toBeGreaterThan(0);
      expect(active).toBe(summary.jobs);
      expect(active + zombies).toBeGreaterThanOrEqual(120);
      // Followees pages stop at is_end: never an offset at or past the list's length.
      for (const u of log.filter((x) => x.pathname.endsWith('/followees'))) {
        const token = decodeURIComponent(u.pathname.split('/')[4]!);
        const n = w.followeesOf(w.userByToken(token)!.index).length;
        expect(Number(u.searchParams.get('offset'))).toBeLessThan(Math.max(n, 1));
      }
      await s.client.indices.refresh({ index: indexName(s.prefix, 'users') });
      const users = await s.client.count({ index: indexName(s.prefix, 'users'), query: { term: { platform: 'zhihu' } } });
      expect(users.count).toBe(active + zombies);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
