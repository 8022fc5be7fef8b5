import { createMetrics } from '../../../src/core/metrics';
import { fetchMetricsOf } from '../../../src/fetchers/factory';
import { makeFetcher, startServer, type LocalServer } from './local-server';

let server: LocalServer;
const answers = new Map<string, number[]>();
beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/moved') {
      res.writeHead(302, { location: '/flaky' });
      return void res.end();
    }
    const status = answers.get(url)?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status === 200 ? 'hello' : 'busy');
  });
});
afterAll(async () => server.close());

describe('fetch metrics reach Prometheus', () => {
  it('counts every exchange by status class and outcome, the retries by code, the bytes and the latencies', async () => {
    const metrics = createMetrics();
    answers.set('/flaky', [503, 502]);
    const { fetcher } = makeFetcher({ retry: { max_attempts: 4, base_delay_ms: 1 } }, { metrics: fetchMetricsOf(metrics) });
    const res = await fetcher.fetch({ url: server.url('/moved') });
    expect(res.attempts).toBe(3);
    await fetcher.close();
    const text = await metrics.registry.metrics();
    expect(text).toContain('freshet_fetch_retries_total{code="E_FETCH_HTTP_STATUS"} 2');
    expect(text).toContain('freshet_http_exchanges_total{status_class="3xx",outcome="redirect"} 3');
    expect(text).toContain('freshet_http_exchanges_total{status_class="5xx",outcome="E_FETCH_HTTP_STATUS"} 2');
    expect(text).toContain('freshet_http_exchanges_total{status_class="2xx",outcome="ok"} 1');
    expect(text).toContain('freshet_http_received_bytes_total 5');
    expect(text).toMatch(/freshet_http_exchange_duration_seconds_count 1\n/);
    // Counted once: a second scrape adds nothing.
    expect(await metrics.registry.metrics()).toContain('freshet_http_exchanges_total{status_class="2xx",outcome="ok"} 1');
  });
});
