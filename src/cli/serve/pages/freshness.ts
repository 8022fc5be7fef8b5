import type { z } from 'zod';
import type { freshness } from '../schemas';
import { esc } from './html';

type Freshness = z.infer<typeof freshness>;

const fixed = (v: number | undefined, digits: number): string => (v === undefined ? '–' : v.toFixed(digits));

/**
 * The freshness block of an overview card: the meter of `freshet status` (poisson schedules) or
 * why there is none. Rendered on the server for the page and for its 30-second refresh
 * (`/fragments/freshness`), so the figures are worded in one place.
 */
export function freshnessBlock(f: Freshness | Error): string {
  if (f instanceof Error) return `<p class="meta">freshness unavailable: ${esc(f.message)}</p>`;
  const s = f.schedule;
  const m = f.meter;
  if (!m) return `<p class="meta" data-fresh="none">${esc(f.reason ?? `schedule ${s.type}: no freshness meter`)}</p>`;
  const at = new Date(f.computedAtMs).toISOString().slice(11, 19);
  return `<p>~<b data-fresh="unindexedPosts">${m.unindexedPosts.toFixed(0)}</b> posts published, not yet indexed
 (90 %: <b data-fresh="unindexedLow">${m.unindexedLow.toFixed(0)}</b>–<b data-fresh="unindexedHigh">${m.unindexedHigh.toFixed(0)}</b>),
 <b data-fresh="unindexedMeanAgeHours">${m.unindexedMeanAgeHours.toFixed(1)}</b> h old on average${m.unvisitedSubjects > 0 ? `; <b data-fresh="unvisitedSubjects">${m.unvisitedSubjects}</b> subjects not visited yet` : ''}.</p>
<p class="meta">poisson, objective ${esc(s.objective ?? '?')}: planned ${fixed(s.plannedPagesPerHour, 1)} of ${fixed(s.budgetPerHour, 0)} fetches/hour;
 estimated ${fixed(s.estimatedPostsPerHour, 1)} new posts/hour; predicted mean delay <b data-fresh="predictedMeanDelayHours">${m.predictedMeanDelayHours.toFixed(2)}</b> h.
 Computed at ${at} UTC from every subject's state (at most every 30 s).</p>`;
}
