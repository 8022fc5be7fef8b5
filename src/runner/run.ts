import { setMaxListeners } from 'node:events';
import { filter, ignoreElements, lastValueFrom, merge, mergeMap, Observable, share, tap, type OperatorFunction, type Subscriber } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope, type Job } from '../core/envelope';
import { asFreshetError, ErrorCodes, type FreshetError } from '../core/errors';
import { redisOutageDelayMs } from '../core/retry';
import type { Metrics } from '../core/metrics';
import { ByteBudget } from '../limits/byte-budget';
import type { PipelineConfig } from '../pipeline/schema';
import type { Settled } from '../sinks/contract';
import { Acker } from './acker';
import { Credits } from './credits';
import { offerDiscovered, type Discovered } from './discovery';
import { JobLifecycle, type ClaimedJob } from './job-lifecycle';
import { PoliteFetch } from './polite-fetch';
import { SinkFlushTrigger } from './sink-flush';
import type { DropFn, RunDeps, RunLimits, RunProgress, RunSummary, StopReason } from './types';
import { setRepeating, setTimer } from '../core/timers';

/** How often a paused worker asks again whether to resume. */
const CONTROL_POLL_MS = 200;

/**
 * Runs one pipeline. The data path, top to bottom (`run`):
 *
 *   claim (while fetch credits are free) → visit (fetch, parse: documents) → stages → sink →
 *   settle each document on its job; once a job's visit ended it trades its fetch credit for a
 *   settling one (Credits.settle); once all its documents are settled → decide → ack → release
 *   its credit (JobLifecycle).
 *
 * `stop()` is graceful: stop claiming, drain, flush, ack.
 */
export class PipelineRunner {
  private readonly credits: Credits;
  /** What the visits in flight weigh: the bodies they read and parse (`max_bytes_in_flight`). */
  readonly bytes: ByteBudget;
  private readonly acker: Acker;
  private readonly lifecycle: JobLifecycle;
  /** The parser as a stage (a visit in, its documents out): its tally and timer, resolved once, not per visit. */
  private readonly parserTally: ReturnType<Metrics['stageTally']>;
  private readonly parserSeconds: ReturnType<Metrics['stageSeconds']['labels']>;
  private stopping: StopReason | undefined;
  private wakeStop!: () => void;
  private readonly stopped = new Promise<void>((r) => {
    this.wakeStop = r;
  });
  /** Claimed jobs whose leases the heartbeat keeps alive until their ack. */
  private readonly leased = new Set<Job>();
  private readonly fetch: PoliteFetch;
  private readonly flushTrigger: SinkFlushTrigger;
  /** Aborted by a stop on a signal: cuts the fetches in flight (their subjects are given back). */
  private readonly cut = new AbortController();
  private fatal: FreshetError | undefined;
  private readonly documents: RunSummary['documents'] = { indexed: 0, dropped: 0, dead_lettered: 0 };
  private claimed = 0;
  private paused = false;
  /** Fetch credits free before a claim (see claimLoop). */
  private readonly minClaim: number;

  constructor(private readonly config: PipelineConfig, private readonly deps: RunDeps) {
    this.credits = new Credits(config.source.max_in_flight, config.source.max_settling);
    this.minClaim = config.source.max_settling > 0 ? Math.max(1, Math.min(config.source.claim_batch, Math.floor(config.source.max_in_flight / 4))) : 1;
    this.bytes = new ByteBudget(config.source.max_bytes_in_flight);
    // Every visit waiting for room or a slot listens for the cut: up to max_in_flight at once, no leak.
    setMaxListeners(0, this.cut.signal);
    this.acker = new Acker({ ack: (items) => deps.frontier.ack(items), countThroughput: (v, d) => deps.throughput.countThroughput(v, d) }, { clock: deps.clock, logger: deps.logger, sleep: deps.sleep });
    this.lifecycle = new JobLifecycle({
      config, stage: deps.adapter.type, schedule: deps.schedule, acker: this.acker, credits: this.credits, deadLetters: deps.deadLetters,
      clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, ...(deps.subjectStatus ? { subjectStatus: deps.subjectStatus } : {}),
      fatal: (err) => {
        this.fatal = err;
        this.stop('error');
      },
    });
    this.parserTally = deps.metrics.stageTally(deps.adapter.type);
    this.parserSeconds = deps.metrics.stageSeconds.labels(deps.adapter.type);
    this.fetch = new PoliteFetch({ ...deps, signal: this.cut.signal });
    this.flushTrigger = new SinkFlushTrigger(config.source.max_in_flight, deps.flushSink);
  }

  /** A stage dropped a document on purpose: settle it so its job can be acknowledged, and count why. */
  private readonly drop: DropFn = (env, stage, reason) => {
    this.deps.metrics.drops.inc({ stage, reason });
    this.deps.metrics.docs.inc({ index: env.doc.index, outcome: 'dropped' });
    this.documents.dropped += 1;
    env.job.settle('dropped');
  };

