/**
 * The per-subject scheduling state the live crawler keeps in one Redis hash field, and how a
 * visit updates it. Pure: the caller passes the visit time (from its injected clock).
 *
 * The state keeps the evidence (posts counted, hours observed) rather than a posterior with the
 * prior baked in: the population prior is refitted as the crawl learns, and keeping the evidence
 * lets a refit apply to every subject at once, without rewriting a million records. The posterior
 * is Gamma(α0 + posts, β0 + hours) for the current prior (α0, β0); see `subjectPosterior`.
 */
import { type DiurnalSums, addPostTimes, emptyDiurnal } from './diurnal';
import { type GammaRate, gammaMeanPerHour, gammaPosterior } from './gamma-posterior';

const HOUR_MS = 3_600_000;
/** The recent evidence halves at every visit: it is mostly the last visit or two. */
export const DEFAULT_RECENT_HALF_LIFE_VISITS = 1;
/** Windows split into halves only from a day long: a burst (minutes to hours) then mostly falls in one half. */
export const SPLIT_MIN_WINDOW_HOURS = 24;
/** The realized delays fade with this half-life: the last few days' schedule, long enough for the seldom visited. */
export const DELAY_HALF_LIFE_HOURS = 72;

export interface SubjectState {
  firstSeenMs: number;
  /** null until the first visit. */
  lastVisitMs: number | null;
  /** Publication time of the newest post seen (null: none yet). */
  lastPostMs: number | null;
  /** Platform watermark (newest post id, for since_id paging); ids exceed 2^53, so a string. */
  watermark: string | null;
  postsSeen: number;
  visits: number;
  /** Rate evidence: posts counted and hours observed (both discounted when forgetting is on). */
  evidencePosts: number;
  evidenceHours: number;
  /** The same evidence forgotten within a visit or two: what the change test compares with the rest. */
  recentPosts: number;
  recentHours: number;
  /**
   * The last visit's own window (posts counted, hours): disjoint from the evidence before it, so
   * that estimates from that older evidence can be checked against it without bias (`choosePrior`).
   */
  lastPosts: number;
  lastHours: number;
  /**
   * The same evidence never forgotten: in a stationary world forgetting only throws evidence away,
   * so the model chooses between the two from the data (`chooseMemory` in evidence-memory.ts).
   */
  allPosts: number;
  allHours: number;
  /**
   * A first visit that read a whole timeline without being told where it starts: the posts it saw
   * (all of them) and the hours its counted window covers (from the oldest post, or from discovery
   * when it was empty); openHours is −1 otherwise. The model extends such windows back to the
   * population's typical visible history (`historyHours`), learned from the same visits.
   */
  openPosts: number;
  openHours: number;
  /**
   * How posts split between the two halves of each counted window of a day or more since the first visit: the sum of
   * (first half − second half)² and of the posts. Posts independent of each other at a steady rate
   * split binomially, so the sums agree; bursts land in one half, and the ratio is the counts'
   * variance over their mean (`burstDispersion` in evidence-memory.ts). Not forgotten; a level that moves
   * slowly hardly changes within one window, so drift and regimes do not inflate it.
   */
  splitSquares: number;
  splitPosts: number;
  /**
   * The crawl's own realized delays: posts found by visits after the first (new or filling a gap)
   * and the sum of their publication-to-visit delays in hours, both fading with
   * DELAY_HALF_LIFE_HOURS from the last visit. The planner checks its forecast against them.
   */
  delayPosts: number;
  delayHours: number;
  /** Time-of-day sums, when the time-of-day option is on. */
  diurnal: DiurnalSums | null;
}

export interface VisitResult {
  atMs: number;
  /** Publication times of the posts this visit saw that were new since the last visit. */
  postTimesMs: ArrayLike<number>;
  /**
   * The visit stopped at its page limit before reaching the watermark (or, on a first visit, before
   * the start of the history): posts older than the oldest one seen were not seen.
   */
  pageLimitHit: boolean;
  /** Newest post id seen, when the visit saw any. */
  watermark?: string;
  /** First visit only: where the visible history starts (account creation), when the profile says. */
  historyStartMs?: number;
}

export interface ObserveOptions {
  /** Forget evidence with this half-life (Infinity: never). */
  halfLifeHours?: number;
  /** Half-life of the recent evidence, in visits (default 1: the last visit or two). */
  recentHalfLifeVisits?: number;
  /** Keep the time-of-day sums. */
  timeOfDay?: boolean;
}

export function newSubjectState(firstSeenMs: number, opts: ObserveOptions = {}): SubjectState {
  return {
    firstSeenMs, lastVisitMs: null, lastPostMs: null, watermark: null, postsSeen: 0, visits: 0,
    evidencePosts: 0, evidenceHours: 0, recentPosts: 0, recentHours: 0, lastPosts: 0, lastHours: 0, splitSquares: 0, splitPosts: 0,
    allPosts: 0, allHours: 0, openPosts: 0, openHours: -1, delayPosts: 0, delayHours: 0, diurnal: opts.timeOfDay ? emptyDiurnal() : null,
  };
}

