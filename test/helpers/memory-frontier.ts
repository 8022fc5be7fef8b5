import type { Clock } from '../../src/core/clock';
import type { DeadLetter, DeadLetterWriter } from '../../src/core/dead-letter';
import type { Job, SubjectState } from '../../src/core/envelope';
import type { AckItem, FrontierReadings, FrontierStats, JobLeases, Offered, SubjectIntake, ThroughputCounter } from '../../src/sources/contract';

interface Entry {
  state: SubjectState;
  /** undefined: known, never due (a zombie, or "never again"). */
  dueMs: number | undefined;
}

/**
 * The frontier's narrow interfaces in memory, for unit tests of the runner: due order, leases
 * with tokens, acks that refuse a lost lease. The Redis frontier's own behaviour is covered by
 * the integration tests of src/sources.
 */
export class MemoryFrontier implements JobLeases, SubjectIntake, FrontierReadings, ThroughputCounter, DeadLetterWriter {
  readonly subjects = new Map<string, Entry>();
  readonly leased = new Map<string, Job>();
  readonly acks: AckItem[] = [];
  readonly deadLetters: DeadLetter[] = [];
  readonly throughput = { visits: 0, docs: 0 };
  /** The most leases held at once. */
  maxLeased = 0;
  /** Subjects whose next ack is refused as if the lease had expired and another worker had reclaimed it. */
  readonly loseLease = new Set<string>();
  private seq = 0;

  constructor(private readonly clock: Clock) {}

  async claim(n: number): Promise<Job[]> {
    const now = this.clock.nowMs();
    const due = [...this.subjects].filter(([s, e]) => e.dueMs !== undefined && e.dueMs <= now && !this.leased.has(s))
      .sort((a, b) => a[1].dueMs! - b[1].dueMs! || (a[0] < b[0] ? -1 : 1)).slice(0, n);
    const jobs = due.map(([subject, e]) => ({ subject, state: e.state, claimedAtMs: now, leaseToken: `t${this.seq++}` }));
    for (const job of jobs) this.leased.set(job.subject, job);
    this.maxLeased = Math.max(this.maxLeased, this.leased.size);
    return jobs;
  }

  async extend(jobs: Job[]): Promise<number> {
    return jobs.filter((j) => this.leased.get(j.subject)?.leaseToken === j.leaseToken).length;
  }

  async reap(): Promise<number> {
    return 0;
  }

  async ack(items: AckItem[]): Promise<boolean[]> {
    return items.map((item) => {
      const { subject, leaseToken } = item.job;
      if (this.loseLease.delete(subject)) {
        // Expired and reclaimed: another worker visited it and scheduled it an hour on.
        this.leased.delete(subject);
        this.subjects.get(subject)!.dueMs = this.clock.nowMs() + 3_600_000;
      }
      if (this.leased.get(subject)?.leaseToken !== leaseToken) return false;
      this.leased.delete(subject);
      this.acks.push(item);
      this.subjects.set(subject, { state: item.state, dueMs: item.nextDueMs < 0 ? undefined : item.nextDueMs });
      return true;
    });
  }

  async offer(items: Offered[], dueMs = this.clock.nowMs()): Promise<number> {
    let added = 0;
    for (const { subject, state } of items) {
      if (this.subjects.has(subject)) continue;
      this.subjects.set(subject, { state, dueMs });
      added += 1;
    }
    return added;
  }

  async record(items: Offered[]): Promise<number> {
    let added = 0;
    for (const { subject, state } of items) {
      if (this.subjects.has(subject)) continue;
      this.subjects.set(subject, { state, dueMs: undefined });
      added += 1;
    }
    return added;
  }

  async reschedule(subjects: string[], dueMs = this.clock.nowMs()): Promise<number> {
    let n = 0;
    for (const subject of subjects) {
      const e = this.subjects.get(subject);
      if (!e || this.leased.has(subject)) continue;
      e.dueMs = dueMs;
      n += 1;
    }
    return n;
  }

  async stats(): Promise<FrontierStats> {
    const now = this.clock.nowMs();
    const entries = [...this.subjects].filter(([s]) => !this.leased.has(s)).map(([, e]) => e);
    return {
      subjects: this.subjects.size, due: entries.filter((e) => e.dueMs !== undefined).length,
      dueNow: entries.filter((e) => e.dueMs !== undefined && e.dueMs <= now).length, leased: this.leased.size,
      deadLetters: this.deadLetters.length, visitsPerMin: 0, docsPerMin: 0,
    };
  }

  async countSubjects(): Promise<number> {
    return this.subjects.size;
  }

  async countThroughput(visits: number, docs: number): Promise<void> {
    this.throughput.visits += visits;
    this.throughput.docs += docs;
  }

  async deadLetter(entry: DeadLetter): Promise<void> {
    this.deadLetters.push(entry);
  }
}
