import type { Page, Route } from 'playwright-core';
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../core/clock';
import { ErrorCodes, FreshetError, asFreshetError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { decideRetry, type RetryPolicy } from '../../core/retry';
import type { Rng } from '../../core/rng';
import { aborted, redactUrl, withAttempts } from '../fetch-errors';
import type { Fetcher, FetchRequest, FetchResponse } from '../contract';
import { counterOn } from '../registry-metric';
import { BrowserPool, type BrowserInstance, type LaunchContext } from './browser-pool';
import { renderConfigSchema, type RenderConfig, type RenderConfigInput } from './render-config';
import { renderCrashed, renderFailed, renderTimedOut } from './render-errors';
import { clampTimerMs, sleepMs } from '../../core/timers';

export interface RenderFetcherDeps {
  /**
   * The plain fetcher: serves the plain URLs and every request of a rendered page (its robots,
   * SSRF guard, proxies, retries).
   */
  http: Fetcher;
  /** The plain fetcher's retry policy: render failures are decided the same way. */
  retry: RetryPolicy;
  clock: Clock;
  rng: Rng;
  logger?: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** Starts the browser (tests may wrap it). */
  launch?: LaunchContext;
  /** Where the render metrics go (the pipeline's registry); none: not exported. */
  registry?: Registry;
}

/** Label values are bounded: outcomes are `ok` or stable error codes, reasons a fixed set. */
function renderMetrics(registry: Registry, pagesOpen: () => number) {
  const open = registry.getSingleMetric('freshet_render_pages_open') as Gauge | undefined;
  if (!open) new Gauge({ name: 'freshet_render_pages_open', help: 'Pages rendering now', registers: [registry], collect() { this.set(pagesOpen()); } });
  return {
    pages: counterOn(registry, 'freshet_render_pages_total', 'Rendered fetches, by outcome (ok or error code)', ['outcome']),
    retries: counterOn(registry, 'freshet_render_retries_total', 'Render attempts retried, by error code', ['code']),
    blocked: counterOn(registry, 'freshet_render_blocked_total', 'Requests of rendered pages refused, by reason (resource type, method, scheme, unrouted)', ['reason']),
    subrequests: counterOn(registry, 'freshet_render_subrequests_total', 'Requests of rendered pages served by the plain fetcher, by outcome (ok or error code)', ['outcome']),
    browsers: counterOn(registry, 'freshet_render_browser_events_total', 'Browser launches and restarts (by reason)', ['event']),
  };
}

export interface RenderStats {
  rendered: number;
  plain: number;
  failed: Record<string, number>;
  retries: Record<string, number>;
  /** Requests of rendered pages never made, by reason (resource type, method, scheme). */
  blocked: Record<string, number>;
  /** Requests of rendered pages the plain fetcher refused or failed, by error code. */
  subrequestErrors: Record<string, number>;
  subrequests: number;
}

interface RenderState {
  req: FetchRequest;
  main: { res?: FetchResponse; err?: FreshetError };
  net: { inFlight: number; lastChangeMs: number };
  signal: AbortSignal;
}

/** Response headers that describe the wire encoding, not the body handed to the browser. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

const inc = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/** The main document failed in the plain fetcher: its error is the render's, unchanged. */
class MainDocumentError extends Error {
  constructor(readonly err: FreshetError) {
    super(err.message);
  }
}

/**
 * The `render` fetch mode: URLs that match `url_patterns` are loaded in headless Chromium and the
 * DOM is read once the wait conditions hold; every other URL goes to the plain fetcher as before.
 * The browser itself never touches the network: each of its requests is intercepted and fetched
 * by the plain fetcher, so robots.txt, the SSRF guard (every URL, every redirect hop), proxies,
 * size caps and credentials apply exactly as to a plain fetch. Crashes and hangs cost a retry
 * (decided by decideRetry), never the pipeline.
 */
export class RenderFetcher {
  readonly config: RenderConfig;
  private readonly pool: BrowserPool;
  private readonly patterns: RegExp[];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly blocked: Set<string>;
  private closing: Promise<void> | undefined;
  /** What each page is rendering now: its route handler (set once per page) serves that. */
  private readonly rendering = new WeakMap<Page, RenderState>();
  private readonly metrics: ReturnType<typeof renderMetrics> | undefined;
  private readonly stats_: RenderStats = { rendered: 0, plain: 0, failed: {}, retries: {}, blocked: {}, subrequestErrors: {}, subrequests: 0 };

  constructor(config: RenderConfigInput | RenderConfig, private readonly deps: RenderFetcherDeps) {
    this.config = renderConfigSchema.parse(config);
    this.patterns = this.config.url_patterns.map((p) => new RegExp(p, 'u'));
    this.blocked = new Set(this.config.block_resources);
    this.sleep = deps.sleep ?? ((ms) => sleepMs(ms));
    const m = deps.registry ? renderMetrics(deps.registry, () => this.pool.stats().pagesOpen) : undefined;
    this.metrics = m;
    this.pool = new BrowserPool(this.config, deps.logger, deps.launch, m && {
      launched: () => m.browsers.inc({ event: 'launch' }),
      restarted: (reason) => m.browsers.inc({ event: `restart_${reason}` }),
      refused: () => m.blocked.inc({ reason: 'unrouted' }),
    });
  }

  /** Whether `req` is rendered: its URL matches a pattern and it does not ask for JSON. */
  renders(req: FetchRequest): boolean {
    return req.expect !== 'json' && (req.method ?? 'GET') === 'GET' && this.patterns.some((p) => p.test(req.url));
  }

  async fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    if (!this.renders(req)) {
      this.stats_.plain += 1;
      return this.deps.http.fetch(req, signal);
    }
    if (this.closing) throw aborted(req.url, 'render fetcher closed');
    const startedMs = this.deps.clock.nowMs();
    for (let attempt = 1; ; attempt++) {
      let err: FreshetError;
      try {
        const res = await this.renderOnce(req, signal);
        res.attempts = attempt;
        res.elapsedMs = this.deps.clock.nowMs() - startedMs;
        this.stats_.rendered += 1;
        this.metrics?.pages.inc({ outcome: 'ok' });
        return res;
      } catch (thrown) {
        // The plain fetcher already retried the document itself as its policy says.
        if (thrown instanceof MainDocumentError) {
          inc(this.stats_.failed, thrown.err.code);
          this.metrics?.pages.inc({ outcome: thrown.err.code });
          throw thrown.err;
        }
        err = asFreshetError(thrown);
      }
      if (signal?.aborted) throw aborted(req.url, signal.reason);
      const decision = decideRetry(err, attempt, this.deps.retry, this.deps.rng);
      if (decision.action === 'retry') {
        inc(this.stats_.retries, err.code);
        this.metrics?.retries.inc({ code: err.code });
        this.deps.logger?.debug({ url: redactUrl(req.url), code: err.code, attempt, delay_ms: decision.delayMs }, 'render retry');
        await this.sleep(decision.delayMs);
        continue;
      }
      inc(this.stats_.failed, err.code);
      this.metrics?.pages.inc({ outcome: err.code });
      if (decision.action === 'reschedule') throw withAttempts(err, attempt, decision.delayMs, 'throttled');
      throw withAttempts(err, attempt);
    }
  }

  robotsCrawlDelayMs(origin: string): number | undefined {
    return this.deps.http.robotsCrawlDelayMs?.(origin);
  }

  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.deps.http.robotsSitemaps?.(origin);
  }

  stats(): RenderStats & { browser: ReturnType<BrowserPool['stats']> } {
    const s = this.stats_;
    return { ...s, failed: { ...s.failed }, retries: { ...s.retries }, blocked: { ...s.blocked }, subrequestErrors: { ...s.subrequestErrors }, browser: this.pool.stats() };
  }

  /** The running browser (tests kill it; benchmarks read its memory). */
  browser(): Promise<BrowserInstance | undefined> {
    return this.pool.running();
  }

  /** Closes the browser; the plain fetcher is closed by its owner. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.pool.close();
    return this.closing;
  }

  private renderOnce(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    return this.pool.withPage(async (page, inst) => {
      const budgetMs = this.config.page_timeout_ms;
      const deadline = Date.now() + budgetMs;
      const remaining = (): number => Math.max(1, deadline - Date.now());
      const requests = new AbortController();
      const onAbort = (): void => requests.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const net = { inFlight: 0, lastChangeMs: Date.now() };
      const main: { res?: FetchResponse; err?: FreshetError } = {};
      let timer: NodeJS.Timeout | undefined;
      let crashed: 'page' | 'browser' | undefined;
      let onCrash = (): void => undefined;
      let onClose = (): void => undefined;
      const failure = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(renderTimedOut(req.url, budgetMs)), clampTimerMs(budgetMs));
        onCrash = () => {
          crashed = 'page';
          reject(renderCrashed(req.url, 'the page renderer'));
        };
        onClose = () => {
          crashed ??= 'browser';
          reject(renderCrashed(req.url, 'the browser'));
        };
        page.once('crash', onCrash);
        inst.context.once('close', onClose);
        if (!inst.alive) onClose();
      });
      failure.catch(() => undefined);
      this.rendering.set(page, { req, main, net, signal: requests.signal });
      const work = async (): Promise<string> => {
        try {
          await page.goto(req.url, { waitUntil: this.config.wait.until, timeout: remaining() });
        } catch (err) {
          if (main.err) throw new MainDocumentError(main.err);
          throw err;
        }
        if (main.err) throw new MainDocumentError(main.err);
        const w = this.config.wait;
        if (w.selector) await page.waitForSelector(w.selector, { state: 'attached', timeout: remaining() });
        if (w.network_idle) await networkIdle(net, w.network_idle_ms, page);
        if (w.delay_ms > 0) await page.waitForTimeout(w.delay_ms);
        return page.content();
      };
      try {
        const html = await Promise.race([work(), failure]);
        const res = main.res!;
        const headers = { ...res.headers, 'content-type': 'text/html; charset=utf-8' };
        const body = Buffer.from(html, 'utf8');
        return { requestUrl: req.url, url: res.url, status: res.status, headers, body, text: html, charset: 'utf-8', redirects: res.redirects, attempts: 1, fetchedAtMs: this.deps.clock.nowMs(), elapsedMs: 0 };
      } catch (err) {
        if (err instanceof MainDocumentError || err instanceof FreshetError) {
          if (err instanceof FreshetError && err.code === ErrorCodes.renderTimeout) {
            // A page past its budget may be stuck in a script: a renderer that will not close is
            // replaced with the whole browser by the pool; one that closes costs nothing more.
            this.deps.logger?.warn({ url: redactUrl(req.url), budget_ms: budgetMs }, 'render: page over its time budget');
          }
          throw err;
        }
        if (crashed || !inst.alive) throw renderCrashed(req.url, crashed === 'page' ? 'the page renderer' : 'the browser');
        if (isPlaywrightTimeout(err)) throw renderTimedOut(req.url, budgetMs);
        throw renderFailed(req.url, err);
      } finally {
        clearTimeout(timer);
        page.off('crash', onCrash);
        inst.context.off('close', onClose);
        this.rendering.delete(page);
        signal?.removeEventListener('abort', onAbort);
        requests.abort();
      }
    }, async (page) => void await page.route('**/*', (route) => {
      const st = this.rendering.get(page);
      if (st) return this.serve(route, st.req, st.main, st.net, st.signal);
      // A parked page (its last render over) asks for nothing.
      inc(this.stats_.blocked, 'idle_page');
      this.metrics?.blocked.inc({ reason: 'idle_page' });
      return route.abort('blockedbyclient').catch(() => undefined);
    }));
  }

  /** Answers one browser request through the plain fetcher, or refuses it (counted). */
  private async serve(route: Route, req: FetchRequest, main: { res?: FetchResponse; err?: FreshetError }, net: { inFlight: number; lastChangeMs: number }, signal: AbortSignal): Promise<void> {
    const request = route.request();
    const isMain = request.isNavigationRequest() && request.frame().parentFrame() === null;
    const type = request.resourceType();
    const method = request.method();
    const url = request.url();
    let refusal: string | undefined;
    if (!isMain && this.blocked.has(type)) refusal = type;
    else if (method !== 'GET' && method !== 'HEAD') refusal = 'method';
    else if (!/^https?:/i.test(url)) refusal = 'scheme';
    if (refusal) {
      inc(this.stats_.blocked, refusal);
      this.metrics?.blocked.inc({ reason: refusal });
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    net.inFlight += 1;
    net.lastChangeMs = Date.now();
    try {
      const accept = request.headers()['accept'];
      const sub: FetchRequest = { url, method: method as 'GET' | 'HEAD', expect: isMain ? 'html' : 'bytes', ...(accept ? { headers: { accept } } : {}) };
      let res: FetchResponse;
      try {
        if (!isMain) this.stats_.subrequests += 1;
        res = await this.deps.http.fetch(sub, signal);
        if (!isMain) this.metrics?.subrequests.inc({ outcome: 'ok' });
      } catch (thrown) {
        const err = asFreshetError(thrown);
        if (isMain) main.err = err;
        else {
          inc(this.stats_.subrequestErrors, err.code);
          this.metrics?.subrequests.inc({ outcome: err.code });
        }
        await route.abort(isMain ? 'failed' : 'blockedbyclient').catch(() => undefined);
        return;
      }
      if (isMain && url === req.url) main.res = res;
      await this.fulfill(route, res, isMain);
    } finally {
      net.inFlight -= 1;
      net.lastChangeMs = Date.now();
    }
  }

  private async fulfill(route: Route, res: FetchResponse, isMain: boolean): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (!WIRE_HEADERS.has(k)) headers[k] = v;
    // The document was decoded by the plain fetcher's charset detector (GBK without a declaration
    // included): the browser gets UTF-8 and a header that says so, which wins over any meta tag.
    if (isMain) headers['content-type'] = 'text/html; charset=utf-8';
    // Never a 3xx: the browser would follow it outside every route (playwright routes only the
    // first request of a redirect chain). The plain fetcher followed the redirects; a base URL
    // makes relative links and script requests resolve against the final document URL.
    const html = isMain && res.url !== res.requestUrl ? withBase(res.text, res.url) : res.text;
    const body = isMain ? Buffer.from(html, 'utf8') : Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength);
    await route.fulfill({ status: res.status, headers, body }).catch(() => undefined);
  }
}

/** The document with `<base href>` first in its head (a base it declares itself comes later and loses). */
export function withBase(html: string, url: string): string {
  const tag = `<base href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  return tag + html;
}

function isPlaywrightTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/** Resolves once no request of the page has been in flight for `quietMs`. */
async function networkIdle(net: { inFlight: number; lastChangeMs: number }, quietMs: number, page: Page): Promise<void> {
  for (;;) {
    const idleFor = Date.now() - net.lastChangeMs;
    if (net.inFlight === 0 && idleFor >= quietMs) return;
    await page.waitForTimeout(net.inFlight === 0 ? Math.max(10, quietMs - idleFor) : 25);
  }
}
