/**
 * The seed project's heuristic, taken literally:
 *   param    = statuses / (last_update − first_status)
 *   priority = param × (now − last_status)
 * crawl the top N, recompute after each visit. `last_status` is the newest post *seen*, so a visit
 * that finds nothing does not lower a subject's priority: quiet subjects whose last post is old
 * keep the top of the list and soak up the budget. With no history (a cold start) every priority
 * is 0 and the top N never changes. Both are the behaviours this policy is kept to demonstrate.
 */
import type { VisitResult } from '../../subject-state';
import type { PolicyContext, SchedulingPolicy } from './policy';

export class SeedHeuristicPolicy implements SchedulingPolicy {
  readonly name = 'seed-heuristic';
  private readonly statuses: Float64Array;
  private readonly firstStatusMs: Float64Array;
  private readonly lastStatusMs: Float64Array;
  private readonly param: Float64Array;
  private readonly bestScore: number[] = [];

  constructor(ctx: PolicyContext) {
    const n = ctx.subjects;
    this.statuses = new Float64Array(n);
    this.firstStatusMs = new Float64Array(n).fill(Number.NaN);
    this.lastStatusMs = new Float64Array(n).fill(Number.NaN);
    this.param = new Float64Array(n);
  }

  /** Top `max` by priority; ties keep the lower id (a stable sort of the population). */
  pick(nowMs: number, max: number, out: number[]): void {
    out.length = 0;
    const best = this.bestScore;
    best.length = 0;
    if (max <= 0) return;
    const n = this.param.length;
    for (let id = 0; id < n; id++) {
      const p = this.param[id]!;
      const last = this.lastStatusMs[id]!;
      const score = p > 0 && !Number.isNaN(last) ? p * (nowMs - last) : 0;
      if (out.length === max && score <= best[max - 1]!) continue;
      let i = out.length < max ? out.length : max - 1;
      while (i > 0 && best[i - 1]! < score) {
        if (i < max) {
          best[i] = best[i - 1]!;
          out[i] = out[i - 1]!;
        }
        i -= 1;
      }
      best[i] = score;
      out[i] = id;
    }
  }

  observe(id: number, visit: VisitResult): void {
    for (let i = 0; i < visit.postTimesMs.length; i++) {
      const t = visit.postTimesMs[i]!;
      if (Number.isNaN(this.firstStatusMs[id]!) || t < this.firstStatusMs[id]!) this.firstStatusMs[id] = t;
      if (Number.isNaN(this.lastStatusMs[id]!) || t > this.lastStatusMs[id]!) this.lastStatusMs[id] = t;
    }
    this.statuses[id] = this.statuses[id]! + visit.postTimesMs.length;
    // last_update is this visit.
    const span = visit.atMs - this.firstStatusMs[id]!;
    this.param[id] = this.statuses[id]! > 0 && span > 0 ? this.statuses[id]! / span : 0;
  }

  replan(): void {}
}
