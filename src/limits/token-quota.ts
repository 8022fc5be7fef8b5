import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../core/clock';
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

/** One identity (or proxy) of a pool as its quota hash has it now. */
export interface PoolMemberStatus {
  index: number;
  /** Requests taken in the current window. */
  used: number;
  limit: number;
  /** Benched until then (ms), if the bench has not ended. */
  benchedUntilMs?: number;
  state: 'available' | 'at_quota' | 'benched';
}

export type TokenSlot = { kind: 'taken'; index: number } | { kind: 'wait'; waitMs: number };

type Runner = (...args: (string | number)[]) => Promise<unknown>;

// Defined as commands, like the frontier's scripts: ioredis sends EVALSHA (the script text only
// when the server lacks it) instead of the whole script on every request of every pool.
const COMMANDS = {
  freshetTakeToken: { lua: takeTokenScript, numberOfKeys: 1 },
  freshetBenchToken: { lua: benchTokenScript, numberOfKeys: 1 },
} as const;

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
    for (const [name, def] of Object.entries(COMMANDS)) redis.defineCommand(name, def);
  }

  private run(name: keyof typeof COMMANDS): Runner {
    return (this.redis as unknown as Record<string, Runner>)[name]!.bind(this.redis);
  }

  /** `order` (a permutation of 0..size-1) says which identity to try first; default round robin. */
  async take(order?: readonly number[]): Promise<TokenSlot> {
    if (order && order.length !== this.opts.size) throw new RangeError('the order must list every identity once');
    const [ok, value] = (await this.run('freshetTakeToken')(this.key, this.clock.nowMs(), this.opts.windowMs, this.opts.limitPerWindow, this.opts.size, ...(order ?? []))) as [number, number];
    return ok === 1 ? { kind: 'taken', index: value } : { kind: 'wait', waitMs: Math.max(1, value) };
  }

  async bench(index: number, forMs: number): Promise<void> {
    await this.run('freshetBenchToken')(this.key, index, this.clock.nowMs() + forMs);
  }

  /** Every identity's use of its quota and bench (progress lines, `freshet serve`). */
  status(): Promise<PoolMemberStatus[]> {
    return readQuotaPool(this.redis, this.opts, this.clock.nowMs());
  }
}

/**
 * Reads a pool's quota hash without a TokenQuota (no scripts): `size` unknown (a reader without
 * the secrets) lists the identities the hash has seen.
 */
export async function readQuotaPool(
  redis: Pick<Redis, 'hgetall'> | Pick<Cluster, 'hgetall'>, o: Omit<TokenQuotaOptions, 'size'> & { size?: number }, nowMs: number,
): Promise<PoolMemberStatus[]> {
  const h = await redis.hgetall(`${o.namespace}:{quota:${o.pool}}`);
  const seen = Object.keys(h).map((f) => Number(f.split(':')[0])).filter((i) => Number.isInteger(i) && i >= 0);
  const size = o.size ?? (seen.length === 0 ? 0 : Math.max(...seen) + 1);
  const window = Math.floor(nowMs / o.windowMs);
  const rows: PoolMemberStatus[] = [];
  for (let i = 0; i < size; i++) {
    const used = Number(h[`${i}:w`]) === window ? Number(h[`${i}:n`] ?? 0) : 0;
    const bench = Number(h[`${i}:b`] ?? 0);
    const benched = bench > nowMs;
    rows.push({ index: i, used, limit: o.limitPerWindow, ...(benched ? { benchedUntilMs: bench } : {}), state: benched ? 'benched' : used >= o.limitPerWindow ? 'at_quota' : 'available' });
  }
  return rows;
}
