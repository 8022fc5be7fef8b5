import { randomBytes } from 'node:crypto';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Metrics } from '../core/metrics';
import type { FetchedText } from '../parsers/adapter';
import type { PipelineConfig } from '../pipeline/schema';
import type { RedisFrontier } from '../sources/frontier/frontier';
import { LastOrigin } from './last-origin';
import type { Fetcher } from './types';

/** How often a request waiting for a busy origin asks again. */
const POLITE_POLL_MS = 25;

export interface PoliteFetchDeps {
  fetcher: Fetcher;
  frontier: RedisFrontier;
  metrics: Metrics;
  sleep(ms: number): Promise<void>;
}

/**
 * The adapters' fetch: each request waits for its origin's slot (minimum delay, robots
 * Crawl-delay, concurrency, all kept in Redis so they hold across workers), is counted and timed.
 */
export class PoliteFetch {
  /** Requests sent so far (the run's `requests`). */
  requests = 0;
  private readonly holderPrefix = randomBytes(6).toString('hex');
  private holderSeq = 0;
  private readonly origins = new LastOrigin();

  constructor(private readonly config: Pick<PipelineConfig, 'politeness' | 'fetch'>, private readonly deps: PoliteFetchDeps) {}

  async fetchText(url: string, expect: 'json' | 'html', headers?: Record<string, string>): Promise<FetchedText> {
    const { fetcher, metrics } = this.deps;
    const origin = this.origins.of(url);
    const p = this.config.politeness;
    const minDelayMs = Math.max(p.min_delay_ms, fetcher.robotsCrawlDelayMs?.(origin) ?? 0);
    // No delay and no concurrency cap (the common case): no slot to wait for, and no promise for it.
    const holder = minDelayMs === 0 && p.max_concurrency_per_origin === 0 ? undefined : await this.slot(origin, minDelayMs);
    this.requests += 1;
    try {
      const res = await fetcher.fetch({ url, expect, ...(headers ? { headers } : {}) });
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
      if (holder) await this.deps.frontier.releaseOrigin(origin, holder).catch(() => undefined);
    }
  }

  /**
   * Waits for this origin's next slot. Returns the holder to release when a concurrency slot was
   * taken. A slot too far away throws a throttled error: the subject is rescheduled, not waited for.
   */
  private async slot(origin: string, minDelayMs: number): Promise<string | undefined> {
    const p = this.config.politeness;
    const holder = p.max_concurrency_per_origin > 0 ? `${this.holderPrefix}:${this.holderSeq++}` : '';
    const holdMs = this.config.fetch.total_timeout_ms * this.config.fetch.retry.max_attempts + 60_000;
    for (let waitedMs = 0; ;) {
      const slot = await this.deps.frontier.politeness(origin, { minDelayMs, maxWaitMs: p.max_wait_ms - waitedMs, maxConcurrency: p.max_concurrency_per_origin, holder, holdMs });
      if (slot.kind === 'taken') return holder || undefined;
      if (slot.kind === 'too_far' || waitedMs >= p.max_wait_ms) {
        const retryAfterMs = slot.kind === 'too_far' ? slot.waitMs : 1000;
        throw new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'origin busy (politeness)', { origin }, undefined, retryAfterMs);
      }
      const pauseMs = slot.kind === 'wait' ? slot.waitMs : POLITE_POLL_MS;
      await this.deps.sleep(pauseMs);
      waitedMs += pauseMs;
    }
  }
}
