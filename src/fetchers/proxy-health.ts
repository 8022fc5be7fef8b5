import { backoffMs } from '../core/retry';
import type { Rng } from '../core/rng';

export interface ProxyHealthOptions {
  size: number;
  /** A proxy this slow on average scores half of an instant one. */
  slowMs: number;
  /** Weight of the newest observation in the moving averages. */
  alpha?: number;
  /** The lowest score, so that a sick proxy is still tried now and then and can recover. */
  floor?: number;
}

interface Stats {
  latencyMs: number | undefined;
  success: number;
  consecutiveFailures: number;
  /** Refusals (403/418/...) in a row: each doubles the next bench. */
  strikes: number;
}

/**
 * The health of each proxy of a pool as this worker sees it: moving averages of latency and of
 * the success rate. It only orders the proxies (healthier ones tried first, more often); the
 * quotas and benches that bind across workers live in Redis.
 */
export class ProxyHealth {
  private readonly stats: Stats[];
  private readonly alpha: number;
  private readonly floor: number;

  constructor(private readonly opts: ProxyHealthOptions) {
    if (opts.size < 1) throw new RangeError('a proxy pool needs at least one proxy');
    this.alpha = opts.alpha ?? 0.2;
    this.floor = opts.floor ?? 0.01;
    this.stats = Array.from({ length: opts.size }, () => ({ latencyMs: undefined, success: 1, consecutiveFailures: 0, strikes: 0 }));
  }

  /** In (floor, 1]: success rate times slowMs / (slowMs + latency). */
  score(i: number): number {
    const s = this.stats[i]!;
    const speed = s.latencyMs === undefined ? 1 : this.opts.slowMs / (this.opts.slowMs + s.latencyMs);
    return Math.max(this.floor, s.success * speed);
  }

  succeeded(i: number, latencyMs: number): void {
    const s = this.stats[i]!;
    s.latencyMs = s.latencyMs === undefined ? latencyMs : s.latencyMs + this.alpha * (latencyMs - s.latencyMs);
    s.success += this.alpha * (1 - s.success);
    s.consecutiveFailures = 0;
    s.strikes = 0;
  }

  /** Returns the failures in a row so far, this one included. */
  failed(i: number): number {
    const s = this.stats[i]!;
    s.success -= this.alpha * s.success;
    s.consecutiveFailures += 1;
    return s.consecutiveFailures;
  }

  /** A refusal: counts as a failure and returns the refusals in a row (for the bench backoff). */
  refused(i: number): number {
    this.failed(i);
    const s = this.stats[i]!;
    s.strikes += 1;
    return s.strikes;
  }

  /** After a bench the failure run starts over (the proxy gets a fresh chance). */
  resetRun(i: number): void {
    this.stats[i]!.consecutiveFailures = 0;
  }

  /**
   * Every proxy once, in a random order where each comes first with probability proportional to
   * its score (weighted sampling without replacement: key u^(1/w), largest first). Rotation, not
   * pinning: healthy proxies share the load and a sick one still sees the odd request.
   */
  order(rng: Rng): number[] {
    const keyed = this.stats.map((_, i) => ({ i, key: Math.pow(Math.max(rng.next(), Number.MIN_VALUE), 1 / this.score(i)) }));
    keyed.sort((a, b) => b.key - a.key);
    return keyed.map((k) => k.i);
  }
}

/** Bench length after `strikes` refusals in a row: base, doubling, capped (the retry policy's backoff, no jitter). */
export function benchBackoffMs(strikes: number, baseMs: number, maxMs: number): number {
  return backoffMs(strikes, { base_delay_ms: baseMs, max_delay_ms: maxMs, jitter: 'none' }, { next: () => 0 });
}
