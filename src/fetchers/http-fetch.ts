import { Agent, type Dispatcher } from 'undici';
import { ErrorCodes, FreshetError } from '../core/errors';
import { decideRetry } from '../core/retry';
import { parseCidr } from './address-class';
import { ACCEPT_ENCODING, readBody } from './body-reader';
import { decodeBody, inferExpect, type Expect } from './decode-body';
import { aborted, bodyTooLarge, decodeFailed, errorFromStatus, errorFromThrown, redactUrl, statusClass, timedOut, withAttempts } from './fetch-errors';
import { HostResolver } from './host-resolver';
import { dispatcherLimits, httpFetchConfigSchema, type HttpFetchConfig } from './http-fetch-config';
import { RobotsCache } from './robots-cache';
import { fetchRobotsTxt, type RobotsFetchContext } from './robots-fetch';
import { AttemptWindows, type AttemptSignal } from './attempt-signal';
import type { BodyAllowance, FetchRequest, FetchResponse, FetcherDeps } from './contract';
import { REDIRECT_STATUSES, headerValue, flattenHeaders, parseTarget, resolveLocation } from './fetch-url';
import { sleepMs } from '../core/timers';

export { httpFetchConfigSchema, DEFAULT_USER_AGENT, type HttpFetchConfig } from './http-fetch-config';
export type { FetchRequest, FetchResponse, FetchMetrics, PolitenessGate, FetcherDeps } from './contract';

/** The pipeline stage type this fetcher implements. */
export const HTTP_FETCH_STAGE_TYPE = 'http_fetch';

/** Headers a request must not carry to another origin after a redirect. */
const CROSS_ORIGIN_STRIPPED = new Set(['authorization', 'cookie', 'proxy-authorization']);
const ACCEPT: Record<Expect, string> = {
  json: 'application/json, text/plain;q=0.5, */*;q=0.1',
  html: 'text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8',
  text: 'text/plain, text/*;q=0.9, */*;q=0.5',
  bytes: '*/*',
};

/**
 * The request's byte allowance, with the attempt's clock stopped while it waits for room: the
 * wait is for the run's memory, not for the origin, and must not use up `total_timeout_ms`
 * (bodies queued behind a few big pages timed out and were read again, issue 24).
 */
