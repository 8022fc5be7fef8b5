import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../../src/core/clock';
import { appendFileSync } from 'node:fs';
import { loggerTo, silentLogger } from '../../../src/core/logger';
import { visiblePosts } from '../../../src/simsite/weibo/visible';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { auditLines } from '../../../src/monitor/ledger';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { readLedger } from '../../../src/runner/ledger';
import { indexName } from '../../../src/search/templates';
import { createWorld, startSimsite, type LifecycleOptions } from '../../../src/simsite';
import type { FaultConfig } from '../../../src/simsite/faults';
import { allPostDocs, scoreMonitoring, type MonitorScore } from '../../helpers/monitoring-score';
import type { BenchServices } from './services';

export const HOUR_MS = 3_600_000;

/**
 * The bench's simulated time: it runs at real speed while the crawl works (a retry 10 ms after a
 * 503 happens 10 ms later, while the round's quota lasts, as in the real world) and jumps across
 * the idle rest of each visit interval.
 */
class WorkingClock implements Clock {
  private offsetMs: number;
  constructor(startMs: number) {
    this.offsetMs = startMs - Date.now();
  }
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  advanceMs(deltaMs: number): void {
    if (deltaMs < 0) throw new RangeError('a clock does not go backwards');
    this.offsetMs += deltaMs;
  }
  /** Jumps to `ms` unless the crawl's own time has passed it already. */
  jumpTo(ms: number): void {
    this.offsetMs += Math.max(0, ms - this.nowMs());
  }
}

export interface MonitoredOptions {
  worldSeed: number;
  faultSeed: number;
  users: number;
  /** The busiest of them are crawled (enough posts to go and to be edited). */
  crawled: number;
  historyDays: number;
  rounds: number;
  /** Rounds after those, with faults off and the quota not binding: the crawl settles (bad pages re-read, gaps closed) before it is scored. */
  settleRounds: number;
  intervalMs: number;
  /**
   * Once the crawl is idle within a round, simulated time moves on in steps of this length (at most
   * `idleSteps` of them, all within the round's `intervalMs`), so short resumes and retries (a cut
   * page's few minutes) happen as they would in real time instead of waiting for the next round.
   */
  idleStepMs: number;
  idleSteps: number;
  lifecycle: LifecycleOptions;
  faults: FaultConfig;
  /** Identities and their requests per hour each: quota pauses cut visits short. */
  tokens: number;
  quotaPerHour: number;
  pageLimit: number;
}

export interface MonitoredResult {
  score: MonitorScore;
  /** Subjects `freshet audit` lists with open gaps, and the crawled users with posts truly missing. */
  auditListed: string[];
  truthMissing: string[];
  auditSummary: string;
  auditLines: string[];
  /** Subjects the audit lists only for deletions not yet confirmed (more posts indexed than declared). */
  auditUnconfirmedOnly: number;
  requests: number;
  faultsServed: Record<string, number>;
  /** Soft blocks simsite served (200 bodies and 432) and those freshet recognised as such (freshet_soft_blocks_total). */
  softBlocksServed: number;
  softBlocksRecognised: number;
  /** Rounds in which the identities' hourly quota ran out (the visit was paused and rescheduled). */
  roundsQuotaBound: number;
  elapsedMs: number;
}

async function counterSum(metrics: ReturnType<typeof createMetrics>, name: string): Promise<number> {
  const m = metrics.registry.getSingleMetric(name);
  if (!m) return 0;
  return (await m.get()).values.reduce((a, v) => a + v.value, 0);
}

/**
 * A monitored crawl through runner, Redis and the search node, against simsite with a post
 * lifecycle (deletions, removals, restrictions, accounts gone, edits, media) and faults on; simsite's
 * clock runs at real speed while the crawl works, moves on a few minutes at a time while it is
 * idle within a round (`idleStepMs`), and jumps the rest of the visit interval between rounds.
 */
