/**
 * Which of a subject's evidence the rate estimates read, chosen from the data at each prior refit.
 *
 * Memory. Forgetting (a half-life) follows rates that drift, and in a stationary world only
 * throws evidence away (−2.5 to −3 % of mean delay on issue 21's stationary worlds). The state
 * keeps both the forgetting evidence and the whole of it; the model uses whichever predicts the
 * subjects' last visits better: each last window (k posts over t hours) is scored by its
 * predictive probability given the evidence before it (a negative binomial under the population
 * prior), summed over subjects. This is a likelihood over many subjects, not a delay score, so
 * bursts (which inflate single windows) do not tilt it one way.
 *
 * History. A first visit that read a whole timeline, where the platform does not say when the
 * history starts, counts only from its oldest post (or from discovery when it was empty): an
 * empty timeline says nothing, and the quiet fifth of a population looks as busy as the prior's
 * mean until it has been watched for weeks. But how far back visible histories go is a property
 * of the platform and population that the same visits reveal: a history of k posts over H hours
 * has its oldest post at H·k/(k + 1) on average, so each non-empty whole timeline estimates H
 * by (age of its oldest post)·(k + 1)/k, and the median of those is the typical visible history.
 * With full memory, every such first window is extended back to it (the oldest post counted
 * again, since its window now starts before it). An account younger than that is taken for
 * quieter than it is until its posts say otherwise, which the change test and the floors bound.
 */
import { type RatePrior, logPredictive } from './rate-model';
import type { SubjectState } from './subject-state';

export interface Memory {
  /** Read the unforgotten evidence (with first windows extended) rather than the forgetting one. */
  full: boolean;
  /** The typical visible history of a whole first timeline (0: not known yet). */
  historyHours: number;
  /** The forgetting evidence's half-life: an extended first window is forgotten as its age says. */
  halfLifeHours?: number;
  /**
   * Posts per independent event (the counts' variance over their mean; 1 or absent: Poisson). Where
   * posts come in bursts, k posts are worth about k/φ independent events: evidence is read as
   * (posts/φ, hours/φ), the quasi-likelihood of an over-dispersed Poisson, which keeps each
   * subject's observed rate but lets the prior weigh more (subject-state.ts `burstPosts`).
   */
  dispersion?: number;
}

/** What the estimates read of a subject: posts and hours, long and recent. */
export interface SubjectEvidence {
  posts: number;
  hours: number;
  recentPosts: number;
  recentHours: number;
}

/** Whole first timelines needed before their median says anything. */
const MIN_HISTORIES = 10;

export function subjectEvidence(s: SubjectState, memory: Memory | undefined): SubjectEvidence {
  const e = poissonEvidence(s, memory);
  const d = memory?.dispersion ?? 1;
  return d === 1 ? e : { posts: e.posts / d, hours: e.hours / d, recentPosts: e.recentPosts / d, recentHours: e.recentHours / d };
}

function poissonEvidence(s: SubjectState, memory: Memory | undefined): SubjectEvidence {
  const extend = memory !== undefined && s.openHours >= 0 && memory.historyHours > s.openHours;
  if (!memory?.full) {
    if (!extend || !(memory?.halfLifeHours) || s.lastVisitMs === null) return { posts: s.evidencePosts, hours: s.evidenceHours, recentPosts: s.recentPosts, recentHours: s.recentHours };
    // Forgotten as evidence that old would be: its midpoint's age at the last visit, taking the
    // first visit for soon after discovery (it is due at once).
    const ext = memory.historyHours - s.openHours;
    const ageHours = (s.lastVisitMs - s.firstSeenMs) / 3_600_000 + (s.openPosts > 0 ? s.openHours : 0) + ext / 2;
    const keep = Math.pow(2, -ageHours / memory.halfLifeHours);
    return { posts: s.evidencePosts + (s.openPosts > 0 ? keep : 0), hours: s.evidenceHours + ext * keep, recentPosts: s.recentPosts, recentHours: s.recentHours };
  }
  return {
    posts: s.allPosts + (extend && s.openPosts > 0 ? 1 : 0),
    hours: s.allHours + (extend ? memory.historyHours - s.openHours : 0),
    recentPosts: s.recentPosts, recentHours: s.recentHours,
  };
}

