import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { buildPipeline } from '../../../src/runner/build';
import type { RunSummary } from '../../../src/runner/types';
import { poissonScheduleSchema } from '../../../src/schedule/refit';
import { selfTuningConfigSchema } from '../../../src/limits/self-tuning';
import { weiboMonitorConfigSchema } from '../../../src/parsers/weibo/monitor-visit';
import type { FrontierStats } from '../../../src/sources/contract';
import { serveMetrics } from '../../../src/cli/metrics-server';
import { frozenSimsite, MAPPINGS, pipelineFor, seedsOf } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';
import { freePort } from '../../helpers/ports';

const ROOT = join(__dirname, '..', '..', '..');
interface Panel { title: string; datasource: { uid: string }; targets: { expr: string; datasource: { uid: string } }[] }
const dashboard = JSON.parse(readFileSync(join(ROOT, 'grafana', 'dashboards', 'freshet-crawl.json'), 'utf8')) as { uid: string; panels: Panel[] };
const hasPrometheus = spawnSync('prometheus', ['--version']).status === 0;
// scripts/test.sh installs prometheus (scripts/lib/ensure-prometheus.sh): there, and under CI, a
// missing one is a failure, not a skip. A bare `npx jest` elsewhere still skips.
const requirePrometheus = process.env['FRESHET_REQUIRE_PROMETHEUS'] === '1' || Boolean(process.env['CI']);


async function promQuery(base: string, expr: string): Promise<{ status: string; data: { result: unknown[] } }> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
  return (await res.json()) as { status: string; data: { result: unknown[] } };
}

