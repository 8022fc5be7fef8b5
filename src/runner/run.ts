import { randomBytes } from 'node:crypto';
import { mergeMap, Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { Clock } from '../core/clock';
import { JobTracker, type DocEnvelope, type Job, type Settlement, type SubjectState } from '../core/envelope';
import { asFreshetError, ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { FetchRequest, FetchResponse } from '../fetchers/fetch-types';
import type { Adapter, FetchedText, VisitOutcome } from '../parsers/adapter';
import type { PipelineConfig } from '../pipeline/schema';
import type { NextVisit, NextVisitPolicy } from '../schedule/fixed-interval';
import type { Settled } from '../sinks/elasticsearch';
import type { RedisFrontier } from '../sources/frontier/frontier';
import { Acker } from './acker';
import { LastOrigin } from './last-origin';
import { Credits } from './credits';
import { failedVisit } from './job-outcome';
import type { SubjectDocRef } from './subject-status';

export interface Fetcher {
  fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse>;
  robotsCrawlDelayMs?(origin: string): number | undefined;
}

export interface RunDeps {
  frontier: RedisFrontier;
  fetcher: Fetcher;
  adapter: Adapter;
  sink: OperatorFunction<DocEnvelope, Settled>;
  /** Filters and enrichers between parser and sink; built with the runner's `drop`. */
  stages?: (drop: DropFn) => OperatorFunction<DocEnvelope, DocEnvelope>[];
  schedule: NextVisitPolicy;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  sleep(ms: number): Promise<void>;
  /**
   * Asks the sink to send what it holds now. Called when the jobs in flight wait on the sink: half
   * the credits' jobs finished since the last call, or every job in flight finished its visit (no
   * document can come until the sink settles some). Without it a crawl of one document per job
   * would wait for the sink's flush interval with all its credits spent.
   */
  flushSink?(): void;
  /** Told each visited subject's schedule, with the profile document its visit emitted. */
  subjectStatus?: { scheduled(ref: SubjectDocRef, state: SubjectState, nextDueMs: number): void };
}

export type DropFn = (env: DocEnvelope, stage: string, reason: string) => void;

export interface RunLimits {
  /** Stop claiming once this many requests were made (in-flight visits finish). */
  maxFetches?: number;
  durationMs?: number;
  /** Stop when nothing is due and nothing is leased. */
  untilIdle?: boolean;
}

export type StopReason = 'idle' | 'max_fetches' | 'duration' | 'signal' | 'error';

export interface RunSummary {
  jobs: number;
  jobsFailed: number;
  leasesLost: number;
  requests: number;
  documents: Record<Settlement, number>;
  stoppedBy: StopReason;
  elapsedMs: number;
}

/** How often a request waiting for a busy origin asks again. */
const POLITE_POLL_MS = 25;

interface VisitResult {
  outcome?: VisitOutcome;
  error?: FreshetError;
  /** The subject's profile document, when the visit emitted one. */
  profile?: SubjectDocRef;
}

/**
 * Runs one pipeline: claims subjects while credits are free, visits them (documents stream to the
 * sink as pages arrive), and acknowledges each subject once all its documents are settled.
 * `stop()` is graceful: stop claiming, drain, flush, ack.
 */
export class PipelineRunner {
  private readonly credits: Credits;
  private readonly acker: Acker;
  /** The parser as a stage (a visit in, its documents out): its tally and timer, resolved once, not per visit. */
  private readonly parserTally: ReturnType<Metrics['stageTally']>;
  private readonly parserSeconds: ReturnType<Metrics['stageSeconds']['labels']>;
  private stopping: StopReason | undefined;
  private wakeStop!: () => void;
  private readonly stopped = new Promise<void>((r) => {
    this.wakeStop = r;
  });
  private readonly inFlight = new Set<Job>();
  private readonly holderPrefix = randomBytes(6).toString('hex');
  private holderSeq = 0;
  private readonly origins = new LastOrigin();
  private fatal: FreshetError | undefined;
  private readonly summary: RunSummary = {
    jobs: 0, jobsFailed: 0, leasesLost: 0, requests: 0, documents: { indexed: 0, dropped: 0, dead_lettered: 0 }, stoppedBy: 'idle', elapsedMs: 0,
  };

  /** Jobs whose visit ended and whose documents are not all settled yet; and those sealed since the last flush request. */
  private sealedWaiting = 0;
  private sealedSinceFlush = 0;

  constructor(private readonly config: PipelineConfig, private readonly deps: RunDeps) {
    this.credits = new Credits(config.source.max_in_flight);
    this.acker = new Acker(deps.frontier, { clock: deps.clock, logger: deps.logger, sleep: deps.sleep });
    this.parserTally = deps.metrics.stageTally(deps.adapter.type);
    this.parserSeconds = deps.metrics.stageSeconds.labels(deps.adapter.type);
  }

  /** A stage dropped a document on purpose: settle it so its job can be acknowledged, and count why. */
  private readonly drop: DropFn = (env, stage, reason) => {
    this.deps.metrics.drops.inc({ stage, reason });
    this.deps.metrics.docs.inc({ index: env.doc.index, outcome: 'dropped' });
    this.summary.documents.dropped += 1;
    env.job.settle('dropped');
  };

  stop(reason: StopReason = 'signal'): void {
    if (this.stopping) return;
    this.stopping = reason;
    this.deps.logger.info({ reason, in_flight: this.credits.used }, 'stopping: no new claims; draining in-flight work');
    this.wakeStop();
  }

  get inFlightJobs(): number {
    return this.credits.used;
  }

  async run(limits: RunLimits = {}): Promise<RunSummary> {
    const started = this.deps.clock.nowMs();
    const { frontier, logger } = this.deps;
    if (this.config.seeds.length > 0) {
      const added = await frontier.offer(this.config.seeds.map((subject) => ({ subject, state: newState(started, 'seed') })));
      logger.info({ seeds: this.config.seeds.length, added }, 'seeds offered');
    }
    await this.deps.schedule.prepare?.();
    const timers = [
      setInterval(() => void this.heartbeat(), Math.max(1000, (this.config.source.lease_secs * 1000) / 3)),
      setInterval(() => void frontier.reap().catch(() => undefined), this.config.source.reap_interval_secs * 1000),
    ];
    const deadline = limits.durationMs === undefined ? undefined : setTimeout(() => this.stop('duration'), limits.durationMs);
    try {
      await new Promise<void>((resolve, reject) => {
        const stages = this.deps.stages?.(this.drop) ?? [];
        this.claims(limits).pipe(
          mergeMap((tracker) => this.visit(tracker), this.config.source.max_in_flight),
          (docs: Observable<DocEnvelope>) => stages.reduce((o, stage) => o.pipe(stage), docs),
          this.deps.sink,
        ).subscribe({
          next: (s) => {
            this.summary.documents[s.how] += 1;
            s.env.job.settle(s.how);
          },
          error: reject,
          complete: resolve,
        });
      });
      await this.credits.drained();
      await this.acker.drain();
    } finally {
      timers.forEach(clearInterval);
      if (deadline) clearTimeout(deadline);
    }
    if (this.fatal) throw this.fatal;
    this.summary.stoppedBy = this.stopping ?? 'idle';
    this.summary.elapsedMs = this.deps.clock.nowMs() - started;
    return { ...this.summary, documents: { ...this.summary.documents } };
  }

  private claims(limits: RunLimits): Observable<JobTracker> {
    return new Observable<JobTracker>((sub) => {
      void this.claimLoop(sub, limits).then(() => sub.complete(), (err) => sub.error(err));
    });
  }

  private async claimLoop(sub: Subscriber<JobTracker>, limits: RunLimits): Promise<void> {
    const { frontier, logger, metrics } = this.deps;
    let redisDown = 0;
    while (!this.stopping) {
      if (limits.maxFetches !== undefined && this.summary.requests >= limits.maxFetches) {
        this.stop('max_fetches');
        break;
      }
      if (this.credits.free === 0) {
        await Promise.race([this.credits.whenFree(), this.stopped]);
        continue;
      }
      let jobs: Job[];
      try {
        jobs = await frontier.claim(Math.min(this.credits.free, this.config.source.claim_batch));
        if (redisDown > 0) logger.info({ attempts: redisDown }, 'Redis reachable again; claiming');
        redisDown = 0;
      } catch (err) {
        if (redisDown++ === 0) logger.warn({ code: ErrorCodes.redisUnavailable, err: (err as Error).message }, 'claim failed; pausing until Redis answers');
        await this.pause(Math.min(5000, 100 * 2 ** Math.min(redisDown, 6)));
        continue;
      }
      if (jobs.length === 0) {
        if (limits.untilIdle && this.credits.used === 0) {
          // Redis away at this very moment: not idle, the next claim attempt pauses for it.
          const s = await frontier.stats().catch(() => undefined);
          if (s && s.dueNow === 0 && s.leased === 0) {
            this.stop('idle');
            break;
          }
        }
        await this.pause(this.config.source.poll_interval_ms);
        continue;
      }
      this.credits.take(jobs.length);
      metrics.jobsClaimed.inc(jobs.length);
      metrics.jobsInFlight.set(this.credits.used);
      for (const job of jobs) {
        // A schedule whose model moved since it wrote this due time may defer the visit, unfetched.
        const later = this.deps.schedule.recheck?.(job.state, this.deps.clock.nowMs());
        if (later) void this.defer(job, later);
        else sub.next(new JobTracker(job));
      }
    }
  }

  private async defer(job: Job, later: NextVisit): Promise<void> {
    const owned = await this.acker.ack({ job, state: later.state, nextDueMs: later.nextDueMs, docs: 0 });
    if (!owned) this.summary.leasesLost += 1;
    this.deps.metrics.jobsAcked.inc({ outcome: 'deferred' });
    this.credits.release(1);
    this.deps.metrics.jobsInFlight.set(this.credits.used);
  }

  private pause(ms: number): Promise<void> {
    return Promise.race([this.deps.sleep(ms), this.stopped]);
  }

  private async heartbeat(): Promise<void> {
    if (this.inFlight.size === 0) return;
    await this.deps.frontier.extend([...this.inFlight]).catch((err: Error) => {
      this.deps.logger.warn({ code: ErrorCodes.redisUnavailable, err: err.message }, 'lease extension failed');
    });
  }

  /**
   * One visit as an observable of its documents. The adapter's generator is driven here and each
   * document handed to the subscriber as it comes, not re-yielded through a second async generator
   * that rxjs then iterates with for-await (more promises and microtask hops per document, ~10 % of
   * the throughput benchmark's CPU with the origin cache below). Nothing is pulled from the adapter
   * while a document is still being handed on, as before; an unsubscribed visit stops pulling.
   */
  private visit(tracker: JobTracker): Observable<DocEnvelope> {
    return new Observable<DocEnvelope>((sub) => {
      void this.drive(tracker, sub).then(() => sub.complete());
    });
  }

  private async drive(tracker: JobTracker, sub: Subscriber<DocEnvelope>): Promise<void> {
    const job = tracker.job;
    const result: VisitResult = {};
    this.inFlight.add(job);
    void tracker.done.then(() => {
      this.sealedWaiting -= 1;
      return this.finish(tracker, result);
    });
    const ctx = {
      fetchText: (url: string, expect: 'json' | 'html') => this.fetchText(url, expect),
      nowMs: () => this.deps.clock.nowMs(),
      logger: this.deps.logger,
      subjectCount: () => this.deps.frontier.countSubjects(),
    };
    const discovered: { subject: string; state: SubjectState }[] = [];
    const tally = this.parserTally;
    tally.received += 1;
    const endTimer = this.parserSeconds.startTimer();
    try {
      const gen = this.deps.adapter.visit(job, ctx);
      for (;;) {
        const step = await gen.next();
        if (step.done) {
          result.outcome = step.value;
          break;
        }
        const e = step.value;
        if (e.kind === 'doc') {
          e.doc.body['pipeline'] = this.config.name;
          tracker.add();
          // The visited subject's own profile, not the users documents of fans it discovered (zombies).
          if (e.doc.index === 'users' && e.doc.body['subject'] === job.subject) result.profile = { index: e.doc.index, id: e.doc.id };
          tally.sent += 1;
          sub.next({ doc: e.doc, job: tracker });
          if (sub.closed) return;
        } else {
          discovered.push({ subject: e.subject, state: newState(this.deps.clock.nowMs(), job.subject, e.state) });
        }
      }
      if (discovered.length > 0) {
        // Zombies are recorded (dedup, state) but never queued.
        const zombies = discovered.filter((d) => d.state.status === 'zombie');
        const live = discovered.filter((d) => d.state.status !== 'zombie');
        // Claims take the lowest score first and same-millisecond subjects tie (then go by name):
        // a thousandth of a millisecond per level keeps discovery breadth-first at any clock resolution.
        const levelDueMs = this.deps.clock.nowMs() - 1 + Math.min(live[0]?.state.depth ?? 1, 999) / 1000;
        const added = (live.length > 0 ? await this.deps.frontier.offer(live, levelDueMs) : 0)
          + (zombies.length > 0 ? await this.deps.frontier.record(zombies) : 0);
        this.deps.metrics.discovered.inc({ result: 'new' }, added);
        this.deps.metrics.discovered.inc({ result: 'known' }, discovered.length - added);
        this.deps.adapter.offered?.(discovered.map((d) => d.subject));
      }
    } catch (err) {
      result.error = asFreshetError(err);
    } finally {
      endTimer();
      tracker.seal();
      this.sealed();
    }
  }

  private async fetchText(url: string, expect: 'json' | 'html'): Promise<FetchedText> {
    const { fetcher, metrics } = this.deps;
    const origin = this.origins.of(url);
    const p = this.config.politeness;
    const minDelayMs = Math.max(p.min_delay_ms, fetcher.robotsCrawlDelayMs?.(origin) ?? 0);
    // No delay and no concurrency cap (the common case): no slot to wait for, and no promise for it.
    const holder = minDelayMs === 0 && p.max_concurrency_per_origin === 0 ? undefined : await this.politeSlot(origin, minDelayMs);
    this.summary.requests += 1;
    try {
      const res = await fetcher.fetch({ url, expect });
      metrics.fetches.inc({ status_class: `${Math.floor(res.status / 100)}xx` });
      metrics.fetchSeconds.observe(res.elapsedMs / 1000);
      return { url: res.url, status: res.status, text: res.text, fetchedAtMs: res.fetchedAtMs };
    } catch (err) {
      const status = (err as FreshetError).fields?.['status'];
      metrics.fetches.inc({ status_class: typeof status === 'number' ? `${Math.floor(status / 100)}xx` : 'error' });
      throw err;
    } finally {
      if (holder) await this.deps.frontier.releaseOrigin(origin, holder).catch(() => undefined);
    }
  }

  /**
   * Waits for this origin's next slot (minimum delay, robots Crawl-delay, concurrency), all kept in
   * Redis so they hold across workers. Returns the holder to release when a concurrency slot was
   * taken. A slot too far away throws a throttled error: the subject is rescheduled, not waited for.
   */
  private async politeSlot(origin: string, minDelayMs: number): Promise<string | undefined> {
    const p = this.config.politeness;
    const holder = p.max_concurrency_per_origin > 0 ? `${this.holderPrefix}:${this.holderSeq++}` : '';
    const holdMs = this.config.fetch.total_timeout_ms * this.config.fetch.retry.max_attempts + 60_000;
    for (let waitedMs = 0; ;) {
      const slot = await this.deps.frontier.politeness(origin, { minDelayMs, maxWaitMs: p.max_wait_ms - waitedMs, maxConcurrency: p.max_concurrency_per_origin, holder, holdMs });
      if (slot.kind === 'taken') return holder || undefined;
      if (slot.kind === 'too_far' || waitedMs >= p.max_wait_ms) {
        const retryAfterMs = slot.kind === 'too_far' ? slot.waitMs : 1000;
        throw new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'origin busy (politeness)', { origin }, undefined, retryAfterMs);
      }
      const pauseMs = slot.kind === 'wait' ? slot.waitMs : POLITE_POLL_MS;
      await this.deps.sleep(pauseMs);
      waitedMs += pauseMs;
    }
  }

  private sealed(): void {
    this.sealedWaiting += 1;
    this.sealedSinceFlush += 1;
    const flush = this.deps.flushSink;
    if (!flush) return;
    if (this.sealedSinceFlush >= Math.ceil(this.credits.limit / 2) || this.sealedWaiting >= this.credits.used) {
      this.sealedSinceFlush = 0;
      // After the documents the stages may still hand on in this turn of the event loop.
      setImmediate(flush);
    }
  }

  private async finish(tracker: JobTracker, result: VisitResult): Promise<void> {
    const { frontier, logger, metrics, clock } = this.deps;
    const job = tracker.job;
    const now = clock.nowMs();
    let state: SubjectState;
    let nextDueMs: number;
    let outcome: string;
    if (result.error || !result.outcome) {
      const err = result.error ?? new FreshetError('E_UNEXPECTED', 'retryable', 'visit ended without an outcome');
      metrics.errors.inc({ stage: this.deps.adapter.type, code: err.code });
      if (err.kind === 'critical') {
        this.fatal = err;
        this.stop('error');
      }
      const f = failedVisit(job.state, err, now, this.config.source, this.config.fetch.retry, this.deps.rng);
      state = { ...f.state, lastVisitMs: now };
      nextDueMs = f.nextDueMs;
      outcome = err.kind === 'throttled' ? 'throttled' : f.deadLetter ? 'dead_lettered' : 'failed';
      logger.warn({ subject: job.subject, code: err.code, failures: state.failures, next_due_in_ms: nextDueMs - now, err: err.message }, 'visit failed');
      if (f.deadLetter) {
        metrics.deadLetters.inc({ code: err.code });
        await frontier.deadLetter({ code: err.code, stage: this.deps.adapter.type, subject: job.subject, message: err.message })
          .catch((e: Error) => logger.error({ subject: job.subject, err: e.message }, 'dead-letter write failed'));
      }
      if (err.kind !== 'throttled') this.summary.jobsFailed += 1;
    } else {
      ({ state, nextDueMs } = this.deps.schedule.nextVisit(job.state, result.outcome, now));
      outcome = 'ok';
    }
    const docs = tracker.counts.indexed + tracker.counts.dropped + tracker.counts.dead_lettered;
    const owned = await this.acker.ack({ job, state, nextDueMs, docs });
    if (!owned) {
      this.summary.leasesLost += 1;
      metrics.leasesLost.inc();
      logger.warn({ subject: job.subject }, 'lease lost before ack (expired and reclaimed); the new owner revisits');
    } else if (result.profile) {
      this.deps.subjectStatus?.scheduled(result.profile, state, nextDueMs);
    }
    this.summary.jobs += 1;
    metrics.jobsAcked.inc({ outcome });
    this.inFlight.delete(job);
    this.credits.release(1);
    metrics.jobsInFlight.set(this.credits.used);
  }
}

function newState(nowMs: number, via: string, extra: Partial<SubjectState> = {}): SubjectState {
  return { firstSeenMs: nowMs, postsSeen: 0, visits: 0, failures: 0, status: 'active', via, ...extra };
}