/** The median visible history of the whole first timelines that had posts, in hours (0 below ten of them). */
export function typicalHistoryHours(states: readonly SubjectState[]): number {
  const spans: number[] = [];
  for (const s of states) {
    if (s.openHours >= 0 && s.openPosts >= 1) spans.push((s.openHours * (s.openPosts + 1)) / s.openPosts);
  }
  if (spans.length < MIN_HISTORIES) return 0;
  spans.sort((a, b) => a - b);
  const mid = spans.length >> 1;
  return spans.length % 2 ? spans[mid]! : (spans[mid - 1]! + spans[mid]!) / 2;
}

/**
 * Summed log predictive probability of each subject's last window under `a` minus under `b`,
 * each given the evidence before that window, and the subjects scored.
 */
export function memoryScore(states: readonly SubjectState[], prior: RatePrior, a: Memory, b: Memory): { diff: number; subjects: number } {
  let diff = 0;
  let subjects = 0;
  for (const s of states) {
    const d = a.dispersion ?? 1;
    const k = s.lastPosts / d;
    const t = s.lastHours / d;
    if (s.visits < 2 || !(t > 0)) continue;
    const ea = subjectEvidence(s, a);
    const eb = subjectEvidence(s, b);
    const ha = ea.hours - t;
    const hb = eb.hours - t;
    if (!(ha > 0) || !(hb > 0)) continue;
    diff += logPredictive(prior, Math.max(0, ea.posts - k), ha, k, t) - logPredictive(prior, Math.max(0, eb.posts - k), hb, k, t);
    subjects += 1;
  }
  return { diff, subjects };
}

export type Forgetting = 'auto' | 'always' | 'never';

/** Posts split between window halves before the ratio says anything. */
const MIN_SPLIT_POSTS = 200;

/**
 * Posts per independent event, from how the posts of every day-long or longer window split between
 * its halves (subject-state.ts `splitSquares`). Binomially, (k₁ − k₂)² has mean k, so Σ(k₁ − k₂)² /
 * Σ k is 1 for independent posts at a steady rate and E[S²]/E[S] for clusters of S posts shorter
 * than half a window. The evidence is worth one event per cluster, E[S] posts, and for the clusters
 * of a self-exciting process (each post triggering Poisson(m) more: S is Borel, E[S] = 1/(1 − m),
 * E[S²]/E[S] = 1/(1 − m)²) that is the ratio's square root. 1 until enough posts have been seen,
 * and never below it.
 */
export function burstDispersion(states: readonly SubjectState[]): number {
  let squares = 0;
  let posts = 0;
  for (const s of states) {
    squares += s.splitSquares;
    posts += s.splitPosts;
  }
  return posts >= MIN_SPLIT_POSTS ? Math.sqrt(Math.max(1, squares / posts)) : 1;
}

/** The memory for the next model: fixed by `forgetting`, or (auto) the one whose last windows are more probable. */
export function chooseMemory(states: readonly SubjectState[], prior: RatePrior, forgetting: Forgetting, halfLifeHours: number, dispersion = 1): Memory {
  const historyHours = typicalHistoryHours(states);
  if (forgetting !== 'auto') return { full: forgetting === 'never', historyHours, halfLifeHours, dispersion };
  const full: Memory = { full: true, historyHours, halfLifeHours, dispersion };
  const { diff } = memoryScore(states, prior, full, { full: false, historyHours, halfLifeHours, dispersion });
  return { full: diff > 0, historyHours, halfLifeHours, dispersion };
}