export async function runMonitored(svc: BenchServices, o: MonitoredOptions): Promise<MonitoredResult> {
  const started = Date.now();
  const world = createWorld({ seed: o.worldSeed, users: o.users, historyDays: o.historyDays, lifecycle: o.lifecycle });
  const clock = new WorkingClock(world.startMs);
  const site = await startSimsite({ world, clock: clock, port: 0, weibo: { era: 'modern2022' }, faults: { seed: o.faultSeed, ...o.faults }, requestLogMaxEntries: 2_000_000 });
  const { prefix, namespace } = svc.names('monitored');
  try {
    const users = world.users.filter((u) => !u.zombie)
      .sort((a, b) => world.postCountAt(b.index, world.startMs) - world.postCountAt(a.index, world.startMs)).slice(0, o.crawled);
    const seeds = users.map((u) => `weibo:user:${u.uid}`);
    const tokens = Array.from({ length: o.tokens }, (_, i) => `bench-tok-${i}`);
    const config = parsePipeline(`name: social-monitored
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, shards: 2, max_in_flight: 16, poll_interval_ms: 20, lease_secs: 60 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, total_timeout_ms: 1500, retry: { max_attempts: 3, base_delay_ms: 5, max_delay_ms: 20 } }
identities: { pool: bench, requests_per_window: ${o.quotaPerHour}, window_secs: 3600, bench_secs: 600, min_bench_secs: 1, max_wait_ms: 0 }
parse:
  type: weibo_api
  base_url: ${site.url}
  first_visit_page_limit: 200
  page_limit: ${o.pageLimit}
  recheck_pages: 10
  recheck_hours: 48
  sweep_pages: 2
  sweep_horizon_days: 10
  profile_every_visits: 2
  monitor: { checks_per_visit: 30 }
sink: { type: elasticsearch, flush_interval_ms: 50, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: ${o.intervalMs / 1000} }
`, 'social-monitored.yaml');
    const metrics = createMetrics();
    const debugFile = process.env['SOCIAL_DEBUG'] && process.env['SOCIAL_DEBUG'] !== '1' ? process.env['SOCIAL_DEBUG'] : undefined;
    const deps = {
      redis: svc.redis, search: svc.search, indexPrefix: prefix, mappingsDir: svc.mappingsDir, clock: clock, rng: seededRng(1),
      // SOCIAL_DEBUG=<file>: the adapter's info lines, with the simulated time, to that file.
      logger: debugFile ? loggerTo((rec) => appendFileSync(debugFile, `${JSON.stringify({ sim: new Date(clock.nowMs()).toISOString(), ...rec })}\n`), { world: o.worldSeed }) : silentLogger, metrics, sleep: (ms: number) => sleep(ms), namespace, identityTokens: tokens,
    };
    const posts = indexName(prefix, 'posts');
    const ix = { posts, users: indexName(prefix, 'users') };
    let roundsQuotaBound = 0;
    for (let round = 0; round < o.rounds + o.settleRounds; round++) {
      if (round === o.rounds) site.setFaults({});
      const before = site.requestLog.stats().entries;
      // Settling: faults off and the quota no longer binding, so every subject is visited each round.
      const settling = round >= o.rounds;
      const identities = settling && config.identities ? { ...config.identities, requests_per_window: 100 * o.quotaPerHour } : config.identities;
      for (let step = 0; step <= o.idleSteps; step++) {
        if (step > 0) clock.advanceMs(o.idleStepMs);
        const built = await buildPipeline({ ...config, ...(identities ? { identities } : {}), seeds: round === 0 && step === 0 ? seeds : [] }, deps);
        await built.runner.run({ untilIdle: true });
        await built.close();
      }
      if (!settling && site.requestLog.stats().entries - before >= o.tokens * o.quotaPerHour) roundsQuotaBound += 1;
      // Hours pass in well under the index's refresh interval: make this round's writes visible,
      // as they would be long before the next visit in real time.
      await svc.search.indices.refresh({ index: `${posts},${ix.users}` });
      clock.jumpTo(world.startMs + (round + 1) * o.intervalMs);
    }
    const endMs = clock.nowMs();
    const docs = await allPostDocs(svc.search, posts);
    const score = scoreMonitoring(docs, { world, era: 'modern2022', uids: users.map((u) => u.uid), endMs, graceMs: 2 * o.intervalMs, intervalMs: o.intervalMs });

    const built = await buildPipeline({ ...config, seeds: [] }, deps);
    const ledger = await readLedger(built.frontier, svc.search, ix);
    if (process.env['SOCIAL_DEBUG']) {
      for (const id of score.falseTombstoneIds) {
        const d = docs.find((x) => x.id === id);
        console.error('false tombstone', JSON.stringify({ id, subject: d?.['subject'], status: d?.['status'], seen: d?.['last_seen_at'], missing: d?.['first_missing_at'], checked: d?.['status_checked_at'], nf: d?.['not_found_count'] }));
      }
    }
    if (process.env['SOCIAL_DEBUG']) {
      // Tombstones whose bracket spans more than 1.5 visit intervals: why was the post not seen, or not missed, in between?
      for (const d of docs) {
        const lo = d['last_seen_at'] ? Date.parse(String(d['last_seen_at'])) : NaN;
        const hi = d['first_missing_at'] ? Date.parse(String(d['first_missing_at'])) : NaN;
        if (d['status'] && d['status'] !== 'active' && hi - lo > 1.5 * o.intervalMs) {
          console.error('wide bracket', JSON.stringify({ id: d.id, subject: d['subject'], status: d['status'], created: d['created_at'], seen: d['last_seen_at'], missing: d['first_missing_at'], hours: (hi - lo) / HOUR_MS }));
        }
      }
    }
    if (process.env['SOCIAL_DEBUG']) console.error((await metrics.registry.metrics()).split('\n').filter((l) => /drop|dead|reject|settle/.test(l) && !l.startsWith('#')).join('\n'));
    if (process.env['SOCIAL_DEBUG']) for (const uid of score.completeness.uidsWithMissing) console.error(JSON.stringify(await built.frontier.getState(`weibo:user:${uid}`)));
    const lines = auditLines(ledger);
    // A subject listed only because it holds more posts than the platform now counts (a deletion
    // not yet confirmed by a visit) has no gap: counted apart.
    const shortfall = (e: (typeof ledger)[number]): boolean => e.missing > 0 || e.reasons.some((r) => r !== 'unconfirmed_missing' && r !== 'platform_cap' && r !== 'account_gone');
    const auditListed = ledger.filter((e) => !e.complete && shortfall(e)).map((e) => e.subject).sort();
    const auditUnconfirmedOnly = ledger.filter((e) => !e.complete && !shortfall(e)).length;
    const truthMissing = score.completeness.uidsWithMissing.map((uid) => `weibo:user:${uid}`).sort();
    if (process.env['SOCIAL_DEBUG']) {
      // Each listed or truly short subject: the ledger against the truth at the profile's time.
      for (const subject of new Set([...auditListed, ...truthMissing])) {
        const uid = Number(subject.split(':')[2]);
        const user = world.userByUid(uid);
        const e = ledger.find((x) => x.subject === subject);
        const u = await svc.search.get<{ statuses_count?: number; crawled_at?: string }>({ index: ix.users, id: `weibo:${uid}` }).catch(() => undefined);
        const atMs = u?._source?.crawled_at ? Date.parse(u._source.crawled_at) : NaN;
        const vis = user && Number.isFinite(atMs) ? visiblePosts(world, user.index, atMs) : undefined;
        const shownIds: string[] = [];
        if (vis && user) {
          if (vis.pinned >= 0) shownIds.push(world.post(user.index, vis.pinned).id);
          for (let k = 0; k < vis.regularCount; k++) shownIds.push(world.post(user.index, vis.indexAt(k)).id);
        }
        const mine = docs.filter((d) => d['subject'] === subject);
        const byId = new Map(mine.map((d) => [String(d['id']), d]));
        const notHeld = shownIds.filter((id) => {
          const d = byId.get(id);
          if (!d) return true;
          const created = Date.parse(String(d['created_at']));
          const fm = d['first_missing_at'] ? Date.parse(String(d['first_missing_at'])) : undefined;
          return !(created <= atMs && (d['status'] === 'active' || (fm !== undefined && fm > atMs)));
        }).map((id) => ({ id, doc: byId.get(id) ? { status: byId.get(id)!['status'], created: byId.get(id)!['created_at'], fm: byId.get(id)!['first_missing_at'] } : null }));
        const extraHeld = mine.filter((d) => !shownIds.includes(String(d['id'])) && Date.parse(String(d['created_at'])) <= atMs && d['status'] === 'active').map((d) => d['id']);
        console.error('ledger-debug', JSON.stringify({ subject, entry: e, declared: u?._source?.statuses_count, at: u?._source?.crawled_at, truthVisibleAtT: vis?.count, notHeld, extraHeld, state: await built.frontier.getState(subject) }));
      }
    }

    await built.close();
    const log = site.requestLog.entries();
    const faultsServed: Record<string, number> = {};
    let softBlocksServed = 0;
    for (const e of log) {
      if (e.fault) faultsServed[e.fault] = (faultsServed[e.fault] ?? 0) + 1;
      if (e.fault === 'softError') softBlocksServed += 1;
    }
    if (site.requestLog.stats().dropped > 0) throw new Error('simsite request log overflowed: raise requestLogMaxEntries');
    return {
      score, auditListed, truthMissing, auditSummary: lines.at(-1) ?? '', auditLines: lines, auditUnconfirmedOnly, requests: log.length, faultsServed,
      softBlocksServed, softBlocksRecognised: await counterSum(metrics, 'freshet_soft_blocks_total'), roundsQuotaBound,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await site.close();
  }
}
