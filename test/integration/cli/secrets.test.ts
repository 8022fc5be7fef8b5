import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deadLetterKey } from '../../../src/sources/frontier/keys';
import { frozenSimsite, seedsOf } from '../../helpers/crawl';
import { deleteKeys, useRedis, useSearch } from '../../helpers/services';
import { freePort } from '../../helpers/ports';

const ROOT = join(__dirname, '..', '..', '..');
const TOKENS = ['tokSECRETalpha7731', 'tokSECRETbravo4412'];
const ES_PASSWORD = 'pwSECRETcharlie9090';


/** Issue 9, security: credentials come from the environment and never reach logs, metrics, documents or Redis. */
describe('a crawl with credentials', () => {
  it('sends them, and no log line, metric, document or frontier record contains them', async () => {
    const r = await useRedis('secrets');
    const s = await useSearch('secrets');
    // Failures make the crawl log URLs and errors too: login redirects and 5xx bursts.
    const site = await frozenSimsite(15, 81, { faults: { seed: 3, serverErrors: { rate: 0.05, burstLength: 2 }, loginRedirect: { rate: 0.05 } } });
    const name = `secrets-${s.prefix.slice(2, -1)}`;
    const file = join(tmpdir(), `${name}.yaml`);
    writeFileSync(file, `name: ${name}
seeds: ${JSON.stringify(seedsOf(site))}
source: { type: redis_frontier, max_in_flight: 4, poll_interval_ms: 50, max_failures: 1, park_secs: 3600 }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false, retry: { max_attempts: 2, base_delay_ms: 20 } }
identities: { pool: weibo, send_as: cookie_sub, requests_per_window: 100000, window_secs: 3600 }
parse: { type: weibo_api, base_url: "\${SIMSITE_URL}", first_visit_page_limit: 1000 }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`);
    const port = await freePort();
    const env = {
      ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_LOG_LEVEL: 'debug', FRESHET_TOKENS_WEIBO: TOKENS.join(','),
      FRESHET_ES_USERNAME: 'crawler', FRESHET_ES_PASSWORD: ES_PASSWORD,
    };
    const child = spawn('node', [join(ROOT, 'bin', 'freshet.js'), 'run', file, '--until-idle', '--metrics-port', String(port), '--var', `SIMSITE_URL=${site.url}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((res) => child.on('exit', res));
    let metrics = '';
    try {
      let done = false;
      void exited.then(() => (done = true));
      while (!done) {
        const body = await fetch(`http://127.0.0.1:${port}/metrics`).then((x) => x.text()).catch(() => '');
        if (body.includes('freshet_')) metrics = body;
        await sleep(100);
      }
      expect(await exited).toBe(0);

      // The tokens were really sent (simsite tells clients apart by their SUB cookie).
      const clients = new Set(site.requestLog.entries().map((e) => e.client));
      expect(TOKENS.some((t) => [...clients].some((c) => c.includes(t)))).toBe(true);
      expect(out).toMatch(/"msg":"visit failed"/); // errors with their URLs were logged too
      expect(metrics).toMatch(/freshet_/);
      await s.client.indices.refresh({ index: `${s.prefix}*` });
      const docs = await s.client.search({ index: `${s.prefix}*`, size: 10_000, query: { match_all: {} } });
      expect(docs.hits.hits.length).toBeGreaterThan(20);
      const redisDump: string[] = [];
      for (const [, kv] of await r.redis.xrange(deadLetterKey(`freshet:${name}`), '-', '+')) redisDump.push(...kv);
      for (let cursor = '0'; ;) {
        const [next, keys] = await r.redis.scan(cursor, 'MATCH', `freshet:${name}*`, 'COUNT', 500);
        for (const k of keys) if ((await r.redis.type(k)) === 'hash') redisDump.push(JSON.stringify(await r.redis.hgetall(k)));
        if ((cursor = next) === '0') break;
      }
      expect(redisDump.length).toBeGreaterThan(0);
      const places = { logs: out, metrics, documents: JSON.stringify(docs.hits.hits), redis: redisDump.join('\n') };
      for (const [where, text] of Object.entries(places)) {
        for (const secret of [...TOKENS, ES_PASSWORD]) expect({ where, leaked: text.includes(secret) ? secret : null }).toEqual({ where, leaked: null });
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
      await s.cleanup();
      await r.cleanup();
    }
  });
});
