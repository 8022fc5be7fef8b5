/**
 * The realized delay the planner calibrates against, by Little's law over the crawl's recent past.
 *
 * The delays the visits found are a sample of the posts by the time they were found. In steady
 * state that sample is unbiased, but a crawl a week or two old has not settled: the quiet subjects'
 * intervals are still lengthening and their longest delays are still running, so the posts found
 * lean to the short delays of the early schedule (bursty world, day 10: the found posts' mean read
 * 7–11 % under what the same schedule went on to give). Little's law counts them as they run: the
 * mean delay is the posts waiting, integrated over time, per post published. Over a window faded as
 * the found delays are (weight e^(−k·age), k = ln 2 / DELAY_HALF_LIFE_HOURS), a subject adds
 *  - for its found posts, each published d before the visit that found it, the part of the wait the
 *    window saw, ∫ e^(−k·age) over the wait, and the post's own weight at publication (d is the
 *    subject's mean found delay: the state keeps sums only), and
 *  - for the posts published since its last visit (expected: its post rate times the time since),
 *    the wait so far: each is counted from its publication, none waits for a visit to be counted.
 * In steady state this has the found sample's expectation (E[waiting] / rate = mean delay); early
 * on it is what the found sample would read once it caught up with the posts still waiting. A
 * subject never visited has no schedule yet: its posts are a first visit's history, left out as in
 * the found delays.
 */
import { DELAY_HALF_LIFE_HOURS, type SubjectState, delayFade } from './subject-state';

const HOUR_MS = 3_600_000;
const FADE_PER_HOUR = Math.LN2 / DELAY_HALF_LIFE_HOURS;

/** ∫₀^h e^(−k·u) du: the faded weight of `hours` of the window ending `hours` from now (× k, the fade). */
function fadedHours(hours: number): number {
  return -Math.expm1(-FADE_PER_HOUR * hours) / FADE_PER_HOUR;
}

export interface WindowDelay {
  /** Posts published in the faded window (found and expected waiting). */
  posts: number;
  /** Their waiting within the window, in post-hours. */
  waitingHours: number;
  /** The posts the visits found, faded to now as the realized delays are (planner.ts realizedDelay's count). */
  foundPosts: number;
  meanDelayHours: number;
}

/**
 * Little's law's mean delay over the faded window ending `nowMs`; `postsPerHour[i]` is subject i's
 * expected post rate (the forecast's weights), for the posts waiting now.
 */
export function windowDelay(states: readonly SubjectState[], postsPerHour: ArrayLike<number>, nowMs: number): WindowDelay {
  let posts = 0;
  let waitingHours = 0;
  let foundPosts = 0;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    if (s.lastVisitMs === null) continue;
    const sinceVisitHours = Math.max(0, nowMs - s.lastVisitMs) / HOUR_MS;
    if (s.delayPosts > 0) {
      // Faded from the visit that found them: from publication, d earlier, they weigh e^(−k·d) less.
      const found = s.delayPosts * delayFade(nowMs - s.lastVisitMs);
      foundPosts += found;
      const d = s.delayHours / s.delayPosts;
      posts += found * Math.exp(-FADE_PER_HOUR * d);
      waitingHours += found * fadedHours(d);
    }
    const rate = postsPerHour[i]!;
    if (!(rate > 0) || sinceVisitHours === 0) continue;
    // Posts at `rate` over the last a hours: published weight ∫₀^a e^(−k·u) du, waited ∫₀^a ∫₀^u e^(−k·v) dv du.
    const published = fadedHours(sinceVisitHours);
    posts += rate * published;
    waitingHours += (rate * (sinceVisitHours - published)) / FADE_PER_HOUR;
  }
  return { posts, waitingHours, foundPosts, meanDelayHours: posts > 0 ? waitingHours / posts : Number.NaN };
}