  /** The sink settled a document (indexed or dead-lettered): its job has one fewer outstanding. */
  private readonly settle = (s: Settled): void => {
    this.documents[s.how] += 1;
    s.env.job.settle(s.how, s.version);
  };

  /**
   * Stops claiming and drains. On a signal the fetches in flight are cut too (a slow body would
   * otherwise hold the drain for its whole timeout, per retry): their visits end at once and their
   * subjects are given back to the frontier, due now and unchanged; documents they already handed
   * on are still indexed. Other stops (duration, max_fetches, idle, error) let visits finish.
   */
  stop(reason: StopReason = 'signal'): void {
    if (this.stopping) return;
    this.stopping = reason;
    this.deps.logger.info({ reason, in_flight: this.credits.used }, reason === 'signal'
      ? 'stopping: no new claims; in-flight fetches cut and their subjects given back; draining the rest'
      : 'stopping: no new claims; draining in-flight work');
    if (reason === 'signal') this.cut.abort(new Error('the run is stopping on a signal'));
    this.wakeStop();
  }

  get inFlightJobs(): number {
    return this.credits.used;
  }

  async run(limits: RunLimits = {}): Promise<RunSummary> {
    const started = this.deps.clock.nowMs();
    const { frontier, logger } = this.deps;
    if (this.config.seeds.length > 0) {
      const added = await frontier.offer(this.config.seeds.map((subject) => ({ subject, state: newSubjectState(started) })));
      logger.info({ seeds: this.config.seeds.length, added }, 'seeds offered');
    }
    await this.deps.schedule.prepare?.();
    const timers = [
      setRepeating(() => void this.heartbeat(), Math.max(1000, (this.config.source.lease_secs * 1000) / 3)),
      setRepeating(() => void frontier.reap().catch(() => undefined), this.config.source.reap_interval_secs * 1000),
    ];
    const deadline = limits.durationMs === undefined ? undefined : setTimer(() => this.stop('duration'), limits.durationMs);
    const maxInFlight = this.config.source.max_in_flight;
    try {
      const claimed = this.claims(limits).pipe(share());
      const stages = this.deps.stages?.(this.drop) ?? [];
      await lastValueFrom(merge(
        // Documents: visit → stages → sink → settled on their job.
        claimed.pipe(
          mergeMap((job) => this.visit(job), maxInFlight),
          (docs: Observable<DocEnvelope>) => throughStages(docs, stages),
          this.deps.sink,
          tap(this.settle),
          ignoreElements(),
        ),
        // Jobs: once a job's documents are all settled → decide → ack → release (at most one per credit, fetch or settling).
        claimed.pipe(
          mergeMap(async (job) => {
            await job.tracker.done;
            await this.lifecycle.end(job);
            this.leased.delete(job.tracker.job);
          }, maxInFlight + this.credits.settlingLimit),
          ignoreElements(),
        ),
      ), { defaultValue: undefined });
      await this.credits.drained();
      await this.acker.drain();
    } finally {
      timers.forEach(clearInterval);
      deadline?.clear();
    }
    if (this.fatal) throw this.fatal;
    const { inFlight: _i, claimed: _c, paused: _p, ...done } = this.progress();
    return { ...done, stoppedBy: this.stopping ?? 'idle', elapsedMs: this.deps.clock.nowMs() - started };
  }

  /** The run's counts so far (a progress line reads them while it runs). */
  progress(): RunProgress {
    const t = this.lifecycle.tally;
    return {
      ...t, failureCodes: { ...t.failureCodes }, requests: this.fetch.requests, refused: { ...this.fetch.refused },
      documents: { ...this.documents }, inFlight: this.credits.used, claimed: this.claimed, paused: this.paused,
    };
  }

  private claims(limits: RunLimits): Observable<ClaimedJob> {
    return new Observable<ClaimedJob>((sub) => {
      void this.claimLoop(sub, limits).then(() => sub.complete(), (err) => sub.error(err));
    });
  }

