import type { Clock } from '../core/clock';
import type { DeadLetterWriter } from '../core/dead-letter';
import type { Job, JobTracker, SubjectState, VersionOutcome } from '../core/envelope';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { VisitOutcome } from '../core/visit';
import type { PipelineConfig } from '../pipeline/schema';
import { type ChangeObservation, untimedChangeTimesMs } from '../schedule/change-evidence';
import type { NextVisit, NextVisitPolicy } from '../schedule/contract';
import type { Acker } from './acker';
import type { Credits } from './credits';
import { failedVisit, pausedDueMs } from './job-outcome';
import type { SubjectDocRef } from './subject-status';

/** What a visit left for the end of its job. */
export interface VisitResult {
  outcome?: VisitOutcome;
  error?: FreshetError;
  /** The subject's profile document, when the visit emitted one. */
  profile?: SubjectDocRef;
  /** The run stopped on a signal and cut the visit's fetches: the subject is given back, unchanged and due now. */
  cut?: boolean;
  /** The job gave its fetch credit back for a settling one when its visit ended (Credits.settle). */
  settling?: boolean;
}

/** A claimed job on its way through the run: its document count, and its visit's result once the visit ended. */
export interface ClaimedJob {
  tracker: JobTracker;
  result: VisitResult;
}

export interface JobEndTally {
  jobs: number;
  jobsFailed: number;
  /** Visits a limit paused after some pages: their rest is due as soon as the limit allows. */
  jobsPaused: number;
  /** Visits cut by a stop on a signal: their subjects were given back, unchanged and due now. */
  jobsRequeued: number;
  leasesLost: number;
  /** Failed visits by error code (throttled ones included: they are rescheduled, not failed). */
  failureCodes: Record<string, number>;
  /** Subjects dead-lettered (and parked) by this run. */
  deadLettered: number;
}

export interface JobLifecycleDeps {
  config: Pick<PipelineConfig, 'source' | 'fetch'>;
  /** The parser's type: the stage label of a failed visit. */
  stage: string;
  schedule: NextVisitPolicy;
  acker: Acker;
  credits: Credits;
  deadLetters: DeadLetterWriter;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  /** Told each visited subject's schedule, with the profile document its visit emitted. */
  subjectStatus?: { scheduled(ref: SubjectDocRef, state: SubjectState, nextDueMs: number): void };
  /** A critical error: the run stops. */
  fatal(err: FreshetError): void;
}

/**
 * The end of a job, once every document of its visit is settled: decide (the schedule's next
 * visit, or the failure's backoff and dead letter) → ack (the state and due time, in the
 * frontier) → release (its credit). Also ends a job the schedule defers without a visit.
 */
export class JobLifecycle {
  readonly tally: JobEndTally = { jobs: 0, jobsFailed: 0, jobsPaused: 0, jobsRequeued: 0, leasesLost: 0, failureCodes: {}, deadLettered: 0 };

  constructor(private readonly deps: JobLifecycleDeps) {}

  async end({ tracker, result }: ClaimedJob): Promise<void> {
    const job = tracker.job;
    if (result.cut) return this.requeue(job, result.settling);
    const { state, nextDueMs, outcome } = result.error || !result.outcome
      ? await this.decideFailed(job, result.error ?? new FreshetError(ErrorCodes.unexpected, 'retryable', 'visit ended without an outcome'))
      : this.decideVisited(job, withTextChanges(job, result.outcome, tracker.versions));
    const docs = tracker.counts.indexed + tracker.counts.dropped + tracker.counts.dead_lettered;
    const owned = await this.ack(job, { state, nextDueMs }, docs);
    if (owned && result.profile) this.deps.subjectStatus?.scheduled(result.profile, state, nextDueMs);
    this.tally.jobs += 1;
    this.release(outcome, result.settling);
  }

  /**
   * A visit the run cut when it stopped on a signal: stored as it was claimed, due now, so this or
   * another worker visits it again at once (no failure counted, nothing waits for a lease to expire).
   */
  private async requeue(job: Job, settling?: boolean): Promise<void> {
    await this.ack(job, { state: job.state, nextDueMs: this.deps.clock.nowMs() }, 0);
    this.tally.jobs += 1;
    this.tally.jobsRequeued += 1;
    this.release('requeued', settling);
  }

  /** A job the schedule moved later before any fetch: stored with its new due time, not visited. */
  async defer(job: Job, later: NextVisit): Promise<void> {
    await this.ack(job, later, 0);
    this.release('deferred');
  }

