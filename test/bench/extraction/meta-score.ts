/**
 * How the benchmark judges the metadata fields against WCXB's `publish_date` / `author` truth.
 *
 * - published_at is right when the calendar day the page states (the date part of freshet's ISO
 *   string, which keeps the page's own offset) equals the truth's day (a truth of a month only,
 *   `2024-03`, needs that month).
 * - author is right when the first person named in each agrees, ignoring case, accents,
 *   punctuation, a title (Dr., Prof.) and what follows the name (", MS, RD", "(CNXSoft)").
 */
export function dateRight(pred: string | undefined, truth: string): boolean {
  if (!pred) return false;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(pred)?.[1];
  return day !== undefined && day.startsWith(truth.slice(0, 10));
}

/** The first person of an author string, normalised for comparison. */
export function firstAuthorKey(s: string): string {
  const first = s.replace(/\([^)]*\)/g, ' ').split(/\s*(?:[,;&|/]|\band\b|\bund\b|\bet\b|\by\b)\s*/i)[0] ?? '';
  return first.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/^(?:by|von|par|por)\s+/, '')
    .replace(/^(?:dr|prof|mr|mrs|ms|miss)\.?\s+/, '')
    .replace(/[^\p{L}\p{N}@]+/gu, ' ').trim();
}

export function authorRight(pred: string | undefined, truth: string): boolean {
  if (!pred) return false;
  const a = firstAuthorKey(pred);
  return a.length > 0 && a === firstAuthorKey(truth);
}
