import type { Clock } from '../../core/clock';
import type { FrontierReadings, FrontierStats, ThroughputCounter } from '../contract';
import { deadLetterKey, throughputKey } from './keys';
import { FrontierLayout, type FrontierOptions, type RedisLike } from './layout';

const THROUGHPUT_WINDOW_MIN = 5;

/**
 * The frontier's numbers: subjects, due and leased counts, dead letters, and the per-minute
 * throughput counters the runner adds to. Reads only, apart from those counters.
 */
export class FrontierCounts implements FrontierReadings, ThroughputCounter {
  private readonly layout: FrontierLayout;

  constructor(private readonly redis: RedisLike, readonly opts: FrontierOptions, private readonly clock: Clock) {
    this.layout = new FrontierLayout(redis, opts);
  }

  /** Counts acknowledged visits and their documents in this minute's bucket (for `status`). */
  async countThroughput(visits: number, docs: number): Promise<void> {
    const key = throughputKey(this.opts.namespace, Math.floor(this.clock.nowMs() / 60_000));
    await this.redis.pipeline().hincrby(key, 'visits', visits).hincrby(key, 'docs', docs).expire(key, 3600).exec();
  }

  /**
   * Subjects due at or before `untilMs` (not leased). Scans only buckets that may hold some,
   * 200 buckets (about 13,000 subjects) per script call so Redis never blocks for long.
   */
  async countDue(untilMs = this.clock.nowMs()): Promise<number> {
    const PAGE = 200;
    let n = 0;
    for (const k of this.layout.keys) {
      for (let offset = 0; ; offset += PAGE) {
        const [due, scanned] = (await this.layout.script('freshetCountDue')(k.bdue, untilMs, offset, PAGE, k.bucketPrefix)) as [number, number];
        n += Number(due);
        if (Number(scanned) < PAGE) break;
      }
    }
    return n;
  }

  /**
   * countDue for the gauges and the idle check: exact while at most STATS_BUCKETS buckets per
   * shard may hold due subjects (a crawl that keeps up); past that, STATS_BUCKETS buckets spread
   * over all of them scaled to their number, so a backlog of millions costs the same as a small
   * one (a full count of 1 M due subjects takes over a second of Redis time).
   */
  private async estimateDue(untilMs: number): Promise<number> {
    const STATS_BUCKETS = 100;
    let n = 0;
    for (const k of this.layout.keys) {
      const [due, sampled, buckets] = (await this.layout.script('freshetSampleDue')(k.bdue, untilMs, STATS_BUCKETS, k.bucketPrefix)) as [number, number, number];
      if (Number(sampled) > 0) n += Math.round((Number(due) / Number(sampled)) * Number(buckets));
    }
    return n;
  }

  async countSubjects(): Promise<number> {
    const counts = await Promise.all(this.layout.keys.map((k) => this.redis.hget(k.counts, 'subjects')));
    return counts.reduce((a, b) => a + Number(b ?? 0), 0);
  }

  /** `exact`: count the subjects due now (`freshet status`) rather than estimate them (the polled gauges). */
  async stats(options: { exact?: boolean } = {}): Promise<FrontierStats> {
    const now = this.clock.nowMs();
    const s: FrontierStats = { subjects: 0, due: 0, dueNow: 0, leased: 0, deadLetters: 0, visitsPerMin: 0, docsPerMin: 0 };
    for (const k of this.layout.keys) {
      const [[subjects, due], leased] = await Promise.all([this.redis.hmget(k.counts, 'subjects', 'due'), this.redis.zcard(k.lease)]);
      s.subjects += Number(subjects ?? 0);
      s.due += Number(due ?? 0);
      s.leased += leased;
    }
    s.dueNow = options.exact ? await this.countDue(now) : await this.estimateDue(now);
    s.deadLetters = await this.redis.xlen(deadLetterKey(this.opts.namespace));
    // The last complete minutes, not the current partial one.
    const minute = Math.floor(now / 60_000);
    for (let m = minute - THROUGHPUT_WINDOW_MIN; m < minute; m++) {
      const [visits, docs] = await this.redis.hmget(throughputKey(this.opts.namespace, m), 'visits', 'docs');
      s.visitsPerMin += Number(visits ?? 0) / THROUGHPUT_WINDOW_MIN;
      s.docsPerMin += Number(docs ?? 0) / THROUGHPUT_WINDOW_MIN;
    }
    return s;
  }
}