  /**
   * The schedule's next visit; a visit that stopped early comes back sooner, so its rest is not
   * left to the next scheduled visit (a day under fixed_interval): one a limit paused as soon as
   * the limit allows, one that stopped for a passing reason (its `resume`) once that delay passed.
   */
  private decideVisited(job: Job, visit: VisitOutcome): NextVisit & { outcome: string } {
    const now = this.deps.clock.nowMs();
    const next = this.deps.schedule.nextVisit(job.state, visit, now);
    if (visit.paused && next.nextDueMs >= 0) {
      this.tally.jobsPaused += 1;
      this.deps.metrics.visitsPaused.inc({ code: visit.paused.code });
      const resumeMs = pausedDueMs(visit.paused.retryAfterMs, now, this.deps.config.fetch.retry, this.deps.rng);
      return { ...next, nextDueMs: Math.min(next.nextDueMs, resumeMs), outcome: 'paused' };
    }
    if (!visit.resume) return { ...next, outcome: 'ok' };
    this.deps.metrics.errors.inc({ stage: this.deps.stage, code: visit.resume.reason });
    const resumeAtMs = now + visit.resume.afterMs;
    this.deps.logger.info({ subject: job.subject, code: visit.resume.reason, resume_in_ms: visit.resume.afterMs }, 'visit stopped early; the rest is read again soon');
    return { state: next.state, nextDueMs: Math.min(next.nextDueMs, resumeAtMs), outcome: 'partial' };
  }

  private async decideFailed(job: Job, err: FreshetError): Promise<NextVisit & { outcome: string }> {
    const { logger, metrics, config } = this.deps;
    const now = this.deps.clock.nowMs();
    metrics.errors.inc({ stage: this.deps.stage, code: err.code });
    this.tally.failureCodes[err.code] = (this.tally.failureCodes[err.code] ?? 0) + 1;
    if (err.kind === 'critical') this.deps.fatal(err);
    const f = failedVisit(job.state, err, now, config.source, config.fetch.retry, this.deps.rng);
    // A visit a limit refused read nothing: the subject keeps its last visit, which ranks
    // it among the others refused (longest unserved first) when the limit lifts.
    const state = err.kind === 'throttled' ? f.state : { ...f.state, lastVisitMs: now };
    logger.warn({ subject: job.subject, code: err.code, failures: state.failures, next_due_in_ms: f.nextDueMs - now, err: err.message }, 'visit failed');
    if (f.deadLetter) {
      this.tally.deadLettered += 1;
      metrics.deadLetters.inc({ code: err.code });
      await this.deps.deadLetters.deadLetter({ code: err.code, stage: this.deps.stage, subject: job.subject, message: err.message })
        .catch((e: Error) => logger.error({ subject: job.subject, err: e.message }, 'dead-letter write failed'));
    }
    if (err.kind !== 'throttled') this.tally.jobsFailed += 1;
    return { state, nextDueMs: f.nextDueMs, outcome: err.kind === 'throttled' ? 'throttled' : f.deadLetter ? 'dead_lettered' : 'failed' };
  }

  /** True if the lease was still ours; a lost lease means another worker reclaimed the subject and revisits it. */
  private async ack(job: Job, next: NextVisit, docs: number): Promise<boolean> {
    const owned = await this.deps.acker.ack({ job, state: next.state, nextDueMs: next.nextDueMs, docs });
    if (!owned) {
      this.tally.leasesLost += 1;
      this.deps.metrics.leasesLost.inc();
      this.deps.logger.warn({ subject: job.subject }, 'lease lost before ack (expired and reclaimed); the new owner revisits');
    }
    return owned;
  }

  private release(outcome: string, settling = false): void {
    this.deps.metrics.jobsAcked.inc({ outcome });
    this.deps.credits.release(1, settling);
    this.deps.metrics.jobsInFlight.set(this.deps.credits.used);
  }
}

/**
 * A revisit whose page text changed (the search node kept a new version) without a time to say
 * so gets one change for the schedule's evidence (change-evidence.ts); a page whose text did not
 * change adds none, so it is visited less as its unchanged windows add up.
 */
function withTextChanges(job: Job, visit: VisitOutcome, versions: Record<VersionOutcome, number>): VisitOutcome {
  const obs: ChangeObservation = versions.changed > 0 ? 'changed' : versions.unchanged > 0 ? 'unchanged' : 'none';
  const added = untimedChangeTimesMs(obs, job.state.lastVisitMs, visit.state.lastVisitMs ?? Number.NaN, visit.newPostTimesMs);
  return added.length === 0 ? visit : { ...visit, newPostTimesMs: added };
}