describe('grafana/ dashboards', () => {
  it('use the provisioned Prometheus datasource in every panel and target', () => {
    const ds = readFileSync(join(ROOT, 'grafana', 'provisioning', 'datasources', 'prometheus.yaml'), 'utf8');
    expect(ds).toContain('uid: freshet-prometheus');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const p of dashboard.panels) {
      expect([p.title, p.datasource.uid]).toEqual([p.title, 'freshet-prometheus']);
      for (const t of p.targets) expect(t.datasource.uid).toBe('freshet-prometheus');
    }
  });

  if (!hasPrometheus && requirePrometheus) {
    it('finds Debian\'s prometheus (installed by scripts/lib/ensure-prometheus.sh)', () => {
      expect(hasPrometheus).toBe(true);
    });
  }

  (hasPrometheus ? describe : describe.skip)('every panel query returns data from Debian prometheus scraping a real crawl', () => {
    let r: TestRedis;
    let s: TestSearch;
    let site: Awaited<ReturnType<typeof frozenSimsite>>;
    let metricsServer: Server;
    let prom: ChildProcess;
    let promUrl: string;
    let dir: string;
    let summary: RunSummary;
    let frontierStats: FrontierStats;

    beforeAll(async () => {
      r = await useRedis('grafana');
      s = await useSearch('grafana');
      site = await frozenSimsite(30, 5);
      const metrics = createMetrics();
      metricsServer = await serveMetrics(metrics.registry, 0);
      const metricsPort = (metricsServer.address() as AddressInfo).port;
      dir = mkdtempSync(join(tmpdir(), 'freshet-prom-'));
      writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: freshet\n    static_configs:\n      - targets: ['127.0.0.1:${metricsPort}']\n`);
      const promPort = await freePort();
      promUrl = `http://127.0.0.1:${promPort}`;
      prom = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`], { stdio: 'ignore' });
      for (let i = 0; i < 100; i++) {
        if (await fetch(`${promUrl}/-/ready`).then((x) => x.ok, () => false)) break;
        await sleep(200);
      }
      // The poisson schedule, so that the budget and predicted-delay panels have a plan to show.
      // Deletion monitoring (the completeness panels) and self-tuning politeness (the learned-rate panel), too.
      const base = pipelineFor(site, 'grafana', seedsOf(site), 'stages:\n  - { type: language }\n  - { type: sentiment }\n');
      if (base.parse.type !== 'weibo_api') throw new Error('pipelineFor gives a weibo_api pipeline');
      const config = {
        ...base,
        parse: { ...base.parse, monitor: weiboMonitorConfigSchema.parse({ ledger_gauge_secs: 10 }) },
        politeness: { ...base.politeness, self_tuning: selfTuningConfigSchema.parse({ initial_rate_per_sec: 50, max_rate_per_sec: 200 }) },
        schedule: poissonScheduleSchema.parse({ type: 'poisson', budget_per_hour: 600, page_size: 10 }),
      };
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: systemClock, rng: seededRng(1),
        logger: silentLogger, metrics, sleep: (ms) => sleep(ms), namespace: `${r.prefix}frontier`, gaugeIntervalMs: 500,
      });
      summary = await built.runner.run({ untilIdle: true });
      frontierStats = await built.counts.stats();
      await built.close();
      // Wait for a scrape taken after the crawl ended (the instant queries below read the latest
      // sample; one scraped mid-crawl holds partial counts), and enough samples for rate() windows.
      const endedSec = Date.now() / 1000;
      const latest = async (expr: string): Promise<number> => {
        const q = await promQuery(promUrl, expr);
        return Number((q.data.result[0] as { value?: [number, string] } | undefined)?.value?.[1] ?? NaN);
      };
      for (let i = 0; i < 200; i++) {
        const scrapedAfter = (await latest('min(timestamp(freshet_jobs_claimed_total))')) > endedSec + 1;
        if (scrapedAfter && (await latest('count_over_time(freshet_jobs_claimed_total[1m])')) >= 4) break;
        await sleep(300);
      }
    }, 120_000);
    afterAll(async () => {
      prom?.kill('SIGTERM');
      await new Promise((resolve) => metricsServer?.close(resolve));
      await site?.close();
      await s?.cleanup();
      await r?.cleanup();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers every target expression with at least one series', async () => {
      for (const p of dashboard.panels) {
        for (const t of p.targets) {
          const expr = t.expr.replace(/\$__rate_interval/g, '1m');
          const q = await promQuery(promUrl, expr);
          expect([p.title, expr, q.status, q.data.result.length > 0]).toEqual([p.title, expr, 'success', true]);
        }
      }
    });

    it('shows every stage of the pipeline, and frontier and schedule gauges that agree with the crawl', async () => {
      const series = async (expr: string) => (await promQuery(promUrl, expr)).data.result as { metric: Record<string, string>; value: [number, string] }[];
      const value = async (expr: string) => Number((await series(expr))[0]?.value[1]);
      const stages = (await series('sum by (stage) (freshet_stage_received_total)')).map((x) => x.metric['stage']).sort();
      expect(stages).toEqual(['elasticsearch', 'language', 'sentiment', 'weibo_api']);
      // Nothing dropped: every stage passed on what it received, and the sink settled every document.
      const docs = summary.documents.indexed;
      expect(docs).toBeGreaterThan(0);
      for (const stage of ['language', 'sentiment', 'elasticsearch']) {
        expect([stage, await value(`sum(freshet_stage_received_total{stage="${stage}"})`), await value(`sum(freshet_stage_sent_total{stage="${stage}"})`)]).toEqual([stage, docs, docs]);
      }
      expect(await value('sum(freshet_stage_received_total{stage="weibo_api"})')).toBe(summary.jobs);
      expect(await value('sum(freshet_stage_sent_total{stage="weibo_api"})')).toBe(docs);
      // Every 8th document is timed in a document stage.
      expect(await value('sum(freshet_stage_duration_seconds_count{stage="sentiment"})')).toBe(Math.ceil(docs / 8));
      expect(await value('max(freshet_frontier_subjects)')).toBe(frontierStats.subjects);
      expect(await value('max(freshet_frontier_scheduled)')).toBe(frontierStats.due);
      expect(await value('max(freshet_frontier_leased)')).toBe(0);
      expect(await value('max(freshet_schedule_budget_pages_per_hour)')).toBe(600);
      const delay = await value('max(freshet_schedule_predicted_delay_seconds)');
      expect(delay).toBeGreaterThan(0);
      expect(Number.isFinite(delay)).toBe(true);
      expect(await value('sum(freshet_bulk_duration_seconds_count)')).toBe(await value('sum(freshet_bulk_requests_total{outcome="ok"})'));
      // The ledger polls once more as the crawl closes, after refreshing the index: every declared post shows.
      const completeness = await value('max(freshet_completeness_ratio)');
      expect(completeness).toBe(1);
      expect(await value('max(freshet_completeness_open_subjects)')).toBeLessThanOrEqual(frontierStats.subjects);
      expect(await value('sum(freshet_politeness_sustainable_requests_per_second)')).toBeGreaterThan(0);
    });
  });
});
