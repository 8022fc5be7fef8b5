import { makeFetcher, rejection, startServer, type LocalServer } from './local-server';

/** Per-path scripts: the n-th request to a path gets the n-th status (the last one repeats). */
const scripts: Record<string, Array<[number, Record<string, string>]>> = {
  '/429-then-ok': [[429, { 'retry-after': '2' }], [200, {}]],
  '/418-then-ok': [[418, {}], [200, {}]],
  '/503-date-then-ok': [[503, { 'retry-after': 'Tue, 14 Nov 2023 22:13:23 GMT' }], [200, {}]],
  '/5xx-then-ok': [[503, {}], [502, {}], [200, {}]],
  '/always-500': [[500, {}]],
  '/long-retry-after': [[429, { 'retry-after': '120' }]],
  '/always-429': [[429, { 'retry-after': '1' }]],
};

let server: LocalServer;
const counts = new Map<string, number>();
beforeAll(async () => {
  server = await startServer((req, res) => {
    const script = scripts[req.url ?? ''];
    if (!script) {
      res.writeHead(404);
      return res.end();
    }
    const n = counts.get(req.url!) ?? 0;
    counts.set(req.url!, n + 1);
    const [status, headers] = script[Math.min(n, script.length - 1)]!;
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(status === 200 ? 'ok' : 'error page');
  });
});
afterAll(() => server.close());
beforeEach(() => counts.clear());

describe('HttpFetcher: retries obey decideRetry', () => {
  it('honours Retry-After on a 429 and succeeds on the next attempt', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { base_delay_ms: 10 } });
    const res = await fetcher.fetch({ url: server.url('/429-then-ok') });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(sleeps).toEqual([2000]);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(2000); // measured on the injected clock
    await fetcher.close();
  });

  it('treats a 418 without Retry-After as throttling with backoff', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { base_delay_ms: 100, jitter: 'none' } });
    const res = await fetcher.fetch({ url: server.url('/418-then-ok') });
    expect(res.attempts).toBe(2);
    expect(sleeps).toEqual([100]);
    await fetcher.close();
  });

  it('reads an HTTP-date Retry-After on a 503 against the injected clock', async () => {
    const { fetcher, sleeps, clock } = makeFetcher({ retry: { base_delay_ms: 1 } });
    // The manual clock starts at 1_700_000_000_000 = Tue, 14 Nov 2023 22:13:20 GMT: 3 s before the date.
    expect(new Date(clock.nowMs()).toUTCString()).toBe('Tue, 14 Nov 2023 22:13:20 GMT');
    const res = await fetcher.fetch({ url: server.url('/503-date-then-ok') });
    expect(res.attempts).toBe(2);
    expect(sleeps).toEqual([3000]);
    await fetcher.close();
  });

  it('retries 5xx with capped exponential backoff and counts attempts', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { base_delay_ms: 100, max_delay_ms: 150, jitter: 'none' } });
    const res = await fetcher.fetch({ url: server.url('/5xx-then-ok') });
    expect(res.attempts).toBe(3);
    expect(sleeps).toEqual([100, 150]);
    expect(counts.get('/5xx-then-ok')).toBe(3);
    await fetcher.close();
  });

  it('gives up after max_attempts with the status error and the attempt count', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { max_attempts: 3, base_delay_ms: 10 } });
    const err = await rejection(fetcher.fetch({ url: server.url('/always-500') }));
    expect(err).toMatchObject({ code: 'E_FETCH_HTTP_STATUS', kind: 'retryable', fields: { status: 500, attempts: 3 } });
    expect(counts.get('/always-500')).toBe(3);
    expect(sleeps).toHaveLength(2);
    await fetcher.close();
  });

  it('reschedules instead of sleeping through a Retry-After above max_retry_after_secs', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { max_retry_after_secs: 60 } });
    const err = await rejection(fetcher.fetch({ url: server.url('/long-retry-after') }));
    expect(err).toMatchObject({ code: 'E_FETCH_THROTTLED', kind: 'throttled', retryAfterMs: 120_000, fields: { status: 429, attempts: 1 } });
    expect(sleeps).toEqual([]);
    expect(counts.get('/long-retry-after')).toBe(1);
    await fetcher.close();
  });

  it('reschedules a subject that stays throttled once attempts run out', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { max_attempts: 2, base_delay_ms: 10 } });
    const err = await rejection(fetcher.fetch({ url: server.url('/always-429') }));
    expect(err).toMatchObject({ code: 'E_FETCH_THROTTLED', kind: 'throttled', fields: { attempts: 2 } });
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(sleeps).toEqual([1000]);
    await fetcher.close();
  });

  it('stops retrying when the caller aborts during the backoff sleep', async () => {
    const ac = new AbortController();
    const { fetcher } = makeFetcher(
      { retry: { base_delay_ms: 10 } },
      { sleep: async () => { ac.abort(); throw new Error('aborted'); } },
    );
    const err = await rejection(fetcher.fetch({ url: server.url('/always-500') }, ac.signal));
    expect(err.code).toBe('E_FETCH_ABORTED');
    expect(counts.get('/always-500')).toBe(1);
    await fetcher.close();
  });
});
