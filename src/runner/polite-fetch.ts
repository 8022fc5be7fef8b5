import type { FreshetError } from '../core/errors';
import type { Metrics } from '../core/metrics';
import type { FetchedText } from '../core/visit';
import type { Fetcher, FetchRequest, PolitenessGate } from '../fetchers/contract';
import { LastOrigin } from './last-origin';

export interface PoliteFetchDeps {
  fetcher: Fetcher;
  /** Per-origin politeness across workers (OriginGate); none: requests go out as they come. */
  gate?: PolitenessGate;
  metrics: Metrics;
  /** The parser's reading of soft blocks, given with every request (the fetch layer counts them and cools the identity down). */
  softBlockOf?: FetchRequest['softBlockOf'];
}

/**
 * The parsers' fetch: each request waits for its origin's slot (minimum delay, robots
 * Crawl-delay, concurrency, all kept in Redis so they hold across workers), is counted and timed.
 */
export class PoliteFetch {
  /** Requests sent so far (the run's `requests`). */
  requests = 0;
  private readonly origins = new LastOrigin();

  constructor(private readonly deps: PoliteFetchDeps) {}

  async fetchText(url: string, expect: 'json' | 'html', headers?: Record<string, string>): Promise<FetchedText> {
    const { fetcher, metrics } = this.deps;
    const origin = this.origins.of(url);
    const entering = this.deps.gate?.acquire(origin);
    const release = entering === undefined ? undefined : await entering;
    this.requests += 1;
    try {
      const res = await fetcher.fetch({ url, expect, ...(headers ? { headers } : {}), ...(this.deps.softBlockOf ? { softBlockOf: this.deps.softBlockOf } : {}) });
      metrics.countFetch(res.status);
      metrics.fetchSeconds.observe(res.elapsedMs / 1000);
      return {
        url: res.url, status: res.status, text: res.text, fetchedAtMs: res.fetchedAtMs, headers: res.headers, bodyBytes: res.body.length, body: res.body,
        ...(res.permanentRedirect !== undefined ? { permanentRedirect: res.permanentRedirect } : {}),
      };
    } catch (err) {
      const status = (err as FreshetError).fields?.['status'];
      metrics.countFetch(typeof status === 'number' ? status : undefined);
      throw err;
    } finally {
      if (release) await release();
    }
  }
}
