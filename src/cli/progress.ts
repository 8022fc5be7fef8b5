import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../core/logger';
import type { RepeatedWarnings } from '../core/repeated-warnings';
import { setRepeating } from '../core/timers';
import type { PoolMemberStatus } from '../limits/token-quota';
import type { RunProgress } from '../runner/types';
import type { FrontierStats } from '../sources/contract';
import type { WorkerReports } from '../sources/worker-reports';

/** One reading of a running crawl: the run's own counts, the frontier's, the identities'. */
export interface ProgressReading {
  pipeline: string;
  elapsedSecs: number;
  run: RunProgress;
  /** Requests sent per second since the previous reading. */
  pagesPerSec: number;
  frontier?: FrontierStats;
  identities?: PoolMemberStatus[];
}

export interface ProgressSources {
  pipeline: string;
  run(): RunProgress;
  frontier(): Promise<FrontierStats>;
  identities?(): Promise<PoolMemberStatus[] | undefined>;
}

function refusedTotal(r: RunProgress['refused']): number {
  return r.quota + r.politeness + r.robots;
}

function clockTime(secs: number): string {
  const s = Math.floor(secs);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The status line of a terminal: what was sent and refused, indexed, waiting, leased, and why visits failed. */
export function formatProgress(p: ProgressReading): string {
  const r = p.run;
  const parts = [`sent ${r.requests} (${p.pagesPerSec.toFixed(1)}/s)`];
  const refused = Object.entries(r.refused).filter(([, n]) => n > 0).map(([why, n]) => `${why} ${n}`);
  if (refused.length > 0) parts.push(`refused ${refusedTotal(r.refused)} (${refused.join(', ')})`);
  parts.push(`indexed ${r.documents.indexed}`);
  if (p.frontier) parts.push(`due ${p.frontier.dueNow}`, `leased ${p.frontier.leased}`);
  else parts.push(`in flight ${r.inFlight}`);
  if (p.identities && p.identities.length > 0) {
    const available = p.identities.filter((i) => i.state === 'available').length;
    const benched = p.identities.filter((i) => i.state === 'benched').length;
    parts.push(`identities ${available}/${p.identities.length} available, ${benched} benched`);
  }
  const codes = Object.entries(r.failureCodes).sort((a, b) => b[1] - a[1]);
  parts.push(codes.length === 0 ? 'errors 0' : `errors ${codes.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  if (r.deadLettered > 0) parts.push(`dead-lettered ${r.deadLettered}`);
  if (r.paused) parts.push('PAUSED by the operator');
  return `[${p.pipeline} ${clockTime(p.elapsedSecs)}] ${parts.join(' · ')}`;
}

/** The structured record written instead when stderr is not a terminal. */
export function progressRecord(p: ProgressReading): object {
  const ids = p.identities;
  return {
    elapsed_secs: Math.round(p.elapsedSecs), requests_sent: p.run.requests, refused: p.run.refused, pages_per_sec: Number(p.pagesPerSec.toFixed(2)),
    documents: p.run.documents, jobs: p.run.jobs, jobs_failed: p.run.jobsFailed, failure_codes: p.run.failureCodes, dead_lettered: p.run.deadLettered,
    in_flight: p.run.inFlight, claimed: p.run.claimed, paused: p.run.paused,
    ...(p.frontier ? { due_now: p.frontier.dueNow, due: p.frontier.due, leased: p.frontier.leased, subjects: p.frontier.subjects } : {}),
    ...(ids ? { identities: { size: ids.length, available: ids.filter((i) => i.state === 'available').length, at_quota: ids.filter((i) => i.state === 'at_quota').length, benched: ids.filter((i) => i.state === 'benched').length } } : {}),
  };
}

export interface ProgressOptions {
  intervalMs: number;
  /** A terminal: a human line per interval; otherwise a structured record. */
  tty: boolean;
  /** Where the terminal line goes (stderr). */
  write(line: string): void;
  logger: Logger;
  warnings: RepeatedWarnings;
  nowMs(): number;
}

/**
 * Every interval: one progress line (terminal) or record (log), then the repeated warnings of the
 * interval as counts. Readings that fail (Redis away) leave their part out; nothing here throws.
 */
export function startProgress(src: ProgressSources, o: ProgressOptions): { stop(): void } {
  const started = o.nowMs();
  let lastMs = started;
  let lastSent = 0;
  let busy = false;
  const tick = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const now = o.nowMs();
      const run = src.run();
      const [frontier, identities] = await Promise.all([
        src.frontier().catch(() => undefined),
        src.identities?.().catch(() => undefined),
      ]);
      const reading: ProgressReading = {
        pipeline: src.pipeline, elapsedSecs: (now - started) / 1000, run,
        pagesPerSec: now > lastMs ? ((run.requests - lastSent) * 1000) / (now - lastMs) : 0,
        ...(frontier ? { frontier } : {}), ...(identities ? { identities } : {}),
      };
      if (o.tty) o.write(`${formatProgress(reading)}\n`);
      else o.logger.info({ progress: progressRecord(reading) }, 'progress');
      o.warnings.flush((now - lastMs) / 1000);
      lastMs = now;
      lastSent = run.requests;
    } finally {
      busy = false;
    }
  };
  const timer = setRepeating(() => void tick(), o.intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      o.warnings.flush((o.nowMs() - lastMs) / 1000);
    },
  };
}

/**
 * Every second, the worker's counts go to Redis for `freshet serve` (all workers of a crawl in one
 * place); removed when the worker stops. A failed write is skipped: the next one carries it all.
 */
export function startWorkerReport(reports: WorkerReports, progress: () => RunProgress, intervalMs = 1000): { stop(): Promise<void> } {
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const startedAtMs = Date.now();
  let last = { atMs: startedAtMs, requests: 0 };
  const write = () => {
    const now = Date.now();
    const p = progress();
    const pagesPerSec = now > last.atMs ? ((p.requests - last.requests) * 1000) / (now - last.atMs) : 0;
    last = { atMs: now, requests: p.requests };
    return reports.write({ worker, host: hostname(), pid: process.pid, startedAtMs, atMs: now, progress: { ...p, pagesPerSec } }).catch(() => undefined);
  };
  void write();
  const timer = setRepeating(() => void write(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await reports.remove(worker).catch(() => undefined);
    },
  };
}