/**
 * The evidence one visit gives about the rate: posts counted over a window observed completely.
 *
 * - A later visit that read back to the watermark saw every post of (last visit, now].
 * - A first visit told where the history starts (and not cut short) saw all of (history start, now].
 * - Otherwise, when the page limit cut the visit short, the window is the span the posts cover,
 *   (oldest seen, now]: whatever came before the oldest post is hidden. Reading stopped at the n-th
 *   newest post, so the likelihood is λ^n e^{−λ·span}: n posts over the span are the Gamma update
 *   (pooled over visits, Σn/Σspan is consistent; n − 1 would bias it low by a post per window).
 *   Counting from the discovery time instead (as before) read a full first page of 10 posts
 *   spanning 73 h as 9 posts in the minutes since discovery: the collapse of issue 21.
 * - Posts older than the previous visit (a gap left by an earlier cut-off, filled now) belong to a
 *   window already accounted for as unseen: they are indexed but not counted. The adapter fills a
 *   gap only once the new posts are all read, so a visit that read gap posts saw its window whole.
 */
export function visitEvidence(state: SubjectState, visit: VisitResult): { windowStartMs: number; posts: number } {
  const times = visit.postTimesMs;
  const after = state.lastVisitMs ?? Number.NEGATIVE_INFINITY;
  let fresh = 0;
  let gapPosts = 0;
  let oldest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t <= after) gapPosts += 1;
    if (!(t > after && t <= visit.atMs)) continue;
    fresh += 1;
    if (t < oldest) oldest = t;
  }
  if (state.lastVisitMs !== null) {
    // The adapter fills an old gap only after reading every new post: then the limit cut the gap, not the new posts.
    if (visit.pageLimitHit && fresh > 0 && gapPosts === 0) return { windowStartMs: Math.max(state.lastVisitMs, oldest), posts: fresh };
    return { windowStartMs: state.lastVisitMs, posts: fresh };
  }
  if (!visit.pageLimitHit && visit.historyStartMs !== undefined) return { windowStartMs: Math.min(visit.historyStartMs, oldest), posts: fresh };
  if (visit.pageLimitHit && fresh > 0) return { windowStartMs: oldest, posts: fresh };
  // The whole history fits, but where it starts is unknown: it starts some way before the oldest
  // post (about one post's gap on average), so that post is left out rather than the gap counted empty.
  if (fresh > 0) return { windowStartMs: oldest, posts: fresh - 1 };
  // Nothing at all: the history is empty since at least its start (or the discovery, when unknown).
  return { windowStartMs: Math.min(visit.historyStartMs ?? state.firstSeenMs, visit.atMs), posts: 0 };
}

/** Folds one visit into the state; see `visitEvidence` for the window it counts. */
export function observe(state: SubjectState, visit: VisitResult, opts: ObserveOptions = {}): SubjectState {
  const times = visit.postTimesMs;
  let newest = state.lastPostMs;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (newest === null || t > newest) newest = t;
  }
  const { windowStartMs, posts: counted } = visitEvidence(state, visit);
  const exposureHours = Math.max(0, (visit.atMs - windowStartMs) / HOUR_MS);
  const halfLife = opts.halfLifeHours ?? Number.POSITIVE_INFINITY;
  const keep = Number.isFinite(halfLife) ? Math.pow(2, -exposureHours / halfLife) : 1;
  const keepRecent = Math.pow(2, -1 / (opts.recentHalfLifeVisits ?? DEFAULT_RECENT_HALF_LIFE_VISITS));
  const wantDiurnal = opts.timeOfDay ?? state.diurnal !== null;
  const open = state.lastVisitMs === null && !visit.pageLimitHit && visit.historyStartMs === undefined;
  let split = 0;
  const splits = state.lastVisitMs !== null && exposureHours >= SPLIT_MIN_WINDOW_HOURS;
  if (splits && counted > 0) {
    const mid = (windowStartMs + visit.atMs) / 2;
    const after = state.lastVisitMs ?? Number.NEGATIVE_INFINITY;
    for (let i = 0; i < times.length; i++) {
      const t = times[i]!;
      if (t > after && t >= windowStartMs && t <= visit.atMs) split += t <= mid ? 1 : -1;
    }
  }
  const delays = realizedDelays(state, visit);
  return {
    firstSeenMs: state.firstSeenMs,
    lastVisitMs: visit.atMs,
    lastPostMs: newest,
    watermark: visit.watermark ?? state.watermark,
    postsSeen: state.postsSeen + times.length,
    visits: state.visits + 1,
    evidencePosts: state.evidencePosts * keep + counted,
    evidenceHours: state.evidenceHours * keep + exposureHours,
    recentPosts: state.recentPosts * keepRecent + counted,
    recentHours: state.recentHours * keepRecent + exposureHours,
    lastPosts: counted,
    lastHours: exposureHours,
    allPosts: state.allPosts + counted,
    allHours: state.allHours + exposureHours,
    openPosts: open ? times.length : state.openPosts,
    openHours: open ? exposureHours : state.openHours,
    splitSquares: state.splitSquares + split * split,
    splitPosts: state.splitPosts + (splits ? counted : 0),
    delayPosts: delays.posts,
    delayHours: delays.hours,
    diurnal: wantDiurnal ? addPostTimes(state.diurnal ?? emptyDiurnal(), times, keep) : null,
  };
}

