import type { Cluster, Redis } from 'ioredis';
import type { z } from 'zod';
import type { Clock } from '../../core/clock';
import { newSubjectState } from '../../core/envelope';
import { readOriginSlots } from '../../limits/origin-readings';
import { readQuotaPool } from '../../limits/token-quota';
import type { PipelineConfig } from '../../pipeline/schema';
import { quotaNamespace } from '../../runner/build';
import { configFromStage } from '../../schedule/poisson';
import type { CrawlControl } from '../../sources/control';
import type { OpenFrontier } from '../../sources/redis-frontier';
import type { WorkerReports } from '../../sources/worker-reports';
import { InlineFreshness, type FreshnessComputer } from './freshness-model';
import type { deadLetter, freshness, limits, pipelineOverview, workerSummary } from './schemas';

/** One pipeline as `freshet serve` sees it: its frontier, control and worker reports in Redis. */
export interface ServedPipeline {
  config: PipelineConfig;
  namespace: string;
  frontier: OpenFrontier;
  control: CrawlControl;
  reports: WorkerReports;
  /** How many identities / proxies the environment holds for the pool, when it does. */
  identitySize?: number;
  proxySize?: number;
}

/** A report older than this is not a running worker (they report every second). */
const LIVE_MS = 5_000;
/** Freshness figures read every state of the frontier and refit the model: computed at most this often. */
const FRESHNESS_CACHE_MS = 30_000;
/**
 * On a large frontier the computation itself takes seconds (100,000 subjects: ~1 s, more with a
 * refit): the figures are then held COST_FACTOR times as long as they took, so they never take
 * more than ~5 % of the server's time whatever the size (they run on their own thread in serve:
 * freshness-thread.ts).
 */
const COST_FACTOR = 20;
/** Counting dead letters by code reads up to 1,000 stream entries: at most this often. */
const CODES_CACHE_MS = 10_000;

