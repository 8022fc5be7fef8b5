import { scanTopics } from '../../../src/alerts/topics';
import { jiebaDicts, jiebaModule } from '../../../src/enrichers/jieba';
import { indexName } from '../../../src/search/templates';
import { createWorld, DEFAULT_START_MS } from '../../../src/simsite/world';
import type { BreakoutSpec } from '../../../src/simsite/breakouts';
import { build, frozenSimsite, pipelineFor, seedsOf } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const MIN = 60_000;

/** One break-out that started 45 minutes before the frozen "now" of the site. */
const SPEC: BreakoutSpec = {
  name: 'e2e', lang: 'zh', hashtag: '城南地铁三号线', phrases: ['三号线', '城南站', '地铁公告'], startMs: DEFAULT_START_MS - 45 * MIN,
  seeds: 4, fanProbability: 0.5, meanDelayMs: 4 * MIN, mix: { positive: 0.2, negative: 0.6, neutral: 0.2 }, maxPosts: 120, horizonMs: 45 * MIN,
};

describe('a simsite break-out, crawled, enriched and indexed, comes out of freshet topics (real services)', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: Awaited<ReturnType<typeof frozenSimsite>>;

  beforeAll(async () => {
    r = await useRedis('topics-e2e');
    s = await useSearch('topics-e2e');
    const world = createWorld({ seed: 7, users: 200, historyDays: 2, breakouts: [SPEC] });
    site = await frozenSimsite(200, 7, { world });
    const config = pipelineFor(site, 'topics-e2e', seedsOf(site), 'stages:\n  - { type: language }\n  - { type: sentiment }\n  - { type: simhash }\n');
    const built = await build(config, r.redis, s.client, s.prefix);
    await built.runner.run({ untilIdle: true });
    await built.close();
    await s.client.indices.refresh({ index: `${s.prefix}*` });
  }, 180_000);
  afterAll(async () => {
    await site.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('finds the break-out\'s hashtag as the one emerging topic, within 15 minutes of its start, with its posts', async () => {
    const truth = site.world.breakoutPosts().get('e2e')!.filter((p) => p.createdMs <= site.frozen.nowMs());
    expect(truth.length).toBeGreaterThan(20);
    const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
    const scan = await scanTopics(s.client, {
      index: indexName(s.prefix, 'posts'), sinceMs: site.frozen.nowMs() - 2 * 60 * MIN, nowMs: site.frozen.nowMs(), backgroundMs: 24 * 60 * MIN,
      maxPosts: 100_000, segment: (t) => jieba.cut(t, true), limit: 10,
    });
    expect(scan.topics.map((t) => t.label)).toEqual(['#城南地铁三号线']);
    const topic = scan.topics[0]!;
    expect(topic.firstSeenMs - SPEC.startMs).toBeLessThanOrEqual(15 * MIN);
    // The topic's posts are the break-out's (reposts of them may add a few).
    const ids = new Set(truth.map((p) => `weibo:${site.world.postOfBreakout(p).id}`));
    expect(topic.topPosts.every((p) => ids.has(p.id))).toBe(true);
    expect(topic.posts).toBeGreaterThanOrEqual(truth.length * 0.8);
  });
});
