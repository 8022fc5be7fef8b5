/**
 * How the live crawler (src/runner, src/sources/frontier) plugs the Poisson scheduler in.
 *
 * The frontier already keeps the generic per-subject record (first seen, last visit, last post,
 * watermark, posts seen, visits, status); the scheduler's own fields ride in its opaque `schedule`
 * map: the rate evidence and, with the time-of-day option, the three diurnal sums. On each ack the
 * runner calls `nextVisit(job.state, outcome, now)` and persists the state it returns: the
 * outcome's state with the visit folded into its `schedule` map, next to the due-ZSET score.
 *
 * The visit happened when the timeline was read (the outcome's lastVisitMs, the last fetch), not
 * when the runner acknowledges it: the ack waits for the documents to settle in the index, and on
 * an accelerated clock that wait is a sizeable share of a visit interval. Timing the window and the
 * next visit from the ack would stretch every interval by it (and double-count it as exposure).
 *
 * Due times written by an older model go stale (the prior and the allocation's constant move as
 * the crawl learns; early in a crawl, by several times). The simulation rewrites every due time
 * when the model moves; the due ZSET cannot be rewritten wholesale without a scan, so the live
 * crawler does it lazily: a written due time is never more than RECHECK_HOURS out, and when a
 * subject comes due the runner asks `recheck` first, which re-derives the due time from the current
 * model and, if the visit is not yet due, stores the new due time without fetching anything.
 * `iv` keeps the interval the model planned (not the capped one), for the spend the queue holds.
 */
import type { SubjectState as FrontierState } from '../core/envelope';
import type { VisitOutcome } from '../core/visit';
import type { NextVisit, NextVisitPolicy } from './contract';
import { expectedPagesPerVisit } from './allocation';
import { type FreshnessEstimate, freshnessMeter } from './freshness';
import { type PoissonScheduleConfig, type ScheduleModel, type ScheduleStatus, allocationRatePerHour, buildModel, nextVisitAtMs, observeOptions, scheduleStatus } from './poisson';
import { type SubjectState, observe } from './subject-state';

/** The scheduler's view of a frontier record. */
export function schedulerState(f: FrontierState): SubjectState {
  const s = f.schedule ?? {};
  const num = (k: string): number => (typeof s[k] === 'number' && Number.isFinite(s[k]) ? (s[k] as number) : 0);
  return {
    firstSeenMs: f.firstSeenMs, lastVisitMs: f.lastVisitMs ?? null, lastPostMs: f.lastPostMs ?? null, watermark: f.watermark ?? null,
    postsSeen: f.postsSeen, visits: f.visits, evidencePosts: num('ep'), evidenceHours: num('eh'), recentPosts: num('rp'), recentHours: num('rh'),
    lastPosts: num('lp'), lastHours: num('lh'),
    // Before these were kept, the forgetting evidence stands in for all of it.
    allPosts: typeof s['ap'] === 'number' ? num('ap') : num('ep'), allHours: typeof s['ah'] === 'number' ? num('ah') : num('eh'),
    openPosts: num('op'), openHours: typeof s['oh'] === 'number' ? num('oh') : -1, splitSquares: num('ss'), splitPosts: num('sp'),
    delayPosts: num('dp'), delayHours: num('dh'),
    diurnal: typeof s.dn === 'number' ? { n: num('dn'), cos: num('dc'), sin: num('ds') } : null,
  };
}

/** The scheduler-owned fields to store in the frontier record's `schedule` map (short keys: one per subject). */
export function schedulerFields(s: SubjectState): Record<string, number> {
  const r = (x: number): number => Math.round(x * 1e6) / 1e6;
  const out: Record<string, number> = { ep: r(s.evidencePosts), eh: r(s.evidenceHours), rp: r(s.recentPosts), rh: r(s.recentHours),
    lp: r(s.lastPosts), lh: r(s.lastHours), ap: r(s.allPosts), ah: r(s.allHours), op: r(s.openPosts), oh: r(s.openHours),
  };
  if (s.splitPosts > 0 || s.splitSquares > 0) Object.assign(out, { ss: r(s.splitSquares), sp: r(s.splitPosts) });
  if (s.delayPosts > 0) Object.assign(out, { dp: r(s.delayPosts), dh: r(s.delayHours) });
  if (s.diurnal) Object.assign(out, { dn: r(s.diurnal.n), dc: r(s.diurnal.cos), ds: r(s.diurnal.sin) });
  return out;
}

const HOUR_MS = 3_600_000;
/** A written due time is at most this far out, so that a stale one is re-derived within it. */
export const RECHECK_HOURS = 24;
/** A claimed subject is visited unless the current model puts its visit more than this share of its interval later. */
const RECHECK_SLACK = 0.1;

/** The interval the last ack wrote (due − visit), in hours; undefined before the first one. */
export function scheduledIntervalHours(f: FrontierState): number | undefined {
  const iv = f.schedule?.['iv'];
  return typeof iv === 'number' && iv > 0 && Number.isFinite(iv) ? iv : undefined;
}

/**
 * The pages per hour the due queue holds: Σ expected pages / written interval over the active
 * subjects, each at the rate `model` estimates now. Compared with the plan's spend it shows what
 * stale intervals (written by earlier models) and timing cost. Subjects without a written interval
 * (never visited, or last seen through a failed visit) are left out, with their count.
 */
