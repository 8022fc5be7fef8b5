/**
 * The event loop of the scheduling benchmark: one-minute rounds in which a policy spends the
 * budget (pages per hour, carried over between rounds) on visits to a simulated world.
 *
 * A visit reads timeline pages of `pageSize` posts back to the last visit's watermark, so a subject
 * with m new posts costs max(1, ⌈m/pageSize⌉) pages, all charged to the budget. A visit reads at
 * most `maxPagesPerVisit` pages: posts beyond are left as a gap that later visits fill, as the live
 * weibo adapter does; a first visit reads `historyPages` and older history is lost.
 */
import { seededRng } from '../../core/rng';
import type { SchedulingPolicy } from './policies/policy';
import type { VisitResult } from '../subject-state';
import { MetricsRecorder, type SimulationMetrics } from './metrics';
import type { World } from './world';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface SimulationOptions {
  /** Pages per hour. */
  budgetPerHour: number;
  tickMs: number;
  warmupMs: number;
  measureMs: number;
  /** Visits go on this long after the measured window so that its last posts can be captured. */
  tailMs: number;
  pageSize: number;
  maxPagesPerVisit: number;
  historyPages: number;
  /**
   * A first visit learns where the subject's history starts (the world's history start), so its
   * observed window begins there. False models a platform that does not say: the window then
   * begins at the oldest post seen (subject-state.ts), as for the live weibo adapter. Default true.
   */
  historyStartKnown?: boolean;
  /** Warm: every subject had a (free) first visit within `warmSpreadMs` before time 0. Cold: nothing is known at time 0. */
  warmStart: boolean;
  warmSpreadMs: number;
  replanEveryMs: number;
}

export const DEFAULT_SIMULATION: Omit<SimulationOptions, 'budgetPerHour'> = {
  tickMs: 60_000, warmupMs: 7 * DAY_MS, measureMs: 7 * DAY_MS, tailMs: 2 * DAY_MS, pageSize: 20,
  maxPagesPerVisit: 50, historyPages: 10, warmStart: true, warmSpreadMs: DAY_MS, replanEveryMs: HOUR_MS,
};

export function simulationEndMs(opts: Pick<SimulationOptions, 'warmupMs' | 'measureMs' | 'tailMs'>): number {
  return opts.warmupMs + opts.measureMs + opts.tailMs;
}

/** Runs `policy` on `world` from time 0 and measures the posts published in the measured window. */
export function simulate(world: World, policy: SchedulingPolicy, opts: SimulationOptions): SimulationMetrics {
  const n = world.subjects;
  const times = world.postTimesMs;
  const offsets = world.offsets;
  const endMs = simulationEndMs(opts);
  if (world.options.endMs < endMs) throw new Error(`the world ends at ${world.options.endMs}, before the simulation (${endMs})`);
  const rec = new MetricsRecorder(world, opts.warmupMs, opts.warmupMs + opts.measureMs);
  // cursor: first post not yet seen (captured or lost); published: first post not yet published.
  const cursor = Int32Array.from(offsets.subarray(0, n));
  const published = Int32Array.from(offsets.subarray(0, n));
  const visited = new Uint8Array(n);
  const pageSize = opts.pageSize;

  // Unread posts left behind by a cut-off visit, [gapLo, gapHi), filled newest first on later visits.
  const gapLo = new Int32Array(n);
  const gapHi = new Int32Array(n);
  const seenTimes: number[] = [];

  /**
   * One visit, as the live weibo adapter reads a timeline: new posts newest first, at most the page
   * limit; when they do not fit, the older ones stay behind as a gap (folded with an older gap)
   * that later visits fill with the pages their new posts leave. A first visit reads `historyPages`
   * and leaves no gap: older history is never read. Returns the pages read.
   */
  const visit = (id: number, nowMs: number, charged: boolean): number => {
    let p = published[id]!;
    const end = offsets[id + 1]!;
    while (p < end && times[p]! <= nowMs) p++;
    published[id] = p;
    const start = cursor[id]!;
    const count = p - start;
    const first = !visited[id];
    const limitPages = first ? opts.historyPages : opts.maxPagesPerVisit;
    const limitPosts = limitPages * pageSize;
    let pageLimitHit = count > limitPosts;
    const seenStart = pageLimitHit ? p - limitPosts : start;
    let pages = pageLimitHit ? limitPages : Math.max(1, Math.ceil(count / pageSize));
    if (count > 0) rec.stale(times[start]!, nowMs);
    rec.capture(seenStart, p, nowMs, charged);
    seenTimes.length = 0;
    for (let k = seenStart; k < p; k++) seenTimes.push(times[k]!);
    if (pageLimitHit) {
      if (first) rec.lose(start, seenStart);
      else {
        if (gapHi[id]! <= gapLo[id]!) gapLo[id] = start;
        gapHi[id] = seenStart;
      }
    } else if (gapHi[id]! > gapLo[id]!) {
      const room = (limitPages - pages) * pageSize;
      const from = Math.max(gapLo[id]!, gapHi[id]! - room);
      if (room > 0) {
        rec.capture(from, gapHi[id]!, nowMs, charged);
        for (let k = from; k < gapHi[id]!; k++) seenTimes.push(times[k]!);
        pages += Math.ceil((gapHi[id]! - from) / pageSize);
        gapHi[id] = from;
      }
      if (gapHi[id]! > gapLo[id]!) pageLimitHit = true;
    }
    if (charged) rec.visit(id, nowMs, pages);
    const result: VisitResult = { atMs: nowMs, postTimesMs: seenTimes, pageLimitHit };
    if (first && opts.historyStartKnown !== false) result.historyStartMs = world.historyStartMs;
    cursor[id] = p;
    visited[id] = 1;
    policy.observe(id, result);
    return pages;
  };

  if (opts.warmStart) {
    // The crawler has been running: each subject's last visit fell somewhere in the previous day.
    // (Visiting everyone at the same instant would keep equal-rate subjects in lockstep for weeks.)
    const rng = seededRng((world.options.seed ^ 0x2545f491) >>> 0);
    for (let id = 0; id < n; id++) visit(id, -rng.next() * opts.warmSpreadMs, false);
  }
  const perTick = (opts.budgetPerHour * opts.tickMs) / HOUR_MS;
  let credit = 0;
  let nextReplanMs = 0;
  const picked: number[] = [];
  for (let t = 0; t < endMs; t += opts.tickMs) {
    if (t >= nextReplanMs) {
      rec.sample(t, cursor, policy.overdueShare?.(t));
      policy.replan(t);
      nextReplanMs += opts.replanEveryMs;
    }
    // Budget a quiet policy leaves unused is not banked beyond one round.
    credit = Math.min(credit + perTick, 2 * perTick + 1);
    if (credit < 1) continue;
    policy.pick(t, Math.floor(credit), picked);
    for (const id of picked) credit -= visit(id, t, true);
  }
  return rec.finish(policy.name, cursor, endMs);
}
