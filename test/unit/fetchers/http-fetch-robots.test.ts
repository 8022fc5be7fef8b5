import { MAX_SITEMAPS_PER_ORIGIN } from '../../../src/fetchers/robots-cache';
import { makeFetcher, rejection, startServer, type LocalServer } from './local-server';

/** robots.txt behaviour per test server, so origins (and their cache entries) stay separate. */
async function site(robots: { status: number; body?: string | Buffer; location?: string }): Promise<LocalServer & { robotsHits: () => number }> {
  const s = await startServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(robots.status, robots.location ? { location: robots.location } : { 'content-type': 'text/plain' });
      return res.end(robots.body ?? '');
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`page ${req.url}`);
  });
  return Object.assign(s, { robotsHits: () => s.hits.filter((h) => h === '/robots.txt').length });
}

const servers: LocalServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));
async function tracked(...args: Parameters<typeof site>): ReturnType<typeof site> {
  const s = await site(...args);
  servers.push(s);
  return s;
}

const ROBOTS = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\n\nUser-agent: freshet\nDisallow: /no-freshet\nCrawl-delay: 0.5\n';

describe('HttpFetcher: robots.txt', () => {
  it('refuses a disallowed path, allows others, fetches robots.txt once per origin, exposes Crawl-delay', async () => {
    const s = await tracked({ status: 200, body: ROBOTS });
    const { fetcher } = makeFetcher({ respect_robots: true });
    const err = await rejection(fetcher.fetch({ url: s.url('/no-freshet/page') }));
    expect(err).toMatchObject({ code: 'E_FETCH_ROBOTS_DISALLOWED', kind: 'non_retryable', fields: { attempts: 1 } });
    expect(s.hits).not.toContain('/no-freshet/page');
    const ok = await fetcher.fetch({ url: s.url('/private/but-not-for-our-group') });
    expect(ok.text).toBe('page /private/but-not-for-our-group');
    expect(s.robotsHits()).toBe(1);
    expect(fetcher.robotsCrawlDelayMs(s.origin)).toBe(500);
    expect(fetcher.robotsCrawlDelayMs('http://never-seen.example')).toBeUndefined();
    await fetcher.close();
  });

  it('matches the configured product token', async () => {
    const s = await tracked({ status: 200, body: ROBOTS });
    const { fetcher } = makeFetcher({ respect_robots: true, robots_user_agent: 'otherbot' });
    await expect(fetcher.fetch({ url: s.url('/no-freshet/page') })).resolves.toMatchObject({ status: 200 });
    expect((await rejection(fetcher.fetch({ url: s.url('/private/x') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    expect(fetcher.robotsCrawlDelayMs(s.origin)).toBe(2000);
    await fetcher.close();
  });

  it('keeps the first group of a robots.txt that starts with a partial byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb]), Buffer.from('User-agent: freshet bot\nDisallow: /bom-guarded\n')]);
    const s = await tracked({ status: 200, body });
    const { fetcher } = makeFetcher({ respect_robots: true });
    expect((await rejection(fetcher.fetch({ url: s.url('/bom-guarded/1') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    await fetcher.close();
  });

  it('reports a redirect to a login page robots.txt forbids as a login wall, not a robots refusal', async () => {
    const s = await startServer((req, res) => {
      if (req.url === '/robots.txt') return res.end('User-agent: *\nDisallow: /signin/\n');
      if (req.url === '/protected') {
        res.writeHead(302, { location: `/signin/welcome?r=${encodeURIComponent('/protected')}` });
        return res.end();
      }
      res.end(`page ${req.url}`);
    });
    servers.push(s);
    const { fetcher } = makeFetcher({ respect_robots: true });
    const err = await rejection(fetcher.fetch({ url: s.url('/protected') }));
    expect(err).toMatchObject({ code: 'E_LOGIN_REQUIRED', kind: 'non_retryable', fields: { location: s.url('/signin/welcome') } });
    expect(s.hits.filter((h) => h.startsWith('/signin'))).toEqual([]);
    await fetcher.close();
    // With the classification turned off the redirect is followed, and robots.txt refuses it.
    const plain = makeFetcher({ respect_robots: true, login_redirect_pattern: null });
    expect((await rejection(plain.fetcher.fetch({ url: s.url('/protected') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    await plain.fetcher.close();
  });

  it('allows everything when robots.txt is a 4xx', async () => {
    const s = await tracked({ status: 404 });
    const { fetcher } = makeFetcher({ respect_robots: true });
    await expect(fetcher.fetch({ url: s.url('/private/x') })).resolves.toMatchObject({ status: 200 });
    await fetcher.close();
  });

  it('disallows the origin for a while when robots.txt is a 5xx, and rechecks after robots_error_ttl_secs', async () => {
    const s = await tracked({ status: 503 });
    const { fetcher, clock } = makeFetcher({ respect_robots: true, robots_error_ttl_secs: 600 });
    const err = await rejection(fetcher.fetch({ url: s.url('/page') }));
    // Throttled with the remaining TTL: the runner reschedules the subject instead of dropping it.
    expect(err).toMatchObject({ code: 'E_FETCH_ROBOTS_UNAVAILABLE', kind: 'throttled', retryAfterMs: 600_000 });
    expect(s.hits).toEqual(['/robots.txt']);
    clock.advanceMs(601_000);
    await rejection(fetcher.fetch({ url: s.url('/page') }));
    expect(s.robotsHits()).toBe(2);
    await fetcher.close();
  });

  it('follows a robots.txt redirect and still applies the guards to it', async () => {
    const target = await tracked({ status: 200, body: 'User-agent: *\nDisallow: /moved-rules\n' });
    const s = await tracked({ status: 301, location: target.url('/robots.txt') });
    const { fetcher } = makeFetcher({ respect_robots: true });
    expect((await rejection(fetcher.fetch({ url: s.url('/moved-rules/1') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    await fetcher.close();

    const blocked = await tracked({ status: 302, location: 'http://169.254.169.254/robots.txt' });
    const guarded = makeFetcher({ respect_robots: true, allow_private_networks: false, allowed_cidrs: ['127.0.0.1/32'] });
    // A robots.txt we may not fetch counts as unreachable: the origin waits, nothing is sent to the metadata address.
    expect(await rejection(guarded.fetcher.fetch({ url: blocked.url('/page') }))).toMatchObject({ code: 'E_FETCH_ROBOTS_UNAVAILABLE' });
    await guarded.fetcher.close();
  });

  it('checks robots.txt on every redirect hop', async () => {
    const dest = await tracked({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
    const src = await startServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(302, { location: dest.url('/landing') });
      res.end();
    });
    servers.push(src);
    const { fetcher } = makeFetcher({ respect_robots: true });
    expect((await rejection(fetcher.fetch({ url: src.url('/go') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    expect(dest.hits).toEqual(['/robots.txt']);
    await fetcher.close();
  });

  it('parses the first robots_max_bytes of an oversized robots.txt instead of failing', async () => {
    const s = await tracked({ status: 200, body: `User-agent: *\nDisallow: /early\n${'# padding\n'.repeat(2000)}Disallow: /late\n` });
    const { fetcher } = makeFetcher({ respect_robots: true, robots_max_bytes: 4096 });
    expect((await rejection(fetcher.fetch({ url: s.url('/early/x') }))).code).toBe('E_FETCH_ROBOTS_DISALLOWED');
    await expect(fetcher.fetch({ url: s.url('/late/x') })).resolves.toMatchObject({ status: 200 });
    await fetcher.close();
  });

  it('shares one robots.txt fetch between concurrent requests to an origin', async () => {
    const s = await tracked({ status: 200, body: 'User-agent: *\nAllow: /\n' });
    const { fetcher } = makeFetcher({ respect_robots: true });
    await Promise.all(Array.from({ length: 8 }, (_, i) => fetcher.fetch({ url: s.url(`/p${i}`) })));
    expect(s.robotsHits()).toBe(1);
    await fetcher.close();
  });

  it('gives the Sitemap: lines from the same cached robots.txt fetch as the rules, refetched after robots_cache_ttl_secs', async () => {
    const s = await tracked({ status: 200, body: `${ROBOTS}Sitemap: /sitemap_index.xml\nSitemap: ftp://elsewhere/x.xml\nSitemap: https://cdn.example/news.xml\n` });
    const { fetcher, clock } = makeFetcher({ respect_robots: true, robots_cache_ttl_secs: 3600 });
    await fetcher.fetch({ url: s.url('/a') });
    expect(await fetcher.robotsSitemaps(s.origin)).toEqual([`${s.origin}/sitemap_index.xml`, 'https://cdn.example/news.xml']);
    expect(s.robotsHits()).toBe(1);
    clock.advanceMs(3_601_000);
    expect(await fetcher.robotsSitemaps(s.origin)).toHaveLength(2);
    expect(s.robotsHits()).toBe(2);
    await fetcher.fetch({ url: s.url('/b') });
    expect(s.robotsHits()).toBe(2);
    await fetcher.close();
  });

  it('keeps at most MAX_SITEMAPS_PER_ORIGIN Sitemap: lines of an origin (the cache stays bounded)', async () => {
    const lines = Array.from({ length: MAX_SITEMAPS_PER_ORIGIN + 50 }, (_, i) => `Sitemap: /s${i}.xml`).join('\n');
    const s = await tracked({ status: 200, body: `User-agent: *\nDisallow:\n${lines}\n` });
    const { fetcher } = makeFetcher({ respect_robots: true });
    const got = await fetcher.robotsSitemaps(s.origin)!;
    expect(got).toHaveLength(MAX_SITEMAPS_PER_ORIGIN);
    expect(got[0]).toBe(`${s.origin}/s0.xml`);
    await fetcher.close();
  });

  it('gives no Sitemap: lines for a missing robots.txt, throws while it is unavailable, and none without respect_robots', async () => {
    const missing = await tracked({ status: 404 });
    const on = makeFetcher({ respect_robots: true }).fetcher;
    expect(await on.robotsSitemaps(missing.origin)).toEqual([]);
    const down = await tracked({ status: 503 });
    expect(await rejection(on.robotsSitemaps(down.origin)!)).toMatchObject({ code: 'E_FETCH_ROBOTS_UNAVAILABLE', kind: 'throttled' });
    const off = makeFetcher({ respect_robots: false }).fetcher;
    expect(off.robotsSitemaps(missing.origin)).toBeUndefined();
    await Promise.all([on.close(), off.close()]);
  });
});
