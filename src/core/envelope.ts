/**
 * What flows through a pipeline. A `Job` is one claimed subject (a user, a thread, a page); it
 * fans out into documents, each carried by a `DocEnvelope` that points back at its job so the
 * sink's confirmation can settle it. The job is acknowledged to the frontier only once every
 * one of its documents is settled (indexed, dropped with a reason, or dead-lettered).
 */
export interface SubjectState {
  /** When freshet first learned of the subject. */
  firstSeenMs: number;
  lastVisitMs?: number;
  lastPostMs?: number;
  /** Highest post id seen (string: ids exceed 2^53); later visits stop there. */
  watermark?: string;
  postsSeen: number;
  visits: number;
  failures: number;
  status: 'active' | 'zombie' | 'gone' | 'dead';
  followers?: number;
  /** Scheduler-owned fields (rate posterior etc.), opaque to the frontier. */
  schedule?: Record<string, unknown>;
  /** Adapter-owned values (e.g. a timeline container id), opaque to the frontier. */
  meta?: Record<string, string>;
  /**
   * Where the subject came from (seed, or the subject that discovered it): no longer written, and
   * not stored by the Redis frontier (nothing read it); states stored before may still hold it.
   */
  via?: string;
  depth?: number;
}

/** A subject as the frontier first learns of it (seeded, discovered); `extra` says how (depth, status). */
export function newSubjectState(nowMs: number, extra: Partial<SubjectState> = {}): SubjectState {
  return { firstSeenMs: nowMs, postsSeen: 0, visits: 0, failures: 0, status: 'active', ...extra };
}

export interface Job {
  /** `<platform>:<kind>:<id>`, e.g. `weibo:user:1669879400`. */
  subject: string;
  state: SubjectState;
  claimedAtMs: number;
  /** Proves ownership of the lease at ack time. */
  leaseToken: string;
}

export interface Doc {
  /** Logical index (`posts`, `users`, `pages`, `post-metrics`); the sink adds the prefix. */
  index: string;
  /** Deterministic: a replay overwrites and never duplicates. */
  id: string;
  body: Record<string, unknown>;
  /**
   * A change to a document already indexed rather than a document (monitoring of posts): the sink
   * merges `body` into the stored one by this rule (sinks/post-merge-script.ts), never creating a
   * document, and document stages pass it by. Absent: the document as read.
   */
  op?: DocOp;
}

/** `seen`: shown again at `last_seen_at`; `missing`: a covering read missed it (first_missing_at, not_found_count); `tombstone`: gone, with its status. */
export type DocOp = 'seen' | 'missing' | 'tombstone';

export interface DocEnvelope {
  doc: Doc;
  /** The job the document came from: its settlement counts down the job's outstanding documents. */
  job: JobTracker;
}

export type Settlement = 'indexed' | 'dropped' | 'dead_lettered';

/**
 * What the search node did with a document of a versioned index (pages, by their text signature):
 * stored it for the first time, kept a new version (the text changed), or left it (unchanged).
 */
export type VersionOutcome = 'created' | 'changed' | 'unchanged';

/**
 * Counts a job's outstanding documents. `seal` is called once the job has emitted all of them;
 * `done` resolves when sealed and nothing is outstanding.
 */
export class JobTracker {
  readonly job: Job;
  private outstanding = 0;
  private sealed = false;
  private resolveDone!: () => void;
  readonly done: Promise<void>;
  readonly counts: Record<Settlement, number> = { indexed: 0, dropped: 0, dead_lettered: 0 };
  /** Of the documents indexed into versioned indices: what their text did (change evidence for the schedule). */
  readonly versions: Record<VersionOutcome, number> = { created: 0, changed: 0, unchanged: 0 };

  constructor(job: Job) {
    this.job = job;
    this.done = new Promise((r) => {
      this.resolveDone = r;
    });
  }

  /** The claimed subject this tracker counts documents for (`env.job.subject`). */
  get subject(): string {
    return this.job.subject;
  }

  add(n = 1): void {
    if (this.sealed) throw new Error(`job ${this.job.subject}: documents added after seal`);
    this.outstanding += n;
  }

  settle(how: Settlement, version?: VersionOutcome): void {
    this.counts[how] += 1;
    if (version !== undefined) this.versions[version] += 1;
    this.outstanding -= 1;
    if (this.outstanding < 0) throw new Error(`job ${this.job.subject}: settled more documents than it emitted`);
    this.maybeDone();
  }

  seal(): void {
    this.sealed = true;
    this.maybeDone();
  }

  private maybeDone(): void {
    if (this.sealed && this.outstanding === 0) this.resolveDone();
  }
}
