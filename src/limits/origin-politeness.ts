import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../core/clock';
import { politeScript, releaseScript } from './origin-scripts';

export type PoliteSlot = { kind: 'taken' } | { kind: 'wait'; waitMs: number } | { kind: 'too_far'; waitMs: number } | { kind: 'busy' };

export interface SlotRequest {
  minDelayMs: number;
  maxWaitMs: number;
  maxConcurrency: number;
  /** Identifies this request for `release`; '' when no concurrency slot is taken. */
  holder: string;
  /** The hold expires after this long whatever happens to this worker. */
  holdMs: number;
}

type Runner = (...args: (string | number)[]) => Promise<unknown>;

const COMMANDS = {
  freshetPolite: { lua: politeScript, numberOfKeys: 2 },
  freshetRelease: { lua: releaseScript, numberOfKeys: 1 },
} as const;

/** Politeness state of one origin lives in its own slot: it is shared by all shards and workers. */
export function originKey(namespace: string, origin: string): string {
  return `${namespace}:{${namespace}:o:${origin}}:polite`;
}

export function originHoldersKey(namespace: string, origin: string): string {
  return `${namespace}:{${namespace}:o:${origin}}:holders`;
}

/**
 * Per-origin politeness kept in Redis, so it holds across every worker of a crawl: a minimum gap
 * between requests and a cap on requests in flight (see politeScript). One answer per call; the
 * waiting is OriginGate's.
 */
export class OriginPoliteness {
  constructor(private readonly redis: Redis | Cluster, private readonly namespace: string, private readonly clock: Clock) {
    for (const [name, def] of Object.entries(COMMANDS)) redis.defineCommand(name, def);
  }

  private run(name: keyof typeof COMMANDS): Runner {
    return (this.redis as unknown as Record<string, Runner>)[name]!.bind(this.redis);
  }

  /** Takes the origin's fetch slot if it is free now, or says how long until it is. */
  async reserve(origin: string, p: SlotRequest): Promise<PoliteSlot> {
    const now = this.clock.nowMs();
    const [code, value] = (await this.run('freshetPolite')(
      originKey(this.namespace, origin), originHoldersKey(this.namespace, origin),
      now, p.minDelayMs, p.maxWaitMs, p.maxConcurrency, p.holder, now + p.holdMs,
    )) as [number, number];
    if (code === 0) return { kind: 'taken' };
    if (code === 3) return { kind: 'wait', waitMs: value };
    return code === 1 ? { kind: 'too_far', waitMs: value } : { kind: 'busy' };
  }

  async release(origin: string, holder: string): Promise<void> {
    await this.run('freshetRelease')(originHoldersKey(this.namespace, origin), holder);
  }
}
