import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../../core/clock';
import { benchTokenScript, takeTokenScript } from './token-quota-script';

export interface TokenQuotaOptions {
  /** Key namespace of the crawl; the pool gets one hash under it. */
  namespace: string;
  /** Pool name (e.g. `weibo-tokens`); identities are numbered 0..size-1, never named in Redis. */
  pool: string;
  size: number;
  limitPerWindow: number;
  windowMs: number;
}

export type TokenSlot = { kind: 'taken'; index: number } | { kind: 'wait'; waitMs: number };

/**
 * Request quotas of a pool of identities, kept in Redis so they hold across workers: each
 * identity sends at most `limitPerWindow` requests per fixed window, and a benched identity sends
 * nothing until its bench ends. Identities are indices: secrets never reach Redis, logs or metrics.
 */
export class TokenQuota {
  private readonly key: string;

  constructor(private readonly redis: Redis | Cluster, private readonly opts: TokenQuotaOptions, private readonly clock: Clock) {
    if (opts.size < 1) throw new RangeError('a token pool needs at least one identity');
    this.key = `${opts.namespace}:{quota:${opts.pool}}`;
  }

  /** `order` (a permutation of 0..size-1) says which identity to try first; default round robin. */
  async take(order?: readonly number[]): Promise<TokenSlot> {
    if (order && order.length !== this.opts.size) throw new RangeError('the order must list every identity once');
    const [ok, value] = (await this.redis.eval(takeTokenScript, 1, this.key, this.clock.nowMs(), this.opts.windowMs, this.opts.limitPerWindow, this.opts.size, ...(order ?? []))) as [number, number];
    return ok === 1 ? { kind: 'taken', index: value } : { kind: 'wait', waitMs: Math.max(1, value) };
  }

  async bench(index: number, forMs: number): Promise<void> {
    await this.redis.eval(benchTokenScript, 1, this.key, index, this.clock.nowMs() + forMs);
  }
}
