import iconv from 'iconv-lite';
import { gzipSync, brotliCompressSync, deflateRawSync } from 'node:zlib';
import { FreshetError } from '../../../src/core/errors';
import type { FetchMetrics } from '../../../src/fetchers/http-fetch';
import { makeFetcher, rejection, startServer, type LocalServer } from './local-server';

const ZH = '北京时间昨日，国家统计局发布数据：全年国内生产总值增长百分之五。';
const GBK_PAGE = iconv.encode(`<html><head><meta charset="gbk"><title>论坛</title></head><body><p>${ZH}</p></body></html>`, 'gbk');
const JSON_BODY = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ text: ZH, id: '4999999999999999999' }))]);

let server: LocalServer;
let inFlight = 0;
let maxInFlight = 0;
const sockets = new Set<number>();
beforeAll(async () => {
  server = await startServer((req, res) => {
    switch (req.url) {
      case '/slow': {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        sockets.add(req.socket.remotePort ?? -1);
        setTimeout(() => {
          inFlight--;
          res.end('slow');
        }, 30);
        return;
      }
      case '/gbk':
        res.writeHead(200, { 'content-type': 'text/html' }); // no charset in the header: only the meta says GBK
        return res.end(GBK_PAGE);
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON_BODY);
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
        return res.end(gzipSync(`<p>${ZH}</p>`));
      case '/br':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'br' });
        return res.end(brotliCompressSync(`br ${ZH}`));
      case '/raw-deflate':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'deflate' });
        return res.end(deflateRawSync(`deflate ${ZH}`));
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
        return res.end(JSON.stringify(req.headers));
      default:
        res.writeHead(404);
        return res.end('nope');
    }
  });
});
afterAll(() => server.close());

