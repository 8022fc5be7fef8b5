/**
 * The event loop of the scheduling benchmark: one-minute rounds in which a policy spends the
 * budget (pages per hour, carried over between rounds) on visits to a simulated world.
 *
 * A visit reads timeline pages of `pageSize` posts back to the last visit's watermark, so a subject
 * with m new posts costs max(1, ⌈m/pageSize⌉) pages, all charged to the budget. A visit reads at
 * most `maxPagesPerVisit` pages (a first visit `historyPages`): posts beyond that are lost, as on a
 * platform whose timeline cannot be paged back further.
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

  const visit = (id: number, nowMs: number, charged: boolean): number => {
    let p = published[id]!;
    const end = offsets[id + 1]!;
    while (p < end && times[p]! <= nowMs) p++;
    published[id] = p;
    const start = cursor[id]!;
    const count = p - start;
    const limitPages = visited[id] ? opts.maxPagesPerVisit : opts.historyPages;
    const limitPosts = limitPages * pageSize;
    const pageLimitHit = count > limitPosts;
    const seenStart = pageLimitHit ? p - limitPosts : start;
    const pages = pageLimitHit ? limitPages : Math.max(1, Math.ceil(count / pageSize));
    if (charged) rec.visit(start, seenStart, p, nowMs, pages);
    const result: VisitResult = { atMs: nowMs, postTimesMs: times.subarray(seenStart, p), pageLimitHit };
    if (!visited[id] && opts.historyStartKnown !== false) result.historyStartMs = world.historyStartMs;
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
