import { ErrorCodes, FreshetError, type ErrorCode } from '../core/errors';
import { redactUrl } from '../core/redact';
import type { Metrics } from '../core/metrics';
import type { FetchedText } from '../core/visit';
import type { BodyAllowance, Fetcher, FetchRequest, OriginRelease, PolitenessGate } from '../fetchers/contract';
import { LastOrigin } from './last-origin';

export interface PoliteFetchDeps {
  fetcher: Fetcher;
  /** Per-origin politeness across workers (OriginGate); none: requests go out as they come. */
  gate?: PolitenessGate;
  metrics: Metrics;
  /** Aborts every request in flight and every wait for a slot (the run stopping on a signal). */
  signal?: AbortSignal;
  /** The parser's reading of soft blocks, given with every request (the fetch layer counts them and cools the identity down). */
  softBlockOf?: FetchRequest['softBlockOf'];
}

export interface RefusedRequests {
  quota: number;
  politeness: number;
  robots: number;
}

/** Errors the fetcher raises before a request leaves: the request was refused here, not sent. */
const REFUSALS: Partial<Record<ErrorCode, keyof RefusedRequests>> = {
  [ErrorCodes.quotaExhausted]: 'quota',
  [ErrorCodes.fetchRobotsDisallowed]: 'robots',
};

/**
 * The parsers' fetch: each request waits for its origin's slot (minimum delay, robots
 * Crawl-delay, concurrency, all kept in Redis so they hold across workers), is counted and timed.
 */
export class PoliteFetch {
  /** Requests sent so far (the run's `requests`): those refused here, before they left, are not among them. */
  requests = 0;
  /** Requests refused locally, by why: no identity or proxy within its quota, the origin's slot too far away, robots.txt. */
  readonly refused: RefusedRequests = { quota: 0, politeness: 0, robots: 0 };
  private readonly origins = new LastOrigin();

  constructor(private readonly deps: PoliteFetchDeps) {}

  /** robots.txt's `Sitemap:` lines from the fetcher's robots cache (no request of its own when cached); `undefined`: the fetcher reads no robots.txt. */
  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.deps.fetcher.robotsSitemaps?.(origin);
  }

  /** `allowance`: the visit's share of the run's byte budget, which the body is read under. */
  async fetchText(url: string, expect: 'json' | 'html', headers?: Record<string, string>, allowance?: BodyAllowance): Promise<FetchedText> {
    const { fetcher, metrics, signal } = this.deps;
    const origin = this.origins.of(url);
    const entering = this.deps.gate?.acquire(origin, signal);
    let release: OriginRelease | undefined;
    try {
      release = entering === undefined ? undefined : await untilAborted(entering, signal, url);
    } catch (err) {
      if ((err as FreshetError).kind === 'throttled') this.refused.politeness += 1;
      throw err;
    }
    try {
      if (signal?.aborted) throw cut(url);
      this.requests += 1;
      const res = await fetcher.fetch({
        url, expect, ...(headers ? { headers } : {}), ...(allowance ? { allowance } : {}), ...(this.deps.softBlockOf ? { softBlockOf: this.deps.softBlockOf } : {}),
      }, signal);
      metrics.countFetch(res.status);
      metrics.fetchSeconds.observe(res.elapsedMs / 1000);
      return {
        url: res.url, status: res.status, text: res.text, fetchedAtMs: res.fetchedAtMs, headers: res.headers, bodyBytes: res.body.length, body: res.body,
        ...(res.permanentRedirect !== undefined ? { permanentRedirect: res.permanentRedirect } : {}),
      };
    } catch (err) {
      const refusal = REFUSALS[(err as FreshetError).code];
      if (refusal) {
        this.requests -= 1;
        this.refused[refusal] += 1;
        throw err;
      }
      const status = (err as FreshetError).fields?.['status'];
      metrics.countFetch(typeof status === 'number' ? status : undefined);
      throw err;
    } finally {
      if (release) await release();
    }
  }
}

function cut(url: string): FreshetError {
  return new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'fetch aborted: the run is stopping', { url: redactUrl(url) });
}

/** The wait for a politeness slot, given up when the run stops; a slot that arrives after that is released at once. */
function untilAborted(entering: Promise<OriginRelease | undefined>, signal: AbortSignal | undefined, url: string): Promise<OriginRelease | undefined> {
  if (!signal) return entering;
  if (signal.aborted) {
    void entering.then((release) => release?.(), () => undefined);
    return Promise.reject(cut(url));
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      void entering.then((release) => release?.(), () => undefined);
      reject(cut(url));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    entering.then((release) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) void release?.();
      else resolve(release);
    }, (err: unknown) => {
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
  });
}