describe('HttpFetcher: success path', () => {
  it('decodes a GBK page whose only charset declaration is a meta tag', async () => {
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url('/gbk'), expect: 'html' });
    expect(res).toMatchObject({ status: 200, charset: 'gb18030', attempts: 1, redirects: [], url: server.url('/gbk') });
    expect(res.text).toContain(ZH);
    expect(res.body.length).toBe(GBK_PAGE.length);
    await fetcher.close();
    await fetcher.close(); // idempotent
    expect(await rejection(fetcher.fetch({ url: server.url('/gbk') }))).toMatchObject({ code: 'E_FETCH_ABORTED', kind: 'retryable' });
  });

  it('decodes JSON as UTF-8 and drops the BOM', async () => {
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url('/json'), expect: 'json' });
    expect(res.charset).toBe('utf-8');
    expect(JSON.parse(res.text)).toEqual({ text: ZH, id: '4999999999999999999' });
    await fetcher.close();
  });

  it.each(['/gzip', '/br', '/raw-deflate'])('undoes the %s content coding', async (path) => {
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url(path) });
    expect(res.text).toContain(ZH);
    await fetcher.close();
  });

  it('sends the configured user agent and headers, and keeps request headers', async () => {
    const { fetcher } = makeFetcher({ user_agent: 'testbot/1.0', headers: { 'X-Extra': 'yes' } });
    const res = await fetcher.fetch({ url: server.url('/echo'), expect: 'json', headers: { 'X-Req': 'r' } });
    const seen = JSON.parse(res.text) as Record<string, string>;
    expect(seen).toMatchObject({ 'user-agent': 'testbot/1.0', 'x-extra': 'yes', 'x-req': 'r', 'accept-encoding': 'gzip, deflate, br' });
    expect(res.headers['set-cookie']).toBe('a=1\nb=2');
    await fetcher.close();
  });

  it('uses the default user agent with the package version', async () => {
    const { fetcher } = makeFetcher();
    await fetcher.fetch({ url: server.url('/echo') });
    expect(server.headers.at(-1)?.['user-agent']).toMatch(/^freshet\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/freshet\)$/);
    await fetcher.close();
  });

  it('refuses credential headers in the config (they come from the environment)', () => {
    expect(() => makeFetcher({ headers: { Cookie: 'sid=1' } })).toThrow(/credential headers/);
    expect(() => makeFetcher({ unknown_key: 1 })).toThrow();
  });

  it('reports bounded metrics: status class and outcome, bytes, latency', async () => {
    const calls: string[] = [];
    const metrics: FetchMetrics = {
      requests: (cls, outcome) => calls.push(`${cls}:${outcome}`),
      bytes: (n) => calls.push(`bytes:${n}`),
      latencyMs: () => calls.push('latency'),
    };
    const { fetcher } = makeFetcher({}, { metrics });
    await fetcher.fetch({ url: server.url('/gbk') });
    await rejection(fetcher.fetch({ url: server.url('/missing') }));
    expect(calls).toEqual(['2xx:ok', `bytes:${GBK_PAGE.length}`, 'latency', '4xx:E_FETCH_HTTP_STATUS']);
    await fetcher.close();
  });

  it('leaves a request\'s own origin to the caller: no politeness gate without a redirect to another origin', async () => {
    const events: string[] = [];
    const politeness = {
      acquire: async (origin: string) => {
        events.push(`acquire ${origin}`);
        return () => {
          events.push('release');
        };
      },
    };
    const { fetcher } = makeFetcher({}, { politeness });
    await fetcher.fetch({ url: server.url('/gbk') });
    await rejection(fetcher.fetch({ url: server.url('/missing') }));
    expect(events).toEqual([]);
    await fetcher.close();
  });

  it('maps a 404 to a non-retryable status error without retrying', async () => {
    const { fetcher, sleeps } = makeFetcher();
    const before = server.hits.length;
    const err = await rejection(fetcher.fetch({ url: server.url('/missing?access_token=SECRET') }));
    expect(err).toBeInstanceOf(FreshetError);
    expect(err).toMatchObject({ code: 'E_FETCH_HTTP_STATUS', kind: 'non_retryable', fields: { status: 404, attempts: 1 } });
    expect(String(err.fields.url)).not.toContain('SECRET');
    expect(server.hits.length - before).toBe(1);
    expect(sleeps).toEqual([]);
    await fetcher.close();
  });

  it.each([
    ['not a url', 'E_FETCH_INVALID_URL'],
    ['ftp://example.com/file', 'E_FETCH_INVALID_URL'],
    ['http://user:pw@example.com/', 'E_FETCH_INVALID_URL'],
    ['javascript:alert(1)', 'E_FETCH_INVALID_URL'],
  ])('refuses %s', async (url, code) => {
    const { fetcher } = makeFetcher();
    const err = await rejection(fetcher.fetch({ url }));
    expect(err).toMatchObject({ code, kind: 'non_retryable' });
    expect(JSON.stringify(err.fields)).not.toContain('pw@');
    await fetcher.close();
  });

  it('maps a refused connection to a retryable connection error', async () => {
    const closed = await startServer(() => undefined);
    const url = closed.url('/');
    await closed.close();
    const { fetcher } = makeFetcher({ retry: { max_attempts: 2 } });
    const err = await rejection(fetcher.fetch({ url }));
    expect(err).toMatchObject({ code: 'E_FETCH_CONNECTION', kind: 'retryable', fields: { attempts: 2 } });
    await fetcher.close();
  });

  it('keeps to connections_per_origin and reuses kept-alive sockets', async () => {
    const { fetcher } = makeFetcher({ connections_per_origin: 2 });
    await Promise.all(Array.from({ length: 10 }, () => fetcher.fetch({ url: server.url('/slow') })));
    expect(maxInFlight).toBe(2);
    expect(sockets.size).toBe(2);
    await fetcher.close();
  });

  it('stops when the caller aborts', async () => {
    const { fetcher } = makeFetcher();
    const ac = new AbortController();
    ac.abort();
    const err = await rejection(fetcher.fetch({ url: server.url('/gbk') }, ac.signal));
    expect(err.code).toBe('E_FETCH_ABORTED');
    await fetcher.close();
  });
});
