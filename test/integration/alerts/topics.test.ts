import { join } from 'node:path';
import { checkTopicAlerts, topicAlertSchema, type TopicNotification } from '../../../src/alerts/topic-alerts';
import { AlertMonitor, pipelineAlertsSchema } from '../../../src/alerts/monitor';
import type { Notification } from '../../../src/alerts/notify';
import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { scanTopics, writeTopics } from '../../../src/alerts/topics';
import { jiebaDicts, jiebaModule } from '../../../src/enrichers/jieba';
import { applyTemplates, indexName, loadTemplates } from '../../../src/search/templates';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');
const MIN = 60_000;
const NOW_MS = Date.parse('2026-04-10T12:00:00Z');

/** Six hours of everyday posts by 300 authors, and in the last 40 minutes a new hashtag taken up by 30 others. */
function posts(): Record<string, unknown>[] {
  const everyday = ['今天天气不错，出去走走', '午饭吃了牛肉面', '下班路上有点堵车', 'Coffee first, then work', 'Gym after work today', '周末去看电影'];
  const out: Record<string, unknown>[] = [];
  let n = 0;
  for (let t = NOW_MS - 6 * 60 * MIN; t < NOW_MS; t += 30_000, n++) {
    const text = everyday[n % everyday.length]!;
    out.push({ platform: 'weibo', id: `p${n}`, text, lang: /[a-z]/i.test(text) ? 'en' : 'zh', created_at: new Date(t).toISOString(), author: { id: `a${n % 300}` }, sentiment: { score: 0, label: 'neutral' } });
  }
  for (let i = 0; i < 30; i++) {
    const negative = i % 3 !== 0;
    out.push({
      platform: 'weibo', id: `b${i}`, text: `#城南地铁三号线#三号线今早停了，${negative ? '太耽误事了' : '工作人员很耐心'}`, lang: 'zh',
      created_at: new Date(NOW_MS - 40 * MIN + i * 40_000).toISOString(), author: { id: `fan${i}` },
      sentiment: { score: negative ? -0.8 : 0.8, label: negative ? 'negative' : 'positive' }, ...(i > 0 && i % 5 === 0 ? { dup_of: 'weibo:b0' } : {}),
    });
  }
  return out;
}

describe('freshet topics over the posts index (real search node)', () => {
  let s: TestSearch;
  let postsIndex: string;
  let topicsIndex: string;
  const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
  const segment = (t: string): string[] => jieba.cut(t, true);

  beforeAll(async () => {
    s = await useSearch('topics');
    await applyTemplates(s.client, loadTemplates(MAPPINGS), { prefix: s.prefix, settings: { number_of_replicas: 0 } });
    postsIndex = indexName(s.prefix, 'posts');
    topicsIndex = indexName(s.prefix, 'topics');
    await s.client.helpers.bulk({ datasource: posts(), onDocument: (d) => ({ index: { _index: postsIndex, _id: `weibo:${String(d['id'])}` } }), refreshOnCompletion: postsIndex });
  });
  afterAll(async () => s.cleanup());

  const scan = (maxPosts = 100_000) => scanTopics(s.client, { index: postsIndex, sinceMs: NOW_MS - 2 * 60 * MIN, nowMs: NOW_MS, backgroundMs: 4 * 60 * MIN, maxPosts, segment, limit: 10 });

  it('finds the new hashtag and no everyday words, with its sentiment mix, and writes it as a document', async () => {
    const r = await scan();
    expect(r.postsRead).toBe(6 * 120 + 30);
    expect(r.truncated).toBe(false);
    expect(r.topics.map((t) => t.label)).toEqual(['#城南地铁三号线']);
    const t = r.topics[0]!;
    expect(t.firstSeenMs).toBeGreaterThanOrEqual(NOW_MS - 40 * MIN);
    expect(t.firstSeenMs).toBeLessThanOrEqual(NOW_MS - 20 * MIN);
    expect(t.posts).toBe(30);
    expect(t.sentiment).toEqual({ positive: 10, neutral: 0, negative: 20 });
    expect(t.topPosts[0]).toEqual({ id: 'weibo:b0', copies: 6 });
    await writeTopics(s.client, topicsIndex, r.topics, NOW_MS);
    const doc = await s.client.get<Record<string, unknown>>({ index: topicsIndex, id: t.id });
    expect(doc._source).toMatchObject({ label: '#城南地铁三号线', posts: 30, sentiment: { positive: 10, neutral: 0, negative: 20 }, detected_at: new Date(NOW_MS).toISOString() });
    expect((doc._source!['volume'] as unknown[]).length).toBeGreaterThan(1);
    // A re-run over the same posts rewrites the same document.
    await writeTopics(s.client, topicsIndex, (await scan()).topics, NOW_MS);
    expect((await s.client.count({ index: topicsIndex })).count).toBe(1);
  });

  it('notifies a matching topic alert once, and not a non-matching one', async () => {
    const r: TestRedis = await useRedis('topic-alerts');
    try {
      const sent: TopicNotification[] = [];
      const alerts = [
        topicAlertSchema.parse({ name: 'subway', keywords: ['地铁'], sentiment: 'negative', min_share: 0.5, window_minutes: 120, background_hours: 4 }),
        topicAlertSchema.parse({ name: 'happy-subway', keywords: ['地铁'], sentiment: 'positive', min_share: 0.5, window_minutes: 120, background_hours: 4 }),
        topicAlertSchema.parse({ name: 'big', min_posts: 100, window_minutes: 120, background_hours: 4 }),
      ];
      const pass = () => checkTopicAlerts({ client: s.client, redis: r.redis, postsIndex, keyPrefix: r.prefix, alerts, nowMs: NOW_MS, segment, notify: async (n) => { sent.push(n); } });
      expect(await pass()).toBe(1);
      expect(sent).toEqual([expect.objectContaining({ alert: 'subway', kind: 'topic', topic: '#城南地铁三号线', posts: 30, sentiment: { positive: 10, neutral: 0, negative: 20 } })]);
      expect(await pass()).toBe(0);
      // A failed delivery is retried at the next pass.
      const failing = { ...alerts[0]!, name: 'subway-2' };
      await expect(checkTopicAlerts({ client: s.client, redis: r.redis, postsIndex, keyPrefix: r.prefix, alerts: [failing], nowMs: NOW_MS, segment, notify: async () => { throw new Error('webhook down'); } })).rejects.toThrow('webhook down');
      expect(await checkTopicAlerts({ client: s.client, redis: r.redis, postsIndex, keyPrefix: r.prefix, alerts: [failing], nowMs: NOW_MS, segment, notify: async (n) => { sent.push(n); } })).toBe(1);
    } finally {
      await r.cleanup();
    }
  });

  it('a pipeline\'s alerts: section notifies a topic alert once (its last pass on stop)', async () => {
    const r: TestRedis = await useRedis('topic-monitor');
    try {
      const sent: Notification[] = [];
      const config = pipelineAlertsSchema.parse({ ndjson: 'unused.ndjson', topics: [{ name: 'subway', keywords: ['三号线'], window_minutes: 120, background_hours: 4 }] });
      const monitor = new AlertMonitor(config, {
        client: s.client, redis: r.redis, postsIndex, alertsIndex: indexName(s.prefix, 'alerts-topics'), mappingsDir: MAPPINGS, keyPrefix: r.prefix,
        pipeline: 'p', notify: async (n) => { sent.push(n); }, clock: new ManualClock(NOW_MS), logger: silentLogger,
      });
      await monitor.start();
      await monitor.stop();
      expect(sent).toEqual([expect.objectContaining({ alert: 'subway', kind: 'topic', topic: '#城南地铁三号线' })]);
    } finally {
      await r.cleanup();
    }
  });

  it('shortens the background, not the window, to stay within --max-posts', async () => {
    const r = await scan(400);
    expect(r.truncated).toBe(true);
    expect(r.postsRead).toBeLessThanOrEqual(400);
    expect(r.postsRead).toBeGreaterThanOrEqual(2 * 120 + 30);
  });
});

