import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { recordingLogger, type LogRecord } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { ajaxPostTruth, ajaxThreadUrl, AjaxSite } from '../../../src/simsite/pages/ajax';
import { ForumWorld } from '../../../src/simsite/pages/forum-world';
import { frozenSimsite, MAPPINGS } from '../../helpers/crawl';
import { deadLetterKey } from '../../../src/sources/frontier/keys';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

type Site = Awaited<ReturnType<typeof frozenSimsite>>;

/** A web_pages pipeline over script-loaded thread pages; `render` adds the fetch.render block. */
function pipeline(site: Site, name: string, seeds: string[], render: string): ReturnType<typeof parsePipeline> {
  return parsePipeline(`name: ${name}
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, shards: 2, max_in_flight: 4, poll_interval_ms: 50, lease_secs: 30 }
fetch:
  type: http_fetch
  allow_private_networks: true
  respect_robots: true
  retry: { max_attempts: 4, base_delay_ms: 50, max_delay_ms: 200 }
${render}
parse:
  type: web_pages
  max_depth: 0
  rules:
    - name: ajax-thread
      match: { regex: ['/ajax/thread-\\d+\\.html$'] }
      list:
        selector: article.post
        required: [text]
        fields:
          id: { selector: header, type: attr, attr: data-pid }
          author: { selector: .author }
          created_at: { selector: time, type: attr, attr: datetime, date: true }
          text: { selector: .content }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, `${name}.yaml`);
}

const RENDER = `  render:
    url_patterns: ['/ajax/thread-']
    max_pages: 2
    page_timeout_ms: 15000
    wait: { selector: '#posts[data-state=loaded]' }`;

/** Thread ids with a few posts each (small pages keep the test fast). */
function threads(site: Site, n: number): number[] {
  const ajax = new AjaxSite(site.world, new ForumWorld(site.world, 40));
  return ajax.threads(site.clock.nowMs()).filter((t) => ajax.posts(t, site.clock.nowMs()).length <= 12).slice(0, n).map((t) => t.tid);
}

function truth(site: Site, tids: number[]): Map<string, { author: string; text: string; createdAt: string }> {
  const forum = new ForumWorld(site.world, 40);
  const ajax = new AjaxSite(site.world, forum);
  const out = new Map<string, { author: string; text: string; createdAt: string }>();
  for (const tid of tids) {
    for (const p of ajaxPostTruth(ajax, forum, site.clock.nowMs(), tid)) out.set(String(p['pid']), { author: p['author'] as string, text: p['text'] as string, createdAt: p['createdAt'] as string });
  }
  return out;
}

async function crawl(site: Site, r: TestRedis, s: TestSearch, name: string, seeds: string[], render: string, logs: LogRecord[], during?: () => Promise<void>) {
  const metrics = createMetrics();
  const built = await buildPipeline(pipeline(site, name, seeds, render), {
    redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
    logger: recordingLogger(logs), metrics, sleep: (ms) => sleep(ms), namespace: `${r.prefix}:${name}`,
  });
  try {
    const running = built.runner.run({ untilIdle: true });
    if (during) await during();
    const summary = await running;
    const dead = await r.redis.xlen(deadLetterKey(`${r.prefix}:${name}`));
    return { summary, dead, built, metrics: await metrics.registry.metrics() };
  } finally {
    await built.close();
  }
}

async function indexed(s: TestSearch): Promise<Map<string, { author?: { name?: string }; text: string; created_at?: string }>> {
  const index = indexName(s.prefix, 'posts');
  // No document at all: the index was never created.
  if (!(await s.client.indices.exists({ index }))) return new Map();
  await s.client.indices.refresh({ index });
  const res = await s.client.search<{ id: string; author?: { name?: string }; text: string; created_at?: string }>({ index, size: 1000, query: { term: { platform: 'web' } } });
  return new Map(res.hits.hits.map((h) => [h._source!.id, h._source!]));
}

/** Chromium processes this test process started (other test files may run browsers too). */
function ownBrowsers(): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      const ppid = Number(readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === process.pid && argv.some((a) => a.startsWith('--user-data-dir=') && a.includes('freshet-chromium-'))) out.push(Number(e));
    } catch {
      // Gone in between.
    }
  }
  return out;
}

describe('render fetch mode over script-loaded pages', () => {
  it('indexes every post of the script-loaded pages with render, and none without', async () => {
    const r = await useRedis('render-crawl');
    const s = await useSearch('render-crawl');
    const site = await frozenSimsite(200, 11);
    try {
      const tids = threads(site, 5);
      const want = truth(site, tids);
      expect(want.size).toBeGreaterThan(5);
      const seeds = tids.map((t) => `web:page:${site.url}${ajaxThreadUrl(t)}`);

      const plainLogs: LogRecord[] = [];
      const plain = await crawl(site, r, s, 'plain', seeds, '', plainLogs);
      expect(plain.summary.jobs).toBe(tids.length);
      expect(plain.summary.jobsFailed).toBe(0);
      expect((await indexed(s)).size).toBe(0);
      // A plain fetch never runs the script: no API call.
      expect(site.requestLog.entries().filter((e) => e.url.startsWith('/ajax/api/'))).toHaveLength(0);

      const logs: LogRecord[] = [];
      const rendered = await crawl(site, r, s, 'rendered', seeds, RENDER, logs);
      expect(rendered.summary.jobsFailed).toBe(0);
      expect(rendered.dead).toBe(0);
      const got = await indexed(s);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [pid, p] of want) {
        const d = got.get(pid)!;
        expect(d.author?.name).toBe(p.author);
        expect(d.text).toBe(p.text);
        expect(d.created_at).toBe(p.createdAt);
      }
      const urls = site.requestLog.entries().map((e) => e.url);
      // The script's API calls went out (through the plain fetcher); blocked resources never did.
      expect(urls.filter((u) => u.startsWith('/ajax/api/'))).toHaveLength(tids.length);
      expect(urls.filter((u) => u.startsWith('/ajax/static/'))).toHaveLength(0);
      expect(ownBrowsers()).toHaveLength(0); // closed with the pipeline
      // Exported on the pipeline's registry.
      expect(rendered.metrics).toContain(`freshet_render_pages_total{outcome="ok"} ${tids.length}`);
      expect(rendered.metrics).toContain(`freshet_render_blocked_total{reason="image"} ${tids.length}`);
      expect(rendered.metrics).toContain('freshet_render_browser_events_total{event="launch"} 1');
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
  it('survives the browser being killed mid-crawl: a new browser renders the rest and nothing is lost', async () => {
    const r = await useRedis('render-kill');
    const s = await useSearch('render-kill');
    const site = await frozenSimsite(200, 12);
    try {
      const tids = threads(site, 10);
      const want = truth(site, tids);
      const seeds = tids.map((t) => `web:page:${site.url}${ajaxThreadUrl(t)}`);
      const logs: LogRecord[] = [];
      // A pause per page keeps pages open when the kill lands.
      const render = RENDER.replace("wait: { selector: '#posts[data-state=loaded]' }", "wait: { selector: '#posts[data-state=loaded]', delay_ms: 300 }");
      let killed: number[] = [];
      const { summary, dead, metrics } = await crawl(site, r, s, 'kill', seeds, render, logs, async () => {
        const apiCalls = () => site.requestLog.entries().filter((e) => e.url.startsWith('/ajax/api/')).length;
        while (apiCalls() < 3) await sleep(20);
        killed = ownBrowsers();
        for (const pid of killed) process.kill(pid, 'SIGKILL');
      });
      expect(killed.length).toBeGreaterThan(0);
      expect(summary.jobsFailed).toBe(0);
      expect(dead).toBe(0);
      const got = await indexed(s);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      // The crash was seen and a second browser started.
      expect(logs.filter((l) => l.msg === 'render: browser started').length).toBeGreaterThanOrEqual(2);
      expect(logs.some((l) => l.msg.startsWith('render: the browser went away'))).toBe(true);
      expect(metrics).toContain('freshet_render_browser_events_total{event="restart_crashed"} 1');
      expect(ownBrowsers()).toHaveLength(0);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
