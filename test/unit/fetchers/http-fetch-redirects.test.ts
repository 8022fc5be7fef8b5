import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { DEFAULT_LOGIN_REDIRECT_PATTERN } from '../../../src/fetchers/http-fetch-config';
import { makeFetcher, rejection, startServer, type LocalServer } from './local-server';

let server: LocalServer;
let other: LocalServer;
beforeAll(async () => {
  other = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.headers));
  });
  server = await startServer((req, res) => {
    const url = req.url ?? '';
    const redirect = (location: string, status = 302): void => {
      res.writeHead(status, { location });
      res.end();
    };
    if (url === '/start') return redirect('next?x=1', 301);
    if (url === '/next?x=1') return redirect('/final#frag', 307);
    if (url === '/final') return void res.end('final page');
    if (url === '/moved') return redirect('/moved-again', 301);
    if (url === '/moved-again') return redirect('/final', 308);
    const chain = /^\/chain\/(\d+)$/.exec(url);
    if (chain) return redirect(`/chain/${Number(chain[1]) + 1}`);
    if (url === '/loop-a') return redirect('/loop-b');
    if (url === '/loop-b') return redirect('/loop-a');
    if (url === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/');
    if (url === '/to-v6-loopback') return redirect(`http://[::1]:${new URL(server.origin).port}/final`);
    if (url === '/to-other-loopback') return redirect(`http://127.0.0.2:${new URL(server.origin).port}/final`);
    if (url === '/to-mapped') return redirect('http://[::ffff:10.0.0.1]/');
    if (url === '/to-other-origin') return redirect(other.url('/echo'));
    if (url === '/to-ftp') return redirect('ftp://example.com/');
    if (url === '/no-location') {
      res.writeHead(302);
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
});
afterAll(async () => {
  await server.close();
  await other.close();
});

/** Only this test server's address is opted in; every other private range stays refused. */
const onlyLoopback1 = { allow_private_networks: false, allowed_cidrs: ['127.0.0.1/32'], retry: { max_attempts: 1 } };

describe('HttpFetcher: redirects', () => {
  it('follows relative redirects and reports the chain and the final URL', async () => {
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url('/start') });
    expect(res.text).toBe('final page');
    expect(res.requestUrl).toBe(server.url('/start'));
    expect(res.url).toBe(server.url('/final'));
    expect(res.redirects).toEqual([server.url('/next?x=1'), server.url('/final')]);
    // A 307 on the way: not a permanent move.
    expect(res.permanentRedirect).toBe(false);
    await fetcher.close();
  });

  it('says when every hop was permanent (301, 308): the page moved', async () => {
    const { fetcher } = makeFetcher();
    expect((await fetcher.fetch({ url: server.url('/moved') })).permanentRedirect).toBe(true);
    expect((await fetcher.fetch({ url: server.url('/final') })).permanentRedirect).toBeUndefined();
    await fetcher.close();
  });

  it('takes the politeness slot of each redirect hop to another origin, and releases it after the hop', async () => {
    const events: string[] = [];
    const politeness = {
      acquire: async (origin: string) => {
        events.push(`acquire ${origin}`);
        return () => {
          events.push(`release ${origin}`);
        };
      },
    };
    const { fetcher } = makeFetcher({}, { politeness });
    const res = await fetcher.fetch({ url: server.url('/to-other-origin') });
    expect(res.url).toBe(other.url('/echo'));
    // The first origin is the caller's (the runner gates it); the redirect target was gated here.
    expect(events).toEqual([`acquire ${other.origin}`, `release ${other.origin}`]);
    events.length = 0;
    await fetcher.fetch({ url: server.url('/start') });
    expect(events).toEqual([]); // redirects within the request's own origin
    await fetcher.close();
  });

  it('hands a redirect hop whose origin is busy back as throttled, without requesting it', async () => {
    const hitsBefore = other.hits.length;
    const politeness = {
      acquire: () => Promise.reject(new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'origin busy (politeness)', {}, undefined, 120_000)),
    };
    const { fetcher } = makeFetcher({ retry: { max_attempts: 1 } }, { politeness });
    const err = await rejection(fetcher.fetch({ url: server.url('/to-other-origin') }));
    expect(err).toMatchObject({ code: ErrorCodes.fetchThrottled, kind: 'throttled' });
    expect(other.hits.length).toBe(hitsBefore);
    await fetcher.close();
  });

  it('stops after max_redirects', async () => {
    const { fetcher } = makeFetcher({ max_redirects: 3 });
    const before = server.hits.length;
    const err = await rejection(fetcher.fetch({ url: server.url('/chain/0') }));
    expect(err).toMatchObject({ code: 'E_FETCH_TOO_MANY_REDIRECTS', kind: 'non_retryable', fields: { max_redirects: 3 } });
    expect(server.hits.length - before).toBe(4); // the first request and three followed redirects
    await fetcher.close();
  });

  it('detects a redirect loop before the cap', async () => {
    const { fetcher } = makeFetcher({ max_redirects: 10 });
    const err = await rejection(fetcher.fetch({ url: server.url('/loop-a') }));
    expect(err).toMatchObject({ code: 'E_FETCH_REDIRECT_LOOP', kind: 'non_retryable' });
    await fetcher.close();
  });

  it('treats a 3xx without Location as a status error and a non-http Location as invalid', async () => {
    const { fetcher } = makeFetcher();
    expect(await rejection(fetcher.fetch({ url: server.url('/no-location') }))).toMatchObject({ code: 'E_FETCH_HTTP_STATUS', fields: { status: 302 } });
    expect(await rejection(fetcher.fetch({ url: server.url('/to-ftp') }))).toMatchObject({ code: 'E_FETCH_INVALID_URL' });
    await fetcher.close();
  });

  it('does not carry request credentials to another origin', async () => {
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url('/to-other-origin'), expect: 'json', headers: { Authorization: 'Bearer T', 'X-Keep': 'k' } });
    const seen = JSON.parse(res.text) as Record<string, string>;
    expect(seen['x-keep']).toBe('k');
    expect(seen.authorization).toBeUndefined();
    await fetcher.close();
  });
});

