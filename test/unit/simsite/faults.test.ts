import { ManualClock } from '../../../src/core/clock';
import { createWorld, parseFaultSpec, RequestLog, startSimsite, type RequestLogEntry, type SimsiteHandle } from '../../../src/simsite';

let site: SimsiteHandle;
let real: ManualClock;
let uid: number;

beforeAll(async () => {
  const world = createWorld({ seed: 9, users: 200 });
  real = new ManualClock(1_000_000);
  site = await startSimsite({ world, clock: new ManualClock(world.startMs), realClock: real });
  uid = world.users.find((u) => !u.zombie)!.uid;
});

afterAll(() => site.close());

afterEach(() => site.setFaults({}));

const profilePath = (): string => `/api/container/getIndex?type=uid&value=${uid}`;

async function get(path: string, client: string): Promise<Response> {
  return fetch(`${site.url}${path}`, { headers: { 'x-client-id': client }, redirect: 'manual' });
}

async function log(client: string): Promise<RequestLogEntry[]> {
  return (await (await fetch(`${site.url}/_truth/requests?client=${client}`)).json()) as RequestLogEntry[];
}

describe('simsite faults', () => {
  it('rate-limits each client with 418 and no Retry-After (microblog style), on the real clock', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 1, burst: 3, status: 418 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await get(profilePath(), 'rl-a');
      statuses.push(r.status);
      expect(r.headers.get('retry-after')).toBeNull();
      await r.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 418, 418]);
    // Another client has its own bucket.
    expect((await get(profilePath(), 'rl-b')).status).toBe(200);
    real.advanceMs(1000);
    expect((await get(profilePath(), 'rl-a')).status).toBe(200);
  });

  it('answers over capacity with a soft block in a 200 body when told to (操作过于频繁), and logs it as one', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 1, burst: 2, softKind: 'frequent' } });
    const statuses: number[] = [];
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await get(profilePath(), 'rl-soft');
      statuses.push(r.status);
      bodies.push(await r.text());
    }
    expect(statuses).toEqual([200, 200, 200]);
    expect(bodies[2]).toContain('操作过于频繁');
    expect(bodies[0]).not.toContain('操作过于频繁');
    expect((await log('rl-soft')).map((e) => e.fault)).toEqual([null, null, 'softError']);
  });

  it('answers 429 with Retry-After and a Discourse-like body, and logs it', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 0.5, burst: 1, status: 429, retryAfterSec: 'auto' } });
    expect((await get(profilePath(), 'ra')).status).toBe(200);
    const limited = await get(profilePath(), 'ra');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const body = (await limited.json()) as { error_type: string; extras: { wait_seconds: number } };
    expect(body.error_type).toBe('rate_limit');
    expect(body.extras.wait_seconds).toBe(2);
    const entries = await log('ra');
    expect(entries.map((e) => [e.status, e.retryAfterSec, e.fault])).toEqual([[200, null, null], [429, 2, 'rateLimit']]);
    expect(entries[1]!.realMs).toBe(real.nowMs());
  });

  it('reports Retry-After violations and backoff per client', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 1, burst: 1, status: 429, retryAfterSec: 5 } });
    await get(profilePath(), 'impolite');
    await get(profilePath(), 'impolite'); // 429, Retry-After: 5
    real.advanceMs(1000);
    await get(profilePath(), 'impolite'); // before the announced 5 s (the bucket has refilled, so it is served)
    real.advanceMs(5000);
    await get(profilePath(), 'impolite');
    const report = (await (await fetch(`${site.url}/_truth/requests/politeness?client=impolite`)).json()) as {
      retryAfterAnnounced: number; retryAfterViolations: number; rateLimited: number; backoffAfterLimitMs: number[]; duplicateOkFetches: number;
    }[];
    expect(report[0]).toMatchObject({ retryAfterAnnounced: 1, retryAfterViolations: 1, rateLimited: 1, duplicateOkFetches: 2 });
    expect(report[0]!.backoffAfterLimitMs).toEqual([1000]);
  });

  it('answers 429 without Retry-After when configured so', async () => {
    site.setFaults(parseFaultSpec('ratelimit-429-bare'));
    let r: Response | undefined;
    for (let i = 0; i < 7; i++) r = await get(profilePath(), 'bare');
    expect(r!.status).toBe(429);
    expect(r!.headers.get('retry-after')).toBeNull();
  });

  it('keeps a ban window after a violation', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 10, burst: 1, status: 418, banMs: 60_000 } });
    expect((await get(profilePath(), 'ban')).status).toBe(200);
    expect((await get(profilePath(), 'ban')).status).toBe(418);
    real.advanceMs(30_000);
    expect((await get(profilePath(), 'ban')).status).toBe(418);
    real.advanceMs(31_000);
    expect((await get(profilePath(), 'ban')).status).toBe(200);
  });

  it('sends 5xx in bursts, seeded: the same client sees the same sequence after a reset', async () => {
    const config = { seed: 4, serverErrors: { rate: 0.2, burstLength: 3, status: 503 } };
    const run = async (): Promise<number[]> => {
      site.setFaults(config);
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await get(profilePath(), 'errs')).status);
      return out;
    };
    const a = await run();
    const b = await run();
    expect(b).toEqual(a);
    const first = a.indexOf(503);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(a.slice(first, first + 3)).toEqual([503, 503, 503]);
  });

  it('truncates and malforms bodies so they no longer parse', async () => {
    site.setFaults({ truncated: { rate: 1 } });
    const t = await (await get(profilePath(), 'tr')).text();
    expect(() => JSON.parse(t)).toThrow();
    site.setFaults({ malformed: { rate: 1 } });
    const m = await (await get(profilePath(), 'mf')).text();
    expect(() => JSON.parse(m)).toThrow();
  });

  it('can announce the full length and drop the connection half-way', async () => {
    site.setFaults({ truncated: { rate: 1, cutConnection: true } });
    await expect(get(profilePath(), 'cut').then((r) => r.text())).rejects.toThrow();
    const entries = await log('cut');
    expect(entries[0]!.fault).toBe('truncated');
  });

  it('answers 432 to blocked user agents and can loop redirects forever', async () => {
    site.setFaults({ blockedUserAgents: ['python-requests'] });
    const blocked = await fetch(`${site.url}${profilePath()}`, { headers: { 'user-agent': 'python-requests/2.31', 'x-client-id': 'ua' } });
    expect(blocked.status).toBe(432);
    expect((await get(profilePath(), 'ua-ok')).status).toBe(200);
    site.setFaults({ redirectLoop: { rate: 1 } });
    const hop1 = await get(profilePath(), 'loop');
    expect(hop1.status).toBe(302);
    const hop2 = await get(hop1.headers.get('location')!, 'loop');
    expect(hop2.headers.get('location')).toMatch(/_hop=2$/);
    await expect(fetch(`${site.url}${profilePath()}`, { headers: { 'x-client-id': 'loop' } })).rejects.toThrow();
  });

  it('redirects to a login page', async () => {
    site.setFaults({ loginRedirect: { rate: 1 } });
    const r = await get(profilePath(), 'login');
    expect(r.status).toBe(302);
    const location = r.headers.get('location')!;
    expect(location).toMatch(/^\/signin\/welcome\?entry=mweibo&r=/);
    site.setFaults({});
    const page = await get(location, 'login');
    expect(await page.text()).toContain('登录');
  });

  it('holds a request without answering (timeout), and trickles slow bodies', async () => {
    site.setFaults({ timeouts: { rate: 1, holdMs: 200 } });
    const t0 = Date.now();
    await expect(get(profilePath(), 'to')).rejects.toThrow();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
    site.setFaults({ slowBody: { rate: 1, bytesPerSec: 5_000 } });
    const t1 = Date.now();
    const body = await (await get(profilePath(), 'slow')).text();
    expect(JSON.parse(body)).toHaveProperty('ok', 1);
    expect(Date.now() - t1).toBeGreaterThanOrEqual((body.length / 5_000) * 1000 * 0.5);
  });

  it('is switched at runtime through POST /_control/faults and limited to paths and clients', async () => {
    const set = await fetch(`${site.url}/_control/faults`, {
      method: 'POST', body: JSON.stringify({ serverErrors: { rate: 1, burstLength: 1, status: 500 }, clients: ['victim'] }),
    });
    expect(set.status).toBe(200);
    expect((await get(profilePath(), 'victim')).status).toBe(500);
    expect((await get(profilePath(), 'bystander')).status).toBe(200);
    expect((await get('/robots.txt', 'victim')).status).toBe(200);
  });

  it('answers microblog soft errors with HTTP 200 bodies (login, captcha, too frequent)', async () => {
    const bodies: Record<string, unknown>[] = [];
    for (const kind of ['login', 'captcha', 'frequent'] as const) {
      site.setFaults({ softErrors: { rate: 1, kinds: [kind] } });
      const r = await get(profilePath(), `soft-${kind}`);
      expect(r.status).toBe(200);
      bodies.push((await r.json()) as Record<string, unknown>);
    }
    expect(bodies[0]).toMatchObject({ ok: -100, msg: '请先登录' });
    expect(bodies[0]!.url).toMatch(/^https:\/\/passport\.weibo\.cn\/signin\//);
    expect(bodies[1]!.ok).toBe(0);
    expect(bodies[1]!.data).toBeUndefined();
    expect(bodies[1]!.url).toMatch(/verify/);
    expect(bodies[2]!.msg).toContain('操作过于频繁');
  });

  it('can key the rate limit by address, so every client id behind it is limited at once', async () => {
    site.setFaults({ rateLimit: { requestsPerSec: 1, burst: 2, status: 418, keyBy: 'ip' } });
    expect((await get(profilePath(), 'cookie-1')).status).toBe(200);
    expect((await get(profilePath(), 'cookie-2')).status).toBe(200);
    expect((await get(profilePath(), 'cookie-3')).status).toBe(418);
    expect((await get(profilePath(), 'cookie-1')).status).toBe(418);
  });

  it('answers the Q&A API rate limit with 403 and error code 40362', async () => {
    site.setFaults(parseFaultSpec('ratelimit-403'));
    const token = site.world.users[0]!.urlToken;
    let r: Response | undefined;
    for (let i = 0; i < 7; i++) r = await get(`/api/v4/members/${token}/followees?offset=0&limit=20`, 'qa');
    expect(r!.status).toBe(403);
    expect(((await r!.json()) as { error: { code: number } }).error.code).toBe(40362);
  });

  it('serves robots.txt per host', async () => {
    const other = await startSimsite({
      world: site.world, clock: site.clock,
      robots: { 'm.weibo.local': 'User-agent: *\nDisallow: /\n', '*': 'User-agent: *\nAllow: /\n' },
    });
    try {
      const port = new URL(other.url).port;
      const http = await import('node:http');
      const fetchHost = (host: string): Promise<string> => new Promise((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/robots.txt', headers: { host } }, (res) => {
          let s = '';
          res.on('data', (c: Buffer) => (s += c.toString()));
          res.on('end', () => resolve(s));
        }).on('error', reject);
      });
      expect(await fetchHost('m.weibo.local')).toContain('Disallow: /');
      expect(await fetchHost('forum.local')).toContain('Allow: /');
    } finally {
      await other.close();
    }
  });
});

describe('simsite request log bound', () => {
  it('drops the oldest entries of the busiest client and says how many', () => {
    const log = new RequestLog(100);
    const base = { realMs: 0, simMs: 0, method: 'GET', url: '/', host: 'h', status: 200, fault: null, retryAfterSec: null };
    for (let i = 0; i < 150; i++) log.add({ ...base, client: 'busy', realMs: i });
    for (let i = 0; i < 5; i++) log.add({ ...base, client: 'quiet', realMs: i });
    const stats = log.stats();
    expect(stats.entries).toBeLessThanOrEqual(100);
    expect(stats.entries + stats.dropped).toBe(155);
    expect(log.entries('quiet')).toHaveLength(5);
    expect(log.entries('busy')[0]!.realMs).toBeGreaterThan(0);
  });
});
