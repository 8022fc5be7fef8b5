import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { indexName } from '../../../src/search/templates';
import { FRESHET_BIN, frozenSimsite, seedsOf, spawnRun, writeCliPipeline } from '../../helpers/crawl';
import { deleteKeys, testSettings, useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';
import { tcpProxy } from '../../helpers/tcp-proxy';
import { freePort } from '../../helpers/ports';

const BIN = FRESHET_BIN;
const run = promisify(execFile);


describe('freshet run / status (built CLI, real services)', () => {
  let r: TestRedis;
  let s: TestSearch;
  beforeAll(async () => {
    r = await useRedis('cli-run');
    s = await useSearch('cli-run');
  });
  afterAll(async () => {
    await s.cleanup();
    await r.cleanup();
  });

  it('drains on SIGTERM: exits 0 with a summary, leaves no lease, serves /metrics meanwhile', async () => {
    const site = await frozenSimsite(400, 31);
    const name = `sigterm-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'max_in_flight: 4, lease_secs: 60, poll_interval_ms: 100');
    const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_LOG_LEVEL: 'warn', SIMSITE_URL: site.url };
    const port = await freePort();
    try {
      const { child, exited, summary: summaryOf } = spawnRun(file, ['--metrics-port', String(port)], env);
      let metrics = '';
      for (let i = 0; i < 200; i++) {
        await sleep(100);
        const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        if (res?.ok) {
          metrics = await res.text();
          if (/freshet_jobs_acked_total\{outcome="ok"\} [1-9]/.test(metrics)) break;
        }
      }
      expect(metrics).toMatch(/^# TYPE freshet_jobs_claimed_total counter$/m);
      expect(metrics).not.toMatch(/127\.0\.0\.1|http:\/\//); // no URL or host labels
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const summary = summaryOf<{ stoppedBy: string; jobs: number }>();
      expect(summary.stoppedBy).toBe('signal');
      expect(summary.jobs).toBeGreaterThan(0);
      expect(summary.jobs).toBeLessThan(400);

      const { stdout } = await run('node', [BIN, 'status', file, '--json'], { env });
      const status = JSON.parse(stdout) as { subjects: number; leased: number; due: number };
      expect(status).toMatchObject({ subjects: 400, leased: 0 });
      await s.client.indices.refresh({ index: indexName(s.prefix, 'posts') });
      const posts = await s.client.count({ index: indexName(s.prefix, 'posts') });
      expect(posts.count).toBeGreaterThan(0);
    } finally {
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });

  it('one SIGTERM cuts the slow fetches in flight: exits 0 at once, their subjects given back due now', async () => {
    // Every body trickles at 200 B/s: in-flight visits would hold a drain for minutes.
    const site = await frozenSimsite(8, 33, { faults: { seed: 2, slowBody: { rate: 1, bytesPerSec: 200 } } });
    const name = `sigcut-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'max_in_flight: 8, lease_secs: 60, poll_interval_ms: 100');
    const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_LOG_LEVEL: 'warn', SIMSITE_URL: site.url };
    try {
      const { child, exited, summary: summaryOf } = spawnRun(file, [], env);
      for (let i = 0; i < 100 && site.requestLog.entries().filter((e) => e.fault === 'slowBody').length < 8; i++) await sleep(100);
      const t0 = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(summaryOf<{ stoppedBy: string; jobsRequeued: number; jobsFailed: number }>()).toMatchObject({ stoppedBy: 'signal', jobsRequeued: 8, jobsFailed: 0 });
      const { stdout } = await run('node', [BIN, 'status', file, '--json'], { env });
      expect(JSON.parse(stdout)).toMatchObject({ subjects: 8, leased: 0, dueNow: 8 });
    } finally {
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });

  it('a second SIGTERM exits at once (130) while the drain waits for a search node that went away', async () => {
    const site = await frozenSimsite(200, 34);
    const search = await tcpProxy(testSettings().esUrl);
    const name = `sigtwice-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'max_in_flight: 8, lease_secs: 60, poll_interval_ms: 100');
    const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_LOG_LEVEL: 'warn', SIMSITE_URL: site.url, FRESHET_ES_URL: search.url };
    try {
      const { child, exited } = spawnRun(file, [], env);
      let code: number | null | undefined;
      void exited.then((c) => (code = c));
      for (let i = 0; i < 100 && site.requestLog.entries().length < 50; i++) await sleep(100);
      search.pause();
      // Until the crawl stalls: every credit then belongs to a visit whose documents wait for the
      // node (signalled at once, a visit still on its first page would be cut and given back, and
      // with nothing in hand the run may rightly exit 0 before the second signal).
      let served = site.requestLog.entries().length;
      for (let still = 0, i = 0; still < 5 && i < 100; i++) {
        await sleep(200);
        const now = site.requestLog.entries().length;
        still = now === served ? still + 1 : 0;
        served = now;
      }
      child.kill('SIGTERM');
      await sleep(1500);
      expect(code).toBeUndefined(); // the documents in hand wait for the search node
      const t0 = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(130);
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      await search.close();
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });

  it('status and seed open only the frontier: they answer with the search node unreachable', async () => {
    const name = `frontier-only-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, [], 'shards: 2');
    // Nothing listens on port 9: a command that touched the search node (templates, alerts) would fail.
    const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_ES_URL: 'http://127.0.0.1:9', SIMSITE_URL: 'http://127.0.0.1:9' };
    try {
      const seeded = await run('node', [BIN, 'seed', file, 'weibo:user:1', 'weibo:user:2'], { env });
      expect(seeded.stdout.trim()).toBe('offered 2, new 2');
      const { stdout } = await run('node', [BIN, 'status', file, '--json'], { env });
      expect(JSON.parse(stdout)).toMatchObject({ pipeline: name, subjects: 2, due: 2, leased: 0 });
    } finally {
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });

  it('validate names file, line and key path and exits 1', async () => {
    const file = join(tmpdir(), 'freshet-bad-pipeline.yaml');
    writeFileSync(file, 'name: bad\nparse:\n  type: weibo_api\n  base_url: http://x\n  page_limt: 3\nsink: { type: blackhole }\n');
    const err = await run('node', [BIN, 'validate', file]).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toContain(`${file}:5:3: parse.page_limt: unknown key`);
  });
});