export function scheduledPagesPerHour(states: readonly FrontierState[], model: ScheduleModel): { pagesPerHour: number; counted: number; uncounted: number } {
  let pagesPerHour = 0;
  let counted = 0;
  let uncounted = 0;
  for (const f of states) {
    if (f.status !== 'active') continue;
    const iv = scheduledIntervalHours(f);
    if (iv === undefined) {
      uncounted += 1;
      continue;
    }
    const rate = allocationRatePerHour(schedulerState(f), model);
    pagesPerHour += expectedPagesPerVisit(rate * iv, model.config.pageSize, model.config.pageLimit) / iv;
    counted += 1;
  }
  return { pagesPerHour, counted, uncounted };
}

/** Refit from the active subjects of the frontier (run every few minutes; O(N)); `previous` warm-starts the prior's fit. */
export function buildModelFromFrontier(states: readonly FrontierState[], config: PoissonScheduleConfig, pace = 1, previous?: ScheduleModel): ScheduleModel {
  return buildModel(states.filter((s) => s.status === 'active').map(schedulerState), config, pace, previous?.rates);
}

/**
 * The plan's figures over the active subjects of the frontier: the one computation behind the
 * schedule gauges and `freshet status` (zombies and gone subjects are never scheduled).
 */
export function frontierScheduleStatus(states: readonly FrontierState[], model: ScheduleModel): ScheduleStatus {
  return scheduleStatus(states.filter((s) => s.status === 'active').map(schedulerState), model);
}

/** What `freshet status` and `freshet serve` show of a poisson schedule: the plan's figures and the freshness meter. */
export type FrontierFreshness = ScheduleStatus & { freshness: FreshnessEstimate };

/**
 * The plan and the freshness meter from every state of the frontier, under `model` (`freshet
 * status` refits it from the same states; `freshet serve` keeps one for the refit interval, as the
 * workers do, since the refit is the costly part). O(N) in the subjects.
 */
export function frontierFreshness(states: readonly FrontierState[], model: ScheduleModel, nowMs: number): FrontierFreshness {
  const active = states.filter((s) => s.status === 'active').map(schedulerState);
  return { ...scheduleStatus(active, model), freshness: freshnessMeter(active, model, nowMs) };
}

/** The `poisson` schedule as the runner's NextVisitPolicy; `model` returns the latest refit. */
export function poissonNextVisitPolicy(model: () => ScheduleModel): NextVisitPolicy {
  return {
    nextVisit(before: FrontierState, outcome: VisitOutcome, nowMs: number): NextVisit {
      if (outcome.state.status === 'gone' || outcome.state.status === 'dead') return { nextDueMs: -1, state: outcome.state };
      const m = model();
      const fetched = outcome.state.lastVisitMs;
      const atMs = fetched !== undefined && Number.isFinite(fetched) && fetched <= nowMs ? fetched : nowMs;
      // A first visit pages back through history older than the discovery time, so its window
      // starts at the oldest post it saw (observe's default), not at firstSeenMs.
      const after = observe(schedulerState(before), {
        atMs, postTimesMs: outcome.newPostTimesMs, pageLimitHit: outcome.pageLimitHit,
      }, observeOptions(m.config));
      const plannedMs = nextVisitAtMs(after, m);
      // The newest change the scheduler saw, where the adapter keeps none (a page's modified time,
      // an untimed text change): retirement counts a subject's quiet hours from it.
      const lastPost = after.lastPostMs !== null && !((outcome.state.lastPostMs ?? Number.NEGATIVE_INFINITY) >= after.lastPostMs) ? { lastPostMs: after.lastPostMs } : {};
      const state = { ...outcome.state, lastVisitMs: atMs, ...lastPost, schedule: { ...outcome.state.schedule, ...schedulerFields(after), iv: intervalHours(plannedMs, atMs) } };
      return { nextDueMs: Math.min(plannedMs, atMs + RECHECK_HOURS * HOUR_MS), state };
    },
    recheck(f: FrontierState, nowMs: number): NextVisit | undefined {
      // Never visited, or last seen through a failed visit (a retry is due): visit.
      const iv = scheduledIntervalHours(f);
      if (f.status !== 'active' || f.lastVisitMs === undefined || f.failures > 0 || iv === undefined) return undefined;
      // Claimed sooner than any due time this schedule wrote: the runner rescheduled it (a throttled
      // attempt moves lastVisitMs and retries soon), so the retry goes ahead.
      if (nowMs - f.lastVisitMs < (1 - RECHECK_SLACK) * Math.min(iv, RECHECK_HOURS) * HOUR_MS) return undefined;
      const plannedMs = nextVisitAtMs(schedulerState(f), model());
      if (plannedMs - nowMs <= RECHECK_SLACK * (plannedMs - f.lastVisitMs)) return undefined;
      const state = { ...f, schedule: { ...f.schedule, iv: intervalHours(plannedMs, f.lastVisitMs) } };
      return { nextDueMs: Math.min(plannedMs, nowMs + RECHECK_HOURS * HOUR_MS), state };
    },
  };
}

function intervalHours(dueMs: number, fromMs: number): number {
  return Math.round(((dueMs - fromMs) / HOUR_MS) * 1000) / 1000;
}