/** What is left of realized delays `elapsedMs` old (DELAY_HALF_LIFE_HOURS). */
export function delayFade(elapsedMs: number): number {
  return Math.pow(2, -Math.max(0, elapsedMs) / HOUR_MS / DELAY_HALF_LIFE_HOURS);
}

/** The faded delay sums after this visit; a first visit's history is not the schedule's doing and is left out. */
function realizedDelays(state: SubjectState, visit: VisitResult): { posts: number; hours: number } {
  if (state.lastVisitMs === null) return { posts: state.delayPosts, hours: state.delayHours };
  const keep = delayFade(visit.atMs - state.lastVisitMs);
  let posts = state.delayPosts * keep;
  let hours = state.delayHours * keep;
  const times = visit.postTimesMs;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t > visit.atMs) continue;
    posts += 1;
    hours += (visit.atMs - t) / HOUR_MS;
  }
  return { posts, hours };
}

export function subjectPosterior(state: SubjectState, prior: GammaRate): GammaRate {
  return gammaPosterior(prior, { posts: state.evidencePosts, exposureHours: state.evidenceHours });
}

/** Posterior mean rate: the right plug-in for the delay objective, which is linear in λ. */
export function estimatedRatePerHour(state: SubjectState, prior: GammaRate): number {
  return gammaMeanPerHour(subjectPosterior(state, prior));
}

const FORMAT_VERSION = 6;

/**
 * Packs the state into a short JSON array (one Redis hash field, ~80–150 bytes): positional, so no
 * key names are repeated a million times; versioned, so the layout can change.
 */
export function serializeState(s: SubjectState): string {
  const d = s.diurnal;
  const r = (x: number): number => Math.round(x * 1e6) / 1e6;
  const row: (number | string | null)[] = [
    FORMAT_VERSION, s.firstSeenMs, s.lastVisitMs, s.lastPostMs, s.watermark, s.postsSeen, s.visits,
    r(s.evidencePosts), r(s.evidenceHours), r(s.recentPosts), r(s.recentHours), r(s.lastPosts), r(s.lastHours),
    r(s.allPosts), r(s.allHours), r(s.openPosts), r(s.openHours), r(s.splitSquares), r(s.splitPosts), r(s.delayPosts), r(s.delayHours),
  ];
  if (d) row.push(r(d.n), r(d.cos), r(d.sin));
  return JSON.stringify(row);
}

export function parseState(text: string): SubjectState {
  const row: unknown = JSON.parse(text);
  // v1 had no recent evidence (fields 9 and 10), v2 no last window (fields 11 and 12): they read as
  // none; before v4 there was no unforgotten evidence (13, 14: the forgetting one stands in) nor open first window (15, 16),
  // before v5 no window splits (17, 18: none seen), before v6 no realized delays (19, 20: none seen).
  const version = Array.isArray(row) ? row[0] : undefined;
  const lengths: Record<number, [number, number]> = { 1: [9, 12], 2: [11, 14], 3: [13, 16], 4: [17, 20], 5: [19, 22], 6: [21, 24] };
  const expected = typeof version === 'number' ? lengths[version] : undefined;
  if (!Array.isArray(row) || !expected || !expected.includes(row.length)) {
    throw new Error(`not a v1–v${FORMAT_VERSION} subject state: ${text.slice(0, 80)}`);
  }
  const v1 = version === 1;
  const d = expected[0];
  const num = (i: number): number => {
    const v: unknown = row[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`subject state field ${i} is not a number: ${text.slice(0, 80)}`);
    return v;
  };
  const numOrNull = (i: number): number | null => (row[i] === null ? null : num(i));
  const wm: unknown = row[4];
  if (wm !== null && typeof wm !== 'string') throw new Error(`subject state watermark is not a string: ${text.slice(0, 80)}`);
  return {
    firstSeenMs: num(1), lastVisitMs: numOrNull(2), lastPostMs: numOrNull(3), watermark: wm,
    postsSeen: num(5), visits: num(6), evidencePosts: num(7), evidenceHours: num(8),
    recentPosts: v1 ? 0 : num(9), recentHours: v1 ? 0 : num(10),
    lastPosts: version >= 3 ? num(11) : 0, lastHours: version >= 3 ? num(12) : 0,
    allPosts: version >= 4 ? num(13) : num(7), allHours: version >= 4 ? num(14) : num(8),
    openPosts: version >= 4 ? num(15) : 0, openHours: version >= 4 ? num(16) : -1,
    splitSquares: version >= 5 ? num(17) : 0, splitPosts: version >= 5 ? num(18) : 0,
    delayPosts: version >= 6 ? num(19) : 0, delayHours: version >= 6 ? num(20) : 0,
    diurnal: row.length === d + 3 ? { n: num(d), cos: num(d + 1), sin: num(d + 2) } : null,
  };
}
