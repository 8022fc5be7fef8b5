import { mergeMap, Observable, type Subscriber } from 'rxjs';
import { JobTracker, type DocEnvelope, type Job, type SubjectState } from '../core/envelope';
import { asFreshetError, ErrorCodes, FreshetError } from '../core/errors';
import type { Metrics } from '../core/metrics';
import type { VisitOutcome } from '../parsers/adapter';
import type { PipelineConfig } from '../pipeline/schema';
import type { NextVisit } from '../schedule/fixed-interval';
import { Acker } from './acker';
import { Credits } from './credits';
import { newState, offerDiscovered, type Discovered } from './discovery';
import { failedVisit } from './job-outcome';
import { PoliteFetch } from './polite-fetch';
import { SinkFlushTrigger } from './sink-flush';
import type { SubjectDocRef } from './subject-status';
import type { DropFn, RunDeps, RunLimits, RunSummary, StopReason } from './types';
import { setRepeating, setTimer } from '../core/timers';

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
  private readonly fetch: PoliteFetch;
  private readonly flushTrigger: SinkFlushTrigger;
  private fatal: FreshetError | undefined;
  private readonly summary: RunSummary = {
    jobs: 0, jobsFailed: 0, leasesLost: 0, requests: 0, documents: { indexed: 0, dropped: 0, dead_lettered: 0 }, stoppedBy: 'idle', elapsedMs: 0,
  };

  constructor(private readonly config: PipelineConfig, private readonly deps: RunDeps) {
    this.credits = new Credits(config.source.max_in_flight);
    this.acker = new Acker(deps.frontier, { clock: deps.clock, logger: deps.logger, sleep: deps.sleep });
    this.parserTally = deps.metrics.stageTally(deps.adapter.type);
    this.parserSeconds = deps.metrics.stageSeconds.labels(deps.adapter.type);
    this.fetch = new PoliteFetch(config, deps);
    this.flushTrigger = new SinkFlushTrigger(config.source.max_in_flight, deps.flushSink);
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
      setRepeating(() => void this.heartbeat(), Math.max(1000, (this.config.source.lease_secs * 1000) / 3)),
      setRepeating(() => void frontier.reap().catch(() => undefined), this.config.source.reap_interval_secs * 1000),
    ];
    const deadline = limits.durationMs === undefined ? undefined : setTimer(() => this.stop('duration'), limits.durationMs);
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
      deadline?.clear();
    }
    if (this.fatal) throw this.fatal;
    this.summary.requests = this.fetch.requests;
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
      if (limits.maxFetches !== undefined && this.fetch.requests >= limits.maxFetches) {
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
    this.flushTrigger.started();
    void tracker.done.then(() => this.finish(tracker, result));
    const ctx = {
      fetchText: (url: string, expect: 'json' | 'html') => this.fetch.fetchText(url, expect),
      nowMs: () => this.deps.clock.nowMs(),
      logger: this.deps.logger,
      subjectCount: () => this.deps.frontier.countSubjects(),
    };
    const discovered: Discovered[] = [];
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
        } else if (e.kind === 'dropped') {
          tracker.add();
          tally.sent += 1;
          this.drop({ doc: e.doc, job: tracker }, e.stage, e.reason);
        } else if (e.kind === 'discovered') {
          discovered.push({ subject: e.subject, state: newState(this.deps.clock.nowMs(), job.subject, e.state) });
        } else {
          const nowMs = this.deps.clock.nowMs();
          for (const subject of e.subjects) discovered.push({ subject, state: newState(nowMs, job.subject, e.state) });
        }
      }
      if (discovered.length > 0) await offerDiscovered(discovered, this.deps.clock.nowMs(), this.deps);
    } catch (err) {
      result.error = asFreshetError(err);
    } finally {
      endTimer();
      tracker.seal();
      this.flushTrigger.sealed();
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

