import type { Job, SubjectState } from '../core/envelope';

/**
 * The source contract: what the runner needs of the frontier, one narrow interface per job (the
 * Redis frontier implements them in src/sources/frontier/). Tests of the runner implement them
 * in memory.
 */

export interface AckItem {
  job: Job;
  state: SubjectState;
  /** Negative: do not schedule again. */
  nextDueMs: number;
  /** Documents the visit settled (throughput accounting only). */
  docs?: number;
}

export interface Offered {
  subject: string;
  state: SubjectState;
}

/** Claim, lease and acknowledge: the runner's side of at-least-once delivery. */
export interface JobLeases {
  /** Up to n due subjects, leased to this worker. */
  claim(n: number): Promise<Job[]>;
  /** Keeps the leases of long-running jobs alive. */
  extend(jobs: Job[]): Promise<number>;
  /** Returns expired leases (of dead or stalled workers) to the due queue. */
  reap(): Promise<number>;
  /** Stores each visit's state and next due time; per item, whether the lease was still ours. */
  ack(items: AckItem[]): Promise<boolean[]>;
}

/** Subjects handed to the frontier: seeds and what visits discover. Both return how many were new. */
export interface SubjectIntake {
  /** Queues subjects not yet known, due at `dueMs` (default now). */
  offer(items: Offered[], dueMs?: number): Promise<number>;
  /** Records subjects as known but never due (zombies). */
  record(items: Offered[]): Promise<number>;
  /** Makes known, unleased subjects due at `dueMs` (a feed or sitemap says they changed); returns how many. */
  reschedule(subjects: string[], dueMs?: number): Promise<number>;
}

export interface FrontierStats {
  subjects: number;
  due: number;
  dueNow: number;
  leased: number;
  deadLetters: number;
  /** Acknowledged visits and settled documents per minute, averaged over the last 5 minutes. */
  visitsPerMin: number;
  docsPerMin: number;
}

/** The frontier's numbers: for `freshet status`, the gauges, the idle check and discovery caps. */
export interface FrontierReadings {
  /** `exact`: count the subjects due now rather than estimate them past a hundred buckets per shard. */
  stats(options?: { exact?: boolean }): Promise<FrontierStats>;
  countSubjects(): Promise<number>;
}

/** Per-minute throughput counters (a status gauge, not state). */
export interface ThroughputCounter {
  countThroughput(visits: number, docs: number): Promise<void>;
}

/** What every worker of a crawl is told through Redis: go on, hold off claiming, or drain and stop. */
export type ControlCommand = 'run' | 'pause' | 'drain';

/** The runner asks before each claim; cheap (cached), and a failed read keeps the last answer. */
export interface ControlSignal {
  check(): Promise<ControlCommand>;
}
