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
  /** How long an identity answered with 418/403/429 (or a soft block) sits out, at most. */
  benchMs: number;
  /** The first sit-out of a run of refusals, doubling to benchMs; absent: always benchMs. */
  minBenchMs?: number;
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

  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.inner.robotsSitemaps?.(origin);
  }

  async fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    const index = await takePoolSlot(this.slot);
    const token = this.opts.tokens[index % this.opts.tokens.length]!;
    let res: FetchResponse;
    try {
      res = await this.inner.fetch({ ...req, identity: String(index), headers: { ...req.headers, ...this.opts.headersFor(token) } }, signal);
    } catch (err) {
      const status = err instanceof FreshetError ? err.fields['status'] : undefined;
      const soft = err instanceof FreshetError ? err.fields['soft_block'] : undefined;
      if (soft === undefined && (typeof status !== 'number' || !REFUSAL_STATUSES.has(status))) throw err;
      const benchMs = this.benchFor(index);
      await this.opts.quota.bench(index, benchMs);
      const why = soft !== undefined ? `a soft block (${String(soft)})` : `HTTP ${String(status)}`;
      // Deferred, not failed: another identity can take the subject at once.
      throw new FreshetError(ErrorCodes.identityBenched, 'throttled', `identity ${index} refused with ${why}; benched ${Math.round(benchMs / 1000)} s`, {
        identity: index, ...(typeof status === 'number' ? { status } : {}), ...(soft !== undefined ? { soft_block: soft } : {}),
      }, err, 0);
    }
    this.refusalsInARow.delete(index);
    return res;
  }

  /** Refusals in a row per identity (this worker's view): the sit-out doubles with each. */
  private readonly refusalsInARow = new Map<number, number>();

  private benchFor(index: number): number {
    const n = (this.refusalsInARow.get(index) ?? 0) + 1;
    this.refusalsInARow.set(index, n);
    const min = this.opts.minBenchMs;
    return min === undefined ? this.opts.benchMs : Math.min(this.opts.benchMs, min * 2 ** Math.min(30, n - 1));
  }
}