describe('a topic\'s own terms are not opinion in its sentiment mix (real search node)', () => {
  let s: TestSearch;
  let postsIndex: string;
  const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
  const segment = (t: string): string[] => jieba.cut(t, true);

  /** Everyday posts, then 30 posts of a library's opening hours (开放时间: 开放 is a positive HowNet word) labelled as the sentiment stage would. */
  function libraryPosts(): Record<string, unknown>[] {
    const everyday = ['今天天气不错，出去走走', '午饭吃了牛肉面', '下班路上有点堵车', '周末去看电影'];
    const out: Record<string, unknown>[] = [];
    let n = 0;
    for (let t = NOW_MS - 6 * 60 * MIN; t < NOW_MS; t += 30_000, n++) {
      out.push({ platform: 'weibo', id: `p${n}`, text: everyday[n % everyday.length], lang: 'zh', created_at: new Date(t).toISOString(), author: { id: `a${n % 300}` }, sentiment: { score: 0, label: 'neutral', confidence: 0.5 } });
    }
    for (let i = 0; i < 30; i++) {
      const glad = i % 3 === 0;
      out.push({
        platform: 'weibo', id: `lib${i}`, text: `#城市图书馆新馆#开放时间，${glad ? '今天太开心了' : '周三下午两点开会'}`, lang: 'zh',
        created_at: new Date(NOW_MS - 40 * MIN + i * 40_000).toISOString(), author: { id: `reader${i}` },
        // Low-confidence positive calls, kept by the stage's opinion gate on the strength of 开放.
        sentiment: { score: 0.6, label: 'positive', confidence: 0.8 },
      });
    }
    return out;
  }

  beforeAll(async () => {
    s = await useSearch('topics-own-terms');
    await applyTemplates(s.client, loadTemplates(MAPPINGS), { prefix: s.prefix, settings: { number_of_replicas: 0 } });
    postsIndex = indexName(s.prefix, 'posts');
    await s.client.helpers.bulk({ datasource: libraryPosts(), onDocument: (d) => ({ index: { _index: postsIndex, _id: `weibo:${String(d['id'])}` } }), refreshOnCompletion: postsIndex });
  });
  afterAll(async () => s.cleanup());

  it('counts a post whose only opinion word is inside the topic\'s phrase neutral, and one with its own opinion as labelled', async () => {
    const r = await scanTopics(s.client, { index: postsIndex, sinceMs: NOW_MS - 2 * 60 * MIN, nowMs: NOW_MS, backgroundMs: 4 * 60 * MIN, maxPosts: 100_000, segment, limit: 10 });
    const t = r.topics.find((x) => x.label === '#城市图书馆新馆')!;
    expect(t.terms).toEqual(expect.arrayContaining(['开放时间']));
    expect(t.sentiment).toEqual({ positive: 10, neutral: 20, negative: 0 });
  });
});
