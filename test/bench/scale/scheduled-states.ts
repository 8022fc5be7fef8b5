import { join } from 'node:path';
import type { SubjectState } from '../../../src/core/envelope';
import { seededRng, type Rng } from '../../../src/core/rng';
import type { VisitOutcome } from '../../../src/core/visit';
import { loadPipeline } from '../../../src/pipeline/load';
import { buildModelFromFrontier, poissonNextVisitPolicy } from '../../../src/schedule/core-bridge';
import { configFromStage, type PoissonScheduleConfig, type ScheduleModel } from '../../../src/schedule/poisson';
import { projectRoot } from '../lib/results';

/**
 * Subject states as the runner stores them under a `poisson` schedule after a few visits: the real
 * policy (`poissonNextVisitPolicy`: observe + schedulerFields + iv) folds simulated visits into
 * them, with the schedule block of a real pipeline file and a model refitted from the simulated
 * population after every round. Posts arrive as Poisson processes with log-normal rates; the
 * adapter's fields (`base`) ride along unchanged. Deterministic for a seed.
 */
export interface ScheduledStatesOptions {
  /** Pipeline file under pipelines/ whose `schedule:` block (poisson) is used. */
  pipeline: string;
  /** The adapter's part of the state (meta, via, watermark, …). */
  base: SubjectState;
  subjects: number;
  visits: number;
  /** Median posts (or page changes) per hour and the σ of its log across subjects. */
  medianRatePerHour: number;
  sigma: number;
  /** Hours of history the first visit can see. */
  historyHours: number;
  /** Posts a visit reads at most (first visit, later visits): beyond, the page limit is hit. */
  firstVisitMaxPosts: number;
  visitMaxPosts: number;
  /** A page, not a timeline: a visit reports only the latest change (Last-Modified), as web_pages does. */
  latestOnly?: boolean;
  seed?: number;
}

const HOUR_MS = 3_600_000;

function poissonTimes(rng: Rng, ratePerHour: number, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; ;) {
    t += (-Math.log(1 - rng.next()) / ratePerHour) * HOUR_MS;
    if (t > toMs) return out;
    // Whole seconds, as platforms and feeds stamp posts (weibo's created_at, RSS and HTTP dates).
    out.push(Math.round(t / 1000) * 1000);
  }
}

function gaussian(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

export function poissonConfigOf(pipeline: string): PoissonScheduleConfig {
  const schedule = loadPipeline(join(projectRoot(), 'pipelines', pipeline), { SIMSITE_URL: 'http://127.0.0.1:8080' }).schedule;
  if (schedule.type !== 'poisson') throw new Error(`${pipeline}: not a poisson schedule`);
  const { refit_interval_secs: _every, ...options } = schedule;
  return configFromStage(options);
}

export function scheduledStates(o: ScheduledStatesOptions): SubjectState[] {
  const rng = seededRng(o.seed ?? 20);
  const config = poissonConfigOf(o.pipeline);
  const t0 = o.base.firstSeenMs;
  const rates = Array.from({ length: o.subjects }, () => o.medianRatePerHour * Math.exp(o.sigma * gaussian(rng)));
  // Every post (or change) of each subject over the whole simulated span, drawn once.
  const horizonMs = t0 + (o.visits + 1) * 24 * HOUR_MS;
  const posts = rates.map((r) => poissonTimes(rng, r, t0 - o.historyHours * HOUR_MS, horizonMs));
  let states: SubjectState[] = rates.map(() => {
    const { schedule: _s, lastVisitMs: _v, lastPostMs: _p, ...rest } = o.base;
    return { ...rest, firstSeenMs: t0, postsSeen: 0, visits: 0, failures: 0, status: 'active' };
  });
  let due = rates.map((_, i) => t0 + i * 1000);
  let model: ScheduleModel = buildModelFromFrontier(states, config);
  const policy = poissonNextVisitPolicy(() => model);
  for (let round = 0; round < o.visits; round++) {
    const next = states.map((before, i) => {
      // Claimed when due, read at a whole millisecond (the runner's clock).
      const atMs = Math.ceil(due[i]!);
      const after = before.lastVisitMs ?? Number.NEGATIVE_INFINITY;
      let seen = posts[i]!.filter((t) => t > after && t <= atMs);
      const max = before.visits === 0 ? o.firstVisitMaxPosts : o.visitMaxPosts;
      // A page shows its latest change only, and nothing is cut short (web_pages' pageLimitHit is false).
      const pageLimitHit = !o.latestOnly && seen.length > max;
      seen = seen.slice(o.latestOnly ? -1 : -max);
      const newest = seen.length > 0 ? seen[seen.length - 1]! : undefined;
      const outcome: VisitOutcome = {
        state: {
          ...before, visits: before.visits + 1, postsSeen: before.postsSeen + seen.length, lastVisitMs: atMs,
          ...(newest !== undefined ? { lastPostMs: newest } : {}),
          ...(o.base.watermark !== undefined ? { watermark: o.base.watermark } : {}),
        },
        newPostTimesMs: seen, pageLimitHit, requests: 1,
      };
      return policy.nextVisit(before, outcome, atMs);
    });
    states = next.map((n) => n.state);
    due = next.map((n) => n.nextDueMs);
    model = buildModelFromFrontier(states, config, 1, model);
  }
  return states;
}
