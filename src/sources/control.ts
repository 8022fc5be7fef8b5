import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../core/clock';
import type { ControlCommand, ControlSignal } from './contract';

/** One hash per crawl: `paused` (ms since when, absent: running), `drain_at` (ms the drain was asked). */
export function controlKey(namespace: string): string {
  return `${namespace}:control`;
}

export interface ControlState {
  paused: boolean;
  pausedAtMs?: number;
  /** When a drain was last asked: workers running since before then drain and stop. */
  drainAtMs?: number;
}

type RedisLike = Pick<Redis, 'hgetall' | 'hset' | 'hdel'> | Pick<Cluster, 'hgetall' | 'hset' | 'hdel'>;

/**
 * Pause, resume and drain for every worker of a crawl, kept in Redis. A pause holds until resumed
 * (a worker started meanwhile stays paused); a drain applies to the workers running when it was
 * asked (each stops claiming, finishes what it holds and exits), not to workers started after it.
 */
export class CrawlControl {
  constructor(private readonly redis: RedisLike, private readonly namespace: string, private readonly clock: Clock) {}

  async state(): Promise<ControlState> {
    const h = await this.redis.hgetall(controlKey(this.namespace));
    const paused = h['paused'] !== undefined;
    return { paused, ...(paused ? { pausedAtMs: Number(h['paused']) } : {}), ...(h['drain_at'] ? { drainAtMs: Number(h['drain_at']) } : {}) };
  }

  async pause(): Promise<void> {
    await this.redis.hset(controlKey(this.namespace), 'paused', String(this.clock.nowMs()));
  }

  async resume(): Promise<void> {
    await this.redis.hdel(controlKey(this.namespace), 'paused');
  }

  async drain(): Promise<void> {
    await this.redis.hset(controlKey(this.namespace), 'drain_at', String(this.clock.nowMs()));
  }

  /**
   * What one worker started at `startedAtMs` is told: read at most every `refreshMs` (a pause
   * reaches every worker within that), the last answer kept while Redis does not answer.
   */
  signal(startedAtMs: number, refreshMs = 250): ControlSignal {
    let last: ControlCommand = 'run';
    let readAtMs = -Infinity;
    let reading: Promise<ControlCommand> | undefined;
    const read = async (): Promise<ControlCommand> => {
      try {
        const s = await this.state();
        last = s.drainAtMs !== undefined && s.drainAtMs >= startedAtMs ? 'drain' : s.paused ? 'pause' : 'run';
      } catch {
        // Redis away: the claim that follows fails and pauses for it; keep the last answer.
      }
      readAtMs = this.clock.nowMs();
      reading = undefined;
      return last;
    };
    return {
      check: () => {
        if (this.clock.nowMs() - readAtMs < refreshMs) return Promise.resolve(last);
        return (reading ??= read());
      },
    };
  }
}
