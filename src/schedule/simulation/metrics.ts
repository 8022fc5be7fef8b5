/**
 * What the scheduling benchmark reports for the posts published in the measured window:
 * publication-to-index delay (mean, p90, share within an hour), posts lost past the page limit,
 * posts still waiting when the run ends, and average freshness (the share of subject-time during
 * which the index held every post the subject had published).
 */
import type { World } from './world';

const HOUR_MS = 3_600_000;

export interface SimulationMetrics {
  policy: string;
  postsMeasured: number;
  captured: number;
  lost: number;
  /** Still waiting at the end of the run; their delay counts up to the end (so the mean is a lower bound). */
  uncaptured: number;
  meanDelayHours: number;
  /**
   * The mean delay by Little's law: the post-hours spent waiting inside the measured window (by any
   * post, published in it or before) over the posts published in it. Unlike meanDelayHours it is not
   * cut short by the run's end: a post still waiting then counts in full through Little's balance,
   * which is what a forecast of the steady state predicts.
   */
  littleMeanDelayHours: number;
  p90DelayHours: number;
  within1hShare: number;
  freshness: number;
  /** Posts published from time 0 to the end of the measured window that were captured (cold-start goal). */
  capturedShareFromStart: number;
  /** Pages spent per hour during the measured window: shows the budget is respected. */
  pagesPerHour: number;
  visitsPerHour: number;
  /** Measured posts captured by the end of the run (the tail included): below ~95 % the schedule has collapsed. */
  capturedShare: number;
  /** Posts captured per page spent in the measured window. */
  postsPerPage: number;
  /** Share of the measured window's visits that went to the 1 % most-visited subjects (a collapse sends most of them there). */
  top1PctVisitShare: number;
  /** Mean over hourly samples of the share of subjects holding a post that has waited more than `STALE_AFTER_MS`. */
  staleSubjectShare: number;
  /** Mean over hourly samples of the share of subjects the policy itself counts as overdue (NaN when it does not say). */
  overdueShare: number;
}

/** A post waiting this long is a subject the schedule has given up on (floors are days, not weeks). */
export const STALE_AFTER_MS = 7 * 24 * HOUR_MS;

export class MetricsRecorder {
  private readonly delaysMs: Float64Array;
  private delayCount = 0;
  private lost = 0;
  private staleMs = 0;
  private capturedFromStart = 0;
  private capturedInWindow = 0;
  private pages = 0;
  private visits = 0;
  private readonly visitsOf: Uint32Array;
  /** Per post: 0 not read yet, 1 captured, 2 lost. */
  private readonly status: Uint8Array;
  private waitingMs = 0;
  private staleSum = 0;
  private overdueSum = 0;
  private overdueSamples = 0;
  private samples = 0;
  private readonly postsMeasured: number;
  private readonly postsFromStart: number;

  constructor(private readonly world: World, private readonly fromMs: number, private readonly toMs: number) {
    let measured = 0;
    let fromStart = 0;
    for (const t of world.postTimesMs) {
      if (t >= fromMs && t < toMs) measured++;
      if (t >= 0 && t < toMs) fromStart++;
    }
    this.postsMeasured = measured;
    this.postsFromStart = fromStart;
    this.delaysMs = new Float64Array(measured);
    this.visitsOf = new Uint32Array(world.subjects);
    this.status = new Uint8Array(world.postTimesMs.length);
  }

  /** One hourly sample: `cursor` is each subject's first post not yet seen; `overdue` what the policy reports. */
  sample(nowMs: number, cursor: Int32Array, overdue: number | undefined): void {
    if (nowMs < this.fromMs || nowMs >= this.toMs) return;
    const { offsets, postTimesMs: times, subjects } = this.world;
    let stale = 0;
    for (let id = 0; id < subjects; id++) {
      const k = cursor[id]!;
      if (k < offsets[id + 1]! && times[k]! <= nowMs - STALE_AFTER_MS) stale++;
    }
    this.staleSum += stale / subjects;
    this.samples += 1;
    if (overdue !== undefined) {
      this.overdueSum += overdue;
      this.overdueSamples += 1;
    }
  }

  /** A charged visit at `nowMs` that read `pages` pages. */
  visit(id: number, nowMs: number, pages: number): void {
    if (nowMs >= this.fromMs && nowMs < this.toMs) {
      this.pages += pages;
      this.visits += 1;
      this.visitsOf[id] = this.visitsOf[id]! + 1;
    }
  }

