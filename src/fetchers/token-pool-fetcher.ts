import { ErrorCodes, FreshetError } from '../core/errors';
import type { TokenQuota } from '../limits/token-quota';
import type { Fetcher, FetchRequest, FetchResponse } from './contract';
import { takePoolSlot, type PoolSlotOptions } from '../limits/pool-slot';
import { REFUSAL_STATUSES } from '../limits/refusals';

export interface TokenPoolOptions {
  /** The secrets (tokens or cookies), from the environment or files: only `src/cli` reads them. */
  tokens: readonly string[];
  /** The request headers that present one identity, e.g. `t => ({ cookie: 'SUB=' + t })`. */
  headersFor(token: string): Record<string, string>;
  quota: TokenQuota;
  /** How long an identity answered with 418/403/429 sits out. */
  benchMs: number;
  /** A wait for a free identity longer than this reschedules the subject instead of holding its slot. */
  maxWaitMs: number;
  sleep(ms: number): Promise<void>;
}


/**
 * Sends every request as one identity of a pool, within each identity's quota (kept in Redis, so
 * across workers). An identity that is refused is benched and the subject deferred, so the crawl
 * goes on with the others. One quota unit per call: give the inner fetcher `max_attempts: 1` so
 * that no retry it makes on its own goes uncounted (the runner reschedules instead).
 */
export class TokenPoolFetcher implements Fetcher {
  private readonly slot: PoolSlotOptions;

  constructor(private readonly inner: Fetcher, private readonly opts: TokenPoolOptions) {
    if (opts.tokens.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', 'the token pool is empty');
    this.slot = {
      quota: opts.quota,
      maxWaitMs: opts.maxWaitMs,
      sleep: (ms) => opts.sleep(ms),
      exhausted: { message: 'every identity is at its quota or benched', fields: { pool: opts.tokens.length } },
    };
  }

  robotsCrawlDelayMs(origin: string): number | undefined {
    return this.inner.robotsCrawlDelayMs?.(origin);
  }

  async fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    const index = await takePoolSlot(this.slot);
    const token = this.opts.tokens[index % this.opts.tokens.length]!;
    try {
      return await this.inner.fetch({ ...req, headers: { ...req.headers, ...this.opts.headersFor(token) } }, signal);
    } catch (err) {
      const status = err instanceof FreshetError ? err.fields['status'] : undefined;
      if (typeof status !== 'number' || !REFUSAL_STATUSES.has(status)) throw err;
      await this.opts.quota.bench(index, this.opts.benchMs);
      // Deferred, not failed: another identity can take the subject at once.
      throw new FreshetError(ErrorCodes.identityBenched, 'throttled', `identity ${index} refused with HTTP ${status}; benched`, { identity: index, status }, err, 0);
    }
  }
}