  private async claimLoop(sub: Subscriber<ClaimedJob>, limits: RunLimits): Promise<void> {
    const { frontier, logger, metrics } = this.deps;
    let redisDown = 0;
    while (!this.stopping) {
      if (limits.maxFetches !== undefined && this.fetch.requests >= limits.maxFetches) {
        this.stop('max_fetches');
        break;
      }
      // Every worker of the crawl obeys the operator's pause and drain (kept in Redis).
      const command = await this.deps.control?.check();
      this.paused = command === 'pause';
      if (command === 'drain') {
        this.stop('drain');
        break;
      }
      if (this.paused) {
        await this.pause(CONTROL_POLL_MS);
        continue;
      }
      // Settling frees fetch credits one visit at a time (an ack frees a batch at once): with
      // max_settling, claims wait for a quarter of them (at most claim_batch) rather than paying a
      // claim round trip per job.
      if (this.credits.free < this.minClaim) {
        await Promise.race([this.credits.whenFree(this.minClaim), this.stopped]);
        continue;
      }
      let jobs: Job[];
      try {
        jobs = await frontier.claim(Math.min(this.credits.free, this.config.source.claim_batch));
        if (redisDown > 0) logger.info({ attempts: redisDown }, 'Redis reachable again; claiming');
        redisDown = 0;
      } catch (err) {
        if (redisDown++ === 0) logger.warn({ code: ErrorCodes.redisUnavailable, err: (err as Error).message }, 'claim failed; pausing until Redis answers');
        await this.pause(redisOutageDelayMs(redisDown));
        continue;
      }
      if (jobs.length === 0) {
        if (limits.untilIdle && this.credits.used === 0) {
          // Redis away at this very moment: not idle, the next claim attempt pauses for it.
          const s = await this.deps.readings.stats().catch(() => undefined);
          if (s && s.dueNow === 0 && s.leased === 0) {
            this.stop('idle');
            break;
          }
        }
        await this.pause(this.config.source.poll_interval_ms);
        continue;
      }
      this.credits.take(jobs.length);
      this.claimed += jobs.length;
      metrics.jobsClaimed.inc(jobs.length);
      metrics.jobsInFlight.set(this.credits.used);
      for (const job of jobs) {
        // A schedule whose model moved since it wrote this due time may defer the visit, unfetched.
        const later = this.deps.schedule.recheck?.(job.state, this.deps.clock.nowMs());
        if (later) void this.lifecycle.defer(job, later);
        else sub.next({ tracker: new JobTracker(job), result: {} });
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return Promise.race([this.deps.sleep(ms), this.stopped]);
  }

  private async heartbeat(): Promise<void> {
    if (this.leased.size === 0) return;
    await this.deps.frontier.extend([...this.leased]).catch((err: Error) => {
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
  private visit(job: ClaimedJob): Observable<DocEnvelope> {
    return new Observable<DocEnvelope>((sub) => {
      void this.drive(job, sub).then(() => sub.complete());
    });
  }

  private async drive({ tracker, result }: ClaimedJob, sub: Subscriber<DocEnvelope>): Promise<void> {
    const job = tracker.job;
    this.leased.add(job);
    this.flushTrigger.started();
    // Held until the visit ends: its pages are parsed after they are read, one after another.
    const hold = this.bytes.hold(this.cut.signal);
    const ctx = {
      fetchText: (url: string, expect: 'json' | 'html', headers?: Record<string, string>) => this.fetch.fetchText(url, expect, headers, hold),
      nowMs: () => this.deps.clock.nowMs(),
      logger: this.deps.logger,
      robotsSitemaps: (origin: string) => this.fetch.robotsSitemaps(origin),
      subjectCount: () => this.deps.readings.countSubjects(),
      ...(this.deps.indexedPosts ? { indexedPosts: this.deps.indexedPosts } : {}),
      ...(this.deps.ledgerCounts ? { ledgerCounts: this.deps.ledgerCounts } : {}),
    };
    const discovered: Discovered[] = [];
    const revisits: string[] = [];
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
          discovered.push({ subject: e.subject, state: newSubjectState(this.deps.clock.nowMs(), e.state) });
        } else if (e.kind === 'revisit') {
          revisits.push(...e.subjects);
        } else {
          const nowMs = this.deps.clock.nowMs();
          for (const subject of e.subjects) discovered.push({ subject, state: newSubjectState(nowMs, e.state) });
        }
      }
      if (discovered.length > 0) await offerDiscovered(discovered, this.deps.clock.nowMs(), this.deps);
      // Known subjects only (the frontier leaves unknown and leased ones alone).
      if (revisits.length > 0) await this.deps.frontier.reschedule(revisits, this.deps.clock.nowMs());
    } catch (err) {
      result.error = asFreshetError(err);
      // Most likely the cut itself; whatever it was, the visit is given back rather than counted a failure.
      if (this.cut.signal.aborted) result.cut = true;
    } finally {
      hold.release();
      endTimer();
      tracker.seal();
      // Its documents are all handed on: the next visit may fetch while the sink indexes them.
      result.settling = this.credits.settle();
      this.flushTrigger.sealed();
    }
  }
}

/**
 * Documents through the document stages; changes to stored documents (`doc.op`: a post seen again,
 * missed, tombstoned) go straight to the sink: they carry no text to enrich, and no filter may
 * drop them.
 */
function throughStages(docs: Observable<DocEnvelope>, stages: OperatorFunction<DocEnvelope, DocEnvelope>[]): Observable<DocEnvelope> {
  if (stages.length === 0) return docs;
  const all = docs.pipe(share());
  const staged = stages.reduce((o, stage) => o.pipe(stage), all.pipe(filter((e) => e.doc.op === undefined)));
  return merge(staged, all.pipe(filter((e) => e.doc.op !== undefined)));
}