  /** Posts [k0, k1) read at `nowMs` (posts read before, e.g. again while filling a gap, count once). */
  capture(k0: number, k1: number, nowMs: number, charged: boolean): void {
    const times = this.world.postTimesMs;
    for (let k = k0; k < k1; k++) {
      if (this.status[k] !== 0) continue;
      this.status[k] = 1;
      const pub = times[k]!;
      this.addWaiting(pub, nowMs);
      if (!charged) continue;
      if (nowMs >= this.fromMs && nowMs < this.toMs) this.capturedInWindow++;
      if (pub >= 0 && pub < this.toMs) this.capturedFromStart++;
      if (pub >= this.fromMs && pub < this.toMs) this.delaysMs[this.delayCount++] = nowMs - pub;
    }
  }

  /** Posts [k0, k1) that no visit will ever read (beyond a first visit's page limit). */
  lose(k0: number, k1: number): void {
    const times = this.world.postTimesMs;
    for (let k = k0; k < k1; k++) {
      if (this.status[k] !== 0) continue;
      this.status[k] = 2;
      if (times[k]! >= this.fromMs && times[k]! < this.toMs) this.lost++;
    }
  }

  /** The subject held unread posts from `oldestUnreadMs` until `nowMs`. */
  stale(oldestUnreadMs: number, nowMs: number): void {
    this.addStale(oldestUnreadMs, nowMs);
  }

  private addWaiting(fromMs: number, toMs: number): void {
    const a = Math.max(fromMs, this.fromMs);
    const b = Math.min(toMs, this.toMs);
    if (b > a) this.waitingMs += b - a;
  }

  private addStale(fromMs: number, toMs: number): void {
    const a = Math.max(fromMs, this.fromMs);
    const b = Math.min(toMs, this.toMs);
    if (b > a) this.staleMs += b - a;
  }

  finish(policy: string, cursor: Int32Array, endMs: number): SimulationMetrics {
    const { offsets, postTimesMs: times, subjects } = this.world;
    const captured = this.delayCount;
    let uncaptured = 0;
    for (let id = 0; id < subjects; id++) {
      const first = cursor[id]!;
      if (first < offsets[id + 1]! && times[first]! < this.toMs) this.addStale(times[first]!, this.toMs);
      for (let k = offsets[id]!; k < offsets[id + 1]!; k++) {
        const pub = times[k]!;
        if (pub >= this.toMs) break;
        if (pub < this.fromMs || this.status[k] !== 0) continue;
        uncaptured++;
        this.delaysMs[this.delayCount++] = endMs - pub;
      }
      // Unread posts (gaps left behind included) wait to the window's end.
      for (let k = offsets[id]!; k < offsets[id + 1]! && times[k]! < this.toMs; k++) if (this.status[k] === 0) this.addWaiting(times[k]!, this.toMs);
    }
    const delays = this.delaysMs.subarray(0, this.delayCount).sort();
    let sum = 0;
    let within1h = 0;
    for (const d of delays) {
      sum += d;
      if (d <= HOUR_MS) within1h++;
    }
    const windowHours = (this.toMs - this.fromMs) / HOUR_MS;
    const p90 = delays.length > 0 ? delays[Math.min(delays.length - 1, Math.floor(0.9 * delays.length))]! : Number.NaN;
    return {
      policy,
      postsMeasured: this.postsMeasured,
      captured,
      lost: this.lost,
      uncaptured,
      meanDelayHours: delays.length > 0 ? sum / delays.length / HOUR_MS : Number.NaN,
      littleMeanDelayHours: this.postsMeasured > this.lost ? this.waitingMs / (this.postsMeasured - this.lost) / HOUR_MS : Number.NaN,
      p90DelayHours: p90 / HOUR_MS,
      within1hShare: this.postsMeasured > 0 ? within1h / this.postsMeasured : Number.NaN,
      freshness: 1 - this.staleMs / (subjects * (this.toMs - this.fromMs)),
      capturedShareFromStart: this.postsFromStart > 0 ? this.capturedFromStart / this.postsFromStart : Number.NaN,
      pagesPerHour: this.pages / windowHours,
      visitsPerHour: this.visits / windowHours,
      capturedShare: this.postsMeasured > 0 ? captured / this.postsMeasured : Number.NaN,
      postsPerPage: this.pages > 0 ? this.capturedInWindow / this.pages : Number.NaN,
      top1PctVisitShare: topShare(this.visitsOf, 0.01),
      staleSubjectShare: this.samples > 0 ? this.staleSum / this.samples : Number.NaN,
      overdueShare: this.overdueSamples > 0 ? this.overdueSum / this.overdueSamples : Number.NaN,
    };
  }
}

/** Share of the total held by the largest `share` of the entries. */
function topShare(counts: Uint32Array, share: number): number {
  let total = 0;
  for (const c of counts) total += c;
  if (total === 0) return Number.NaN;
  const sorted = Uint32Array.from(counts).sort();
  const k = Math.max(1, Math.round(share * counts.length));
  let top = 0;
  for (let i = sorted.length - k; i < sorted.length; i++) top += sorted[i]!;
  return top / total;
}
