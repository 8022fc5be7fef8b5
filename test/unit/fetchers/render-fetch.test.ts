import { Registry } from 'prom-client';
import { ManualClock } from '../../../src/core/clock';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { retryPolicySchema } from '../../../src/core/retry';
import { seededRng } from '../../../src/core/rng';
import type { FetchRequest, FetchResponse } from '../../../src/fetchers/contract';
import { renderConfigSchema } from '../../../src/fetchers/render/render-config';
import { RenderFetcher, withBase } from '../../../src/fetchers/render/render-fetch';
import { pipelineSchema } from '../../../src/pipeline/schema';

const ok = (url: string): FetchResponse => ({
  requestUrl: url, url, status: 200, headers: { 'content-type': 'text/html' }, body: new Uint8Array(), text: '<p>plain</p>',
  charset: 'utf-8', redirects: [], attempts: 1, fetchedAtMs: 0, elapsedMs: 0,
});

function fetcher(config: Record<string, unknown>, launch?: () => Promise<never>, registry?: Registry) {
  const plain: FetchRequest[] = [];
  const sleeps: number[] = [];
  const f = new RenderFetcher({ url_patterns: ['^https://spa\\.example/'], ...config }, {
    http: { fetch: async (req) => (plain.push(req), ok(req.url)) },
    retry: retryPolicySchema.parse({ max_attempts: 3, base_delay_ms: 10, jitter: 'none' }),
    clock: new ManualClock(0), rng: seededRng(1), sleep: async (ms) => void sleeps.push(ms),
    ...(launch ? { launch } : {}),
    ...(registry ? { registry } : {}),
  });
  return { f, plain, sleeps };
}

describe('render config', () => {
  it('is off unless a pipeline asks for it, and strict', () => {
    const base = { name: 'p', parse: { type: 'web_pages' }, sink: { type: 'blackhole' } };
    expect(pipelineSchema.parse(base).fetch.render).toBeUndefined();
    const on = pipelineSchema.parse({ ...base, fetch: { type: 'http_fetch', render: { url_patterns: ['/app/'] } } });
    expect(on.fetch.render).toMatchObject({ max_pages: 2, executable_path: '/usr/bin/chromium', block_resources: ['image', 'font', 'media'], wait: { until: 'load', network_idle: false, delay_ms: 0 } });
    expect(() => renderConfigSchema.parse({ url_patterns: ['/app/'], headless: false })).toThrow();
    expect(() => renderConfigSchema.parse({ url_patterns: [] })).toThrow();
    expect(() => renderConfigSchema.parse({ url_patterns: ['(unclosed'] })).toThrow(/invalid regular expression/);
    expect(() => renderConfigSchema.parse({ url_patterns: ['x'], block_resources: ['script'] })).toThrow();
    expect(() => renderConfigSchema.parse({ url_patterns: ['x'], extra_args: ['rm -rf'] })).toThrow();
  });
});

describe('RenderFetcher routing and failures (no browser started)', () => {
  it('sends URLs that match no pattern, JSON requests and HEAD requests to the plain fetcher', async () => {
    const { f, plain } = fetcher({ executable_path: '/nonexistent/chromium' });
    expect(f.renders({ url: 'https://spa.example/t/1' })).toBe(true);
    expect(f.renders({ url: 'https://other.example/spa.example/' })).toBe(false);
    expect(f.renders({ url: 'https://spa.example/api', expect: 'json' })).toBe(false);
    expect(f.renders({ url: 'https://spa.example/t/1', method: 'HEAD' })).toBe(false);
    const res = await f.fetch({ url: 'https://other.example/x', expect: 'html' });
    expect(res.text).toBe('<p>plain</p>');
    expect(plain.map((r) => r.url)).toEqual(['https://other.example/x']);
    expect(f.stats()).toMatchObject({ plain: 1, rendered: 0 });
    await f.close();
  });

  it('stops the pipeline (critical) when the browser is not installed', async () => {
    const { f } = fetcher({ executable_path: '/nonexistent/chromium' });
    const err = await f.fetch({ url: 'https://spa.example/t/1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FreshetError);
    expect((err as FreshetError).code).toBe(ErrorCodes.configInvalid);
    expect((err as FreshetError).kind).toBe('critical');
    await f.close();
  });

  it('retries a failed launch as the retry policy decides, then gives the item back with its attempts', async () => {
    let launches = 0;
    const registry = new Registry();
    const { f, sleeps } = fetcher({ executable_path: process.execPath }, async () => {
      launches += 1;
      throw new Error('Failed to launch: boom');
    }, registry);
    const err = (await f.fetch({ url: 'https://spa.example/t/1' }).catch((e: unknown) => e)) as FreshetError;
    expect(err.code).toBe(ErrorCodes.renderLaunch);
    expect(err.kind).toBe('retryable');
    expect(err.fields['attempts']).toBe(3);
    expect(launches).toBe(3);
    expect(sleeps).toEqual([10, 20]);
    expect(f.stats().retries).toEqual({ [ErrorCodes.renderLaunch]: 2 });
    const text = await registry.metrics();
    expect(text).toContain(`freshet_render_retries_total{code="${ErrorCodes.renderLaunch}"} 2`);
    expect(text).toContain(`freshet_render_pages_total{outcome="${ErrorCodes.renderLaunch}"} 1`);
    expect(text).toContain('freshet_render_pages_open 0');
    await f.close();
  });

  it('refuses work after close (given back, not dead-lettered)', async () => {
    const { f } = fetcher({ executable_path: process.execPath });
    await f.close();
    const err = (await f.fetch({ url: 'https://spa.example/t/1' }).catch((e: unknown) => e)) as FreshetError;
    expect(err.code).toBe(ErrorCodes.fetchAborted);
  });
});

describe('withBase', () => {
  it('puts the final URL first in the head (escaped), or first in the document when there is no head', () => {
    expect(withBase('<html><head lang="x"><title>t</title></head></html>', 'https://a.example/p?x=1&y="2"'))
      .toBe('<html><head lang="x"><base href="https://a.example/p?x=1&amp;y=&quot;2&quot;"><title>t</title></head></html>');
    expect(withBase('<p>x</p>', 'https://a.example/')).toBe('<base href="https://a.example/"><p>x</p>');
    expect(withBase('<header>no</header><HEAD></HEAD>', 'https://a.example/')).toBe('<header>no</header><HEAD><base href="https://a.example/"></HEAD>');
  });
});
