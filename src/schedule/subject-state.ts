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
  /** Keep the time-of-day sums. */
  timeOfDay?: boolean;
}

export function newSubjectState(firstSeenMs: number, opts: ObserveOptions = {}): SubjectState {
  return {
    firstSeenMs, lastVisitMs: null, lastPostMs: null, watermark: null, postsSeen: 0, visits: 0,
    evidencePosts: 0, evidenceHours: 0, diurnal: opts.timeOfDay ? emptyDiurnal() : null,
  };
}

/**
 * Folds one visit into the state. The window the visit observed completely is (start, atMs], with
 * start the previous visit (or the start of the history on a first visit). When the page limit cut
 * the visit short, only (oldest seen, atMs] was observed completely: counting the posts after the
 * oldest one over that span keeps the estimate unbiased (the oldest post only marks where the
 * window starts, and the unseen gap before it is left out rather than counted as empty).
 */
export function observe(state: SubjectState, visit: VisitResult, opts: ObserveOptions = {}): SubjectState {
  const times = visit.postTimesMs;
  let newest = state.lastPostMs;
  let oldest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (newest === null || t > newest) newest = t;
    if (t < oldest) oldest = t;
  }
  let windowStartMs = state.lastVisitMs ?? visit.historyStartMs ?? state.firstSeenMs;
  let counted = times.length;
  if (visit.pageLimitHit && times.length > 0) {
    windowStartMs = Math.max(windowStartMs, oldest);
    counted = times.length - 1;
  } else if (state.lastVisitMs === null && visit.historyStartMs === undefined && times.length > 0) {
    // A first visit that does not know where the history starts: it starts at the oldest post.
    windowStartMs = Math.min(windowStartMs, oldest);
    counted = times.length - 1;
  }
  const exposureHours = Math.max(0, (visit.atMs - windowStartMs) / HOUR_MS);
  const halfLife = opts.halfLifeHours ?? Number.POSITIVE_INFINITY;
  const keep = Number.isFinite(halfLife) ? Math.pow(2, -exposureHours / halfLife) : 1;
  const wantDiurnal = opts.timeOfDay ?? state.diurnal !== null;
  return {
    firstSeenMs: state.firstSeenMs,
    lastVisitMs: visit.atMs,
    lastPostMs: newest,
    watermark: visit.watermark ?? state.watermark,
    postsSeen: state.postsSeen + times.length,
    visits: state.visits + 1,
    evidencePosts: state.evidencePosts * keep + counted,
    evidenceHours: state.evidenceHours * keep + exposureHours,
    diurnal: wantDiurnal ? addPostTimes(state.diurnal ?? emptyDiurnal(), times, keep) : null,
  };
}

export function subjectPosterior(state: SubjectState, prior: GammaRate): GammaRate {
  return gammaPosterior(prior, { posts: state.evidencePosts, exposureHours: state.evidenceHours });
}

/** Posterior mean rate: the right plug-in for the delay objective, which is linear in λ. */
export function estimatedRatePerHour(state: SubjectState, prior: GammaRate): number {
  return gammaMeanPerHour(subjectPosterior(state, prior));
}

const FORMAT_VERSION = 1;

/**
 * Packs the state into a short JSON array (one Redis hash field, ~60–90 bytes): positional, so no
 * key names are repeated a million times; versioned, so the layout can change.
 */
export function serializeState(s: SubjectState): string {
  const d = s.diurnal;
  const r = (x: number): number => Math.round(x * 1e6) / 1e6;
  const row: (number | string | null)[] = [
    FORMAT_VERSION, s.firstSeenMs, s.lastVisitMs, s.lastPostMs, s.watermark, s.postsSeen, s.visits,
    r(s.evidencePosts), r(s.evidenceHours),
  ];
  if (d) row.push(r(d.n), r(d.cos), r(d.sin));
  return JSON.stringify(row);
}

export function parseState(text: string): SubjectState {
  const row: unknown = JSON.parse(text);
  if (!Array.isArray(row) || row[0] !== FORMAT_VERSION || (row.length !== 9 && row.length !== 12)) {
    throw new Error(`not a v${FORMAT_VERSION} subject state: ${text.slice(0, 80)}`);
  }
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
    diurnal: row.length === 12 ? { n: num(9), cos: num(10), sin: num(11) } : null,
  };
}