function pausing(allowance: BodyAllowance, attempt: AttemptSignal, expect: Expect): BodyAllowance {
  // A body read as text is held twice until its page is done: its bytes and the string decoded
  // from them (one byte a character for ASCII and single-byte charsets, fewer for UTF-8 CJK).
  const factor = expect === 'bytes' ? 1 : 2;
  return {
    cover(bodyBytes) {
      const wait = allowance.cover(bodyBytes * factor);
      if (!wait) return wait;
      attempt.pause();
      return wait.finally(() => attempt.resume());
    },
  };
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> => sleepMs(ms, signal);

export class HttpFetcher {
  readonly config: HttpFetchConfig;
  private readonly agent: Agent;
  private readonly resolver: HostResolver;
  private readonly robots: RobotsCache | undefined;
  private readonly loginWall: RegExp | undefined;
  private readonly baseHeaders: Record<Expect, Record<string, string>>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private closing: Promise<void> | undefined;
  private readonly attempts = new AttemptWindows();

  constructor(config: HttpFetchConfig, private readonly deps: FetcherDeps) {
    // Accept a raw object too (tests, programmatic use): parsing a parsed config is idempotent.
    this.config = httpFetchConfigSchema.parse(config);
    const c = this.config;
    this.sleep = deps.sleep ?? defaultSleep;
    this.resolver = new HostResolver({
      clock: deps.clock,
      ttlMs: c.dns_cache_ttl_secs * 1000,
      maxHosts: c.dns_cache_max_hosts,
      allowPrivate: c.allow_private_networks,
      allowedCidrs: c.allowed_cidrs.map((s) => parseCidr(s)!),
      lookupAll: deps.lookupAll,
    });
    this.agent = new Agent({
      ...dispatcherLimits(c),
      connect: { timeout: c.connect_timeout_ms, lookup: this.resolver.netLookup },
    });
    const common: Record<string, string> = { 'user-agent': c.user_agent, 'accept-encoding': c.compression ? ACCEPT_ENCODING : 'identity' };
    for (const [k, v] of Object.entries(c.headers)) common[k.toLowerCase()] = v;
    const base = {} as Record<Expect, Record<string, string>>;
    for (const e of Object.keys(ACCEPT) as Expect[]) base[e] = { accept: ACCEPT[e], ...common };
    this.baseHeaders = base;
    const robotsContext: RobotsFetchContext = {
      agent: this.agent,
      resolver: this.resolver,
      // robots.txt is read before the origin's first request, whose slot the caller may hold already.
      politeness: undefined,
      logger: deps.logger,
      headers: this.baseHeaders.text,
      maxBytes: Math.min(c.robots_max_bytes, c.max_body_bytes),
      totalTimeoutMs: c.total_timeout_ms,
      attempts: this.attempts,
    };
    this.loginWall = c.login_redirect_pattern === null ? undefined : new RegExp(c.login_redirect_pattern, 'iu');
    this.robots = c.respect_robots
      ? new RobotsCache({
          clock: deps.clock,
          userAgentToken: c.robots_user_agent,
          ttlMs: c.robots_cache_ttl_secs * 1000,
          errorTtlMs: c.robots_error_ttl_secs * 1000,
          maxOrigins: c.robots_cache_max_origins,
          fetchRobots: (origin) => fetchRobotsTxt(origin, robotsContext),
        })
      : undefined;
  }

  /**
   * Fetches `req`, retrying as the policy decides; throws only FreshetError. `via` sends it through
   * another dispatcher (a proxy of the pool) instead of the direct agent; robots.txt stays direct.
   */
  async fetch(req: FetchRequest, signal?: AbortSignal, via?: Dispatcher): Promise<FetchResponse> {
    const startedMs = this.deps.clock.nowMs();
    const target = parseTarget(req.url);
    // After close() (shutdown) an item is given back, not dead-lettered: retryable, no retries here.
    if (this.closing) throw aborted(target.href, 'fetcher closed');
    const policy = this.config.retry;
    for (let attempt = 1; ; attempt++) {
      let err: FreshetError;
      const a = this.attempts.start(signal, this.config.total_timeout_ms);
      try {
        const res = await this.exchange(target, req, a, via ?? this.agent);
        res.attempts = attempt;
        res.elapsedMs = this.deps.clock.nowMs() - startedMs;
        return res;
      } catch (thrown) {
        err = a.timedOut() ? timedOut(target.href, this.config.total_timeout_ms) : errorFromThrown(thrown, target.href);
        req.allowance?.giveBack?.();
      } finally {
        a.done();
      }
      if (signal?.aborted) throw aborted(target.href, signal.reason);
      const decision = decideRetry(err, attempt, policy, this.deps.rng);
      if (decision.action === 'retry') {
        this.deps.metrics?.retries?.(err.code);
        this.deps.logger?.debug?.({ url: redactUrl(target.href), code: err.code, attempt, delay_ms: decision.delayMs }, 'fetch retry');
        try {
          await this.sleep(decision.delayMs, signal);
        } catch (sleepErr) {
          throw aborted(target.href, sleepErr);
        }
        continue;
      }
      // Rescheduling hands the wait to the frontier instead of holding a worker slot.
      if (decision.action === 'reschedule') throw withAttempts(err, attempt, decision.delayMs, 'throttled');
      throw withAttempts(err, attempt);
    }
  }

  /** Crawl-delay from the cached robots.txt of `origin` (e.g. `https://example.com`), if any. */
  robotsCrawlDelayMs(origin: string): number | undefined {
    return this.robots?.crawlDelayMs(origin);
  }

  /**
   * The `Sitemap:` lines of `origin`'s robots.txt, from the robots cache (the one fetch per origin
   * and TTL that robots rules come from); `undefined` when this fetcher does not read robots.txt.
   */
  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.robots?.sitemaps(origin);
  }

  /** Lets in-flight requests finish, then closes every socket. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.robots?.clear();
      this.resolver.clear();
      await this.agent.close();
    })();
    return this.closing;
  }

  /** One attempt: the redirect chain up to a final response. */
  private async exchange(target: URL, req: FetchRequest, attempt: AttemptSignal, dispatcher: Dispatcher): Promise<FetchResponse> {
    let url = target;
    const method = req.method ?? 'GET';
    const redirects: string[] = [];
    let permanent = true;
    let visited: Set<string> | undefined;
    for (;;) {
      // Both checks answer synchronously from their caches on the hot path.
      const resolving = this.resolver.check(url.hostname, url.href);
      if (resolving) await resolving;
      const robots = this.robots?.check(url);
      if (robots) await robots;
      // The request's own origin is gated by the caller (the runner's PoliteFetch); a redirect to
      // another origin takes that origin's slot here, or it would reach the origin ungated.
      const gating = url === target || url.origin === target.origin ? undefined : this.deps.politeness?.acquire(url.origin, attempt.signal);
      const release = gating === undefined ? undefined : await gating;
      const hopStartMs = this.deps.clock.nowMs();
      let res: Dispatcher.ResponseData | undefined;
      try {
        res = await dispatcher.request({
          origin: url.origin,
          path: url.pathname + url.search,
          method,
          headers: this.headersFor(req, url.origin !== target.origin),
          signal: attempt.dispatchSignal,
        });
        const status = res.statusCode;
        const location = REDIRECT_STATUSES.has(status) ? headerValue(res.headers.location) : undefined;
        if (location !== undefined) {
          await res.body.dump();
          this.deps.metrics?.requests('3xx', 'redirect');
          const next = resolveLocation(location, url);
          // Classified before the next hop's robots check: a login page that robots.txt forbids
          // is still a login wall, not a robots refusal of the page we asked for.
          if (this.loginWall?.test(next.host + next.pathname)) {
            throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', 'redirected to a login page', {
              url: redactUrl(target.href),
              location: redactUrl(next.origin + next.pathname),
            });
          }
          visited ??= new Set([target.href]);
          if (visited.has(next.href)) {
            throw new FreshetError(ErrorCodes.fetchRedirectLoop, 'non_retryable', 'redirect loop', { url: redactUrl(target.href), location: redactUrl(next.href) });
          }
          if (redirects.length >= this.config.max_redirects) {
            throw new FreshetError(ErrorCodes.fetchTooManyRedirects, 'non_retryable', `more than ${this.config.max_redirects} redirects`, {
              url: redactUrl(target.href),
              max_redirects: this.config.max_redirects,
            });
          }
          visited.add(next.href);
          redirects.push(next.href);
          permanent &&= status === 301 || status === 308;
          url = next;
          continue;
        }
        if ((status < 200 || status >= 300) && status !== 304) {
          await res.body.dump();
          throw errorFromStatus(status, headerValue(res.headers['retry-after']), url.href, this.deps.clock.nowMs());
        }
        // A HEAD or 304 answer declares the length of a body it does not send.
        const declared = method === 'HEAD' || status === 304 ? 0 : Number(headerValue(res.headers['content-length']));
        if (declared > this.config.max_body_bytes) {
          res.body.destroy();
          throw bodyTooLarge(url.href, this.config.max_body_bytes, declared);
        }
        const headers = flattenHeaders(res.headers);
        // A declared length is asked for whole before reading (a compressed body may decode to more: asked as it comes).
        const allowance = req.allowance && pausing(req.allowance, attempt, req.expect ?? inferExpect(headers['content-type']));
        const room = declared > 0 ? allowance?.cover(declared) : undefined;
        if (room) await room;
        const { bytes, wireBytes } = await readBody(res.body, headers['content-encoding'], this.config.max_body_bytes, url.href, false, allowance);
        const nowMs = this.deps.clock.nowMs();
        const m = this.deps.metrics;
        if (m) {
          m.requests(statusClass(status), 'ok');
          m.bytes(wireBytes);
          m.latencyMs(nowMs - hopStartMs);
        }
        const contentType = headers['content-type'];
        let decoded: { text: string; charset: string };
        try {
          decoded = decodeBody(bytes, contentType, req.expect ?? inferExpect(contentType));
        } catch (decodeErr) {
          throw decodeFailed(url.href, decodeErr);
        }
        const { text, charset } = decoded;
        return {
          requestUrl: req.url, url: url.href, status, headers, body: bytes, text, charset, redirects, attempts: 1, fetchedAtMs: nowMs, elapsedMs: 0,
          ...(redirects.length > 0 ? { permanentRedirect: permanent } : {}),
        };
      } catch (thrown) {
        const err = errorFromThrown(thrown, url.href);
        this.deps.metrics?.requests(res ? statusClass(res.statusCode) : 'none', err.code);
        throw err;
      } finally {
        await release?.();
      }
    }
  }

  private headersFor(req: FetchRequest, crossOrigin: boolean): Record<string, string> {
    const base = this.baseHeaders[req.expect ?? 'html'];
    if (!req.headers) return base;
    const out: Record<string, string> = { ...base };
    for (const k in req.headers) {
      const key = k.toLowerCase();
      if (crossOrigin && CROSS_ORIGIN_STRIPPED.has(key)) continue;
      out[key] = req.headers[k]!;
    }
    return out;
  }
}