type Worker = z.infer<typeof workerSummary>;

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function asWorker(r: Awaited<ReturnType<WorkerReports['read']>>[number]): Worker {
  const p = r.progress;
  const refused = (p['refused'] ?? {}) as Record<string, unknown>;
  const docs = (p['documents'] ?? {}) as Record<string, unknown>;
  return {
    worker: r.worker, host: r.host, pid: r.pid, startedAtMs: r.startedAtMs, atMs: r.atMs,
    requests: num(p['requests']), refused: { quota: num(refused['quota']), politeness: num(refused['politeness']), robots: num(refused['robots']) },
    documents: { indexed: num(docs['indexed']), dropped: num(docs['dropped']), dead_lettered: num(docs['dead_lettered']) },
    jobs: num(p['jobs']), claimed: num(p['claimed']), inFlight: num(p['inFlight']), paused: p['paused'] === true,
    failureCodes: Object.fromEntries(Object.entries((p['failureCodes'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, num(v)])),
    deadLettered: num(p['deadLettered']), pagesPerSec: num(p['pagesPerSec']),
  };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export class CrawlViews {
  private readonly freshnessCache = new Map<string, { untilMs: number; value: z.infer<typeof freshness> }>();
  private readonly freshnessPending = new Map<string, Promise<z.infer<typeof freshness>>>();
  private readonly codesCache = new Map<string, { atMs: number; value: Record<string, number> }>();

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly clock: Clock,
    private readonly computer: FreshnessComputer = new InlineFreshness(),
  ) {}

  async overview(p: ServedPipeline): Promise<z.infer<typeof pipelineOverview>> {
    const [frontier, control, reports, byCode] = await Promise.all([
      p.frontier.counts.stats().catch(() => null),
      p.control.state().catch(() => null),
      p.reports.read(LIVE_MS).catch(() => []),
      this.codesOf(p),
    ]);
    const workers = reports.map(asWorker);
    const totals = { requests: 0, refused: { quota: 0, politeness: 0, robots: 0 }, indexed: 0, pagesPerSec: 0, failureCodes: {} as Record<string, number> };
    for (const w of workers) {
      totals.requests += w.requests;
      totals.refused.quota += w.refused.quota;
      totals.refused.politeness += w.refused.politeness;
      totals.refused.robots += w.refused.robots;
      totals.indexed += w.documents.indexed;
      totals.pagesPerSec += w.pagesPerSec;
      addCounts(totals.failureCodes, w.failureCodes);
    }
    return {
      name: p.config.name, ...(p.config.description ? { description: p.config.description } : {}), namespace: p.namespace,
      parser: p.config.parse.type, schedule: p.config.schedule.type, frontier, control, workers, totals, deadLettersByCode: byCode,
    };
  }

  /** Dead letters by code, read at most every CODES_CACHE_MS per pipeline (every open overview asks every 2 s). */
  private async codesOf(p: ServedPipeline): Promise<Record<string, number>> {
    const now = this.clock.nowMs();
    const cached = this.codesCache.get(p.config.name);
    if (cached && now - cached.atMs < CODES_CACHE_MS) return cached.value;
    const value = await p.frontier.deadLetters.countByCode().catch(() => cached?.value ?? {});
    this.codesCache.set(p.config.name, { atMs: now, value });
    return value;
  }

  async limits(p: ServedPipeline): Promise<z.infer<typeof limits>> {
    const now = this.clock.nowMs();
    const ids = p.config.identities;
    const proxies = p.config.proxies;
    const [origins, identities, proxyRows] = await Promise.all([
      readOriginSlots(this.redis, p.namespace, now),
      ids ? readQuotaPool(this.redis, { namespace: quotaNamespace(), pool: ids.pool, limitPerWindow: ids.requests_per_window, windowMs: ids.window_secs * 1000, ...(p.identitySize ? { size: p.identitySize } : {}) }, now) : undefined,
      proxies ? readQuotaPool(this.redis, { namespace: quotaNamespace(), pool: `proxy:${proxies.pool}`, limitPerWindow: proxies.requests_per_window, windowMs: proxies.window_secs * 1000, ...(p.proxySize ? { size: p.proxySize } : {}) }, now) : undefined,
    ]);
    const pol = p.config.politeness;
    return {
      politeness: { minDelayMs: pol.min_delay_ms, maxConcurrencyPerOrigin: pol.max_concurrency_per_origin, maxWaitMs: pol.max_wait_ms },
      origins,
      identities: ids && identities ? { pool: ids.pool, limitPerWindow: ids.requests_per_window, windowSecs: ids.window_secs, members: identities } : null,
      proxies: proxies && proxyRows ? { pool: proxies.pool, limitPerWindow: proxies.requests_per_window, windowSecs: proxies.window_secs, members: proxyRows } : null,
    };
  }

  /**
   * What `freshet status` shows of the schedule (poisson: the plan and the freshness meter, the
   * same function). It reads every subject's state and refits the model, O(N): computed at most
   * every FRESHNESS_CACHE_MS per pipeline (longer when it takes long: COST_FACTOR), one computation
   * at a time however many pages ask, and when Redis fails the last figures are answered (their
   * computedAtMs says how old).
   */
  async freshness(p: ServedPipeline): Promise<z.infer<typeof freshness>> {
    const name = p.config.name;
    const cached = this.freshnessCache.get(name);
    if (cached && this.clock.nowMs() < cached.untilMs) return cached.value;
    let pending = this.freshnessPending.get(name);
    if (!pending) {
      const startMs = this.clock.nowMs();
      pending = this.computeFreshness(p).then((value) => {
        const tookMs = Math.max(0, this.clock.nowMs() - startMs);
        this.freshnessCache.set(name, { untilMs: value.computedAtMs + Math.max(FRESHNESS_CACHE_MS, COST_FACTOR * tookMs), value });
        return value;
      }).finally(() => this.freshnessPending.delete(name));
      this.freshnessPending.set(name, pending);
    }
    return pending.catch((err: unknown) => {
      if (cached) return cached.value;
      throw err;
    });
  }

  private async computeFreshness(p: ServedPipeline): Promise<z.infer<typeof freshness>> {
    const schedule = p.config.schedule;
    if (schedule.type !== 'poisson') {
      return { schedule: { type: schedule.type }, meter: null, reason: `not a poisson schedule (${schedule.type}): no rate model, no freshness meter`, computedAtMs: this.clock.nowMs() };
    }
    const { refit_interval_secs: refitEverySecs, ...options } = schedule;
    const states = await p.frontier.frontier.allStates();
    const now = this.clock.nowMs();
    const s = await this.computer.compute({ pipeline: p.config.name, states, config: configFromStage(options), nowMs: now, refitEverySecs });
    return {
      schedule: {
        type: 'poisson', objective: s.objective, budgetPerHour: s.budgetPerHour, plannedPagesPerHour: s.plannedPagesPerHour,
        estimatedPostsPerHour: s.estimatedPostsPerHour, predictedMeanDelayHours: s.predictedMeanDelayHours,
      },
      meter: s.freshness,
      computedAtMs: now,
    };
  }

  async seed(p: ServedPipeline, subjects: string[]): Promise<{ offered: number; added: number }> {
    const now = this.clock.nowMs();
    const added = await p.frontier.frontier.offer(subjects.map((subject) => ({ subject, state: newSubjectState(now) })));
    return { offered: subjects.length, added };
  }
}

/** A stored dead letter as the API shows it. */
export function deadLetterView(id: string, f: Record<string, string>): z.infer<typeof deadLetter> {
  return {
    id, code: f['code'] ?? '?', stage: f['stage'] ?? '?', message: f['message'] ?? '', atMs: Number(f['at'] ?? id.split('-')[0]),
    ...(f['subject'] ? { subject: f['subject'] } : {}), ...(f['id'] ? { docId: f['id'] } : {}), hasPayload: f['payload'] !== undefined,
  };
}