describe('HttpFetcher: SSRF guard', () => {
  it('refuses a loopback target unless the pipeline opts in', async () => {
    const { fetcher } = makeFetcher({ allow_private_networks: false });
    const before = server.hits.length;
    const err = await rejection(fetcher.fetch({ url: server.url('/final') }));
    expect(err).toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS', kind: 'non_retryable', fields: { address: '127.0.0.1', address_class: 'loopback' } });
    expect(server.hits.length).toBe(before); // no request left the process
    await fetcher.close();
  });

  it.each([
    ['/to-metadata', '169.254.169.254', 'link_local'],
    ['/to-v6-loopback', '::1', 'loopback'],
    ['/to-other-loopback', '127.0.0.2', 'loopback'],
    ['/to-mapped', '::ffff:a00:1', 'private'], // WHATWG URL rewrites ::ffff:10.0.0.1 to hex groups
  ])('refuses a redirect %s to %s when only 127.0.0.1 is allowed', async (path, address, cls) => {
    const { fetcher } = makeFetcher(onlyLoopback1);
    const err = await rejection(fetcher.fetch({ url: server.url(path) }));
    expect(err).toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS', kind: 'non_retryable', fields: { address, address_class: cls } });
    await fetcher.close();
  });

  it('fetches the IPv4-mapped spelling [::ffff:127.0.0.1] of an allowed 127.0.0.1', async () => {
    const { fetcher } = makeFetcher(onlyLoopback1);
    const res = await fetcher.fetch({ url: `http://[::ffff:127.0.0.1]:${new URL(server.origin).port}/final` });
    expect(res.text).toBe('final page');
    await fetcher.close();
  });

  it('refuses a hostname that resolves to a private address (checked after DNS)', async () => {
    const { fetcher } = makeFetcher(onlyLoopback1, {
      lookupAll: async (host) => (host === 'intranet.example' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]),
    });
    const err = await rejection(fetcher.fetch({ url: 'http://intranet.example/admin' }));
    expect(err).toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS', fields: { host: 'intranet.example', address: '10.1.2.3' } });
    await fetcher.close();
  });

  it('connects a hostname to the address it checked (the connector uses the same resolver)', async () => {
    const lookups: string[] = [];
    const { fetcher } = makeFetcher(onlyLoopback1, {
      lookupAll: async (host) => {
        lookups.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const port = new URL(server.origin).port;
    const res = await fetcher.fetch({ url: `http://simsite.test:${port}/final` });
    expect(res.text).toBe('final page');
    expect(server.headers.at(-1)?.host).toBe(`simsite.test:${port}`);
    await fetcher.fetch({ url: `http://simsite.test:${port}/final` });
    expect(lookups).toEqual(['simsite.test']); // cached: one lookup for the check and the connects
    await fetcher.close();
  });

  it('maps a name that does not exist to a non-retryable DNS error', async () => {
    const { fetcher } = makeFetcher(onlyLoopback1, {
      lookupAll: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
      },
    });
    const err = await rejection(fetcher.fetch({ url: 'http://nowhere.invalid/' }));
    expect(err).toMatchObject({ code: 'E_FETCH_DNS', kind: 'non_retryable' });
    await fetcher.close();
  });
});

describe('the default login_redirect_pattern (host + path of a redirect target)', () => {
  const re = new RegExp(DEFAULT_LOGIN_REDIRECT_PATTERN, 'iu');
  it.each([
    ['passport.weibo.cn/signin/welcome', true],
    ['m.weibo.cn/signin/welcome', true],
    ['login.sina.com.cn/sso/login.php', true],
    ['accounts.google.com/ServiceLogin', true],
    ['www.zhihu.com/signin', true],
    ['github.com/login', true],
    ['example.com/users/sign_in', true],
    ['example.com/account/log-in/', true],
    ['example.com/blog/loginless-design', false],
    ['example.com/login-help', false],
    ['example.com/signing-day', false],
    ['example.com/passports/', false],
    ['news.example.com/2024/01/article.html', false],
  ])('%s → %s', (target, isLogin) => {
    expect(re.test(target)).toBe(isLogin);
  });
});
