import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { indexName } from '../../../src/search/templates';
import { startSimsite, type SimsiteHandle } from '../../../src/simsite';
import { FRESHET_BIN, PIPELINES } from '../../helpers/crawl';
import { deleteKeys, testSettings, useSearch, type TestSearch } from '../../helpers/services';

/**
 * A 60-second `freshet run` of social.yaml whose three tokens reach their hourly quota (150 each)
 * long before the minute is over, stderr not a terminal: a handful of progress records and counted
 * warnings instead of one line per paused visit, and a summary whose `requests` is what reached
 * the site and whose `refused.quota` the requests the quota kept back.
 */
describe('freshet run: progress and an honest summary under a quota', () => {
  const db = 1 + Math.floor(Math.random() * 15);
  const redisUrl = `${testSettings().redisUrl.replace(/\/\d*$/, '')}/${db}`;
  let site: SimsiteHandle;
  let s: TestSearch;
  let redis: Redis;
  beforeAll(async () => {
    s = await useSearch('run-progress');
    site = await startSimsite({ worldOptions: { seed: 11, users: 400 }, port: 0 });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    await deleteKeys(redis, 'freshet:social*');
    await deleteKeys(redis, 'freshet:{quota:weibo}*');
  });
  afterAll(async () => {
    await deleteKeys(redis, 'freshet:social*');
    await deleteKeys(redis, 'freshet:{quota:weibo}*');
    redis.disconnect();
    await site.close();
    await s.client.indices.delete({ index: `${s.prefix}*` }).catch(() => undefined);
    await s.cleanup();
  });

  it('writes at most 30 lines to stderr in 60 s and counts sent and refused requests apart', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env, FRESHET_REDIS_URL: redisUrl, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_TOKENS_WEIBO: 'tok-a,tok-b,tok-c', FRESHET_LOG_LEVEL: 'info',
    };
    delete env['FRESHET_TOKENS_WEIBO_FILE'];
    const social = `${PIPELINES}/social.yaml`;
    const seeds = site.world.users.slice(0, 200).map((u) => `weibo:user:${u.uid}`);
    const seeded = await cli(['seed', social, ...seeds], env);
    expect(seeded.code).toBe(0);
    const out = await cli(['run', social, '--duration-secs', '60', '--var', `SIMSITE_URL=${site.url}`], env);
    expect(out.code).toBe(0);
    const lines = out.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(30);
    const records = lines.map((l) => JSON.parse(l) as { msg: string; progress?: { requests_sent: number; refused: { quota: number } } });
    expect(records.filter((r) => r.msg === 'progress').length).toBeGreaterThanOrEqual(3);
    const summary = JSON.parse(out.stdout.trim().split('\n').pop()!) as {
      requests: number; refused: { quota: number; politeness: number; robots: number }; failureCodes: Record<string, number>; deadLettered: number;
    };
    const reached = site.requestLog.entries().filter((e) => !e.url.startsWith('/robots.txt') && !e.url.startsWith('/_')).length;
    expect(summary.requests).toBe(reached);
    // 3 tokens × 150 per hour (a window boundary inside the minute allows a second 450).
    expect(reached === 450 || reached === 900).toBe(true);
    expect(summary.refused.quota).toBeGreaterThan(0);
    expect(summary.failureCodes['E_QUOTA_EXHAUSTED']).toBeGreaterThan(0);
    expect(summary.deadLettered).toBe(0);
    // The paused visits were counted, not logged one by one.
    const counted = records.filter((r) => /×\d+ in the last/.test(r.msg));
    expect(counted.length).toBeGreaterThan(0);
    expect(records.filter((r) => r.msg === 'visit failed').length).toBeLessThanOrEqual(2);
    await s.client.indices.refresh({ index: indexName(s.prefix, 'posts') });
  }, 150_000);
});

function cli(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [FRESHET_BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
