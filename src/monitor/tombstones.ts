/**
 * Tombstones without false positives. A post that was indexed is "missing" only when a timeline
 * read that certainly covered its place did not show it; then, and only then, the single-post
 * endpoint is asked, and only an answer that names a reason makes a tombstone (classification:
 * parsers/weibo/single-post.ts). Pure: the caller gives what the visit read and what the index
 * holds, and applies the updates this returns.
 *
 * What a read covers: the id range from its first page (the top of the list, or the cursor it
 * started from) down to the oldest regular post of the last page it read in full, and to the very
 * end when the list ended there. Pinned posts stand outside the order and never widen the range.
 * Pages that failed, were cut short or were never read (page limit, quota pause, soft block)
 * cover nothing. With `page=` numbers (unstable while posts come and go) only the inside of each
 * page counts: a post between two pages may have moved across the boundary.
 */

export type PostStatus = 'active' | 'deleted' | 'removed' | 'restricted' | 'account_gone';

export interface ReadPage {
  /** Post ids in the order shown, pinned ones included. */
  ids: string[];
  /** Those of `ids` that are pinned (shown first on page 1 whatever their age). */
  pinnedIds?: string[];
  /** When the page was received. */
  fetchedAtMs: number;
}

export type StopReason =
  /** The site said the list ended (`ok:0` past the last page, no cursor): everything below is covered. */
  | 'end_of_list'
  /** Reading reached an already known post (the watermark). */
  | 'known_post'
  /** The visit's page budget ran out: what lies below was not read. */
  | 'page_limit'
  /** A request failed, was refused or soft-blocked, or a quota paused the visit. */
  | 'interrupted';

export interface TimelineRead {
  /** Pages parsed in full, in reading order. A page that failed or was cut short is not listed. */
  pages: ReadPage[];
  stop: StopReason;
  /** Where reading started: the top of the list, or a `since_id` cursor (inclusive upper bound). */
  from: { top: true } | { sinceId: string };
  /** `since_id` cursors are stable; `page` numbers shift as posts are added or removed. */
  cursor: 'since_id' | 'page';
  /** When the read ended (the last answer, an end-of-list one included). */
  endedAtMs: number;
}

export interface IndexedPost {
  id: string;
  status: PostStatus;
  /** Last time a read showed it. */
  lastSeenAtMs?: number;
  /** When a covering read first missed it (kept across visits until it is confirmed or seen again). */
  firstMissingAtMs?: number;
  /** Consecutive unexplained `not_found` answers of the single-post check. */
  notFoundCount?: number;
  /** Publication time, when known (how long a gone post lived). */
  createdAtMs?: number;
}

export interface Candidate {
  id: string;
  lastSeenAtMs: number | undefined;
  /** The earliest covering read that missed it (this one, or an earlier one still unresolved). */
  firstMissingAtMs: number;
}

export interface MissingReport {
  /** Posts to confirm with the single-post endpoint, at most `maxChecks`, oldest miss first. */
  toConfirm: Candidate[];
  /** Missing as well, but over this visit's check budget: their first miss is kept for next time. */
  deferred: Candidate[];
  /** Tombstoned posts a read shows again (restored or un-restricted): back to active. */
  reappeared: string[];
  /** Active posts seen: their last_seen_at moves to the read time. */
  seen: { id: string; atMs: number }[];
  /** The id spans the read covered ([low, high], inclusive; a null bound is open). */
  covered: Span[];
}

/** Compares decimal id strings numerically (ids exceed 2^53). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Span {
  low: string | null;
  high: string | null;
}

const inSpan = (id: string, s: Span): boolean => (s.low === null || compareIds(id, s.low) >= 0) && (s.high === null || compareIds(id, s.high) <= 0);

/**
 * The spans of ids a read covers. A pinned post is left out of every bound; a page without any
 * regular post covers nothing of its own.
 */
export function coveredSpans(read: TimelineRead): Span[] {
  const regular = read.pages.map((p) => {
    const pinned = new Set(p.pinnedIds ?? []);
    return p.ids.filter((id) => !pinned.has(id));
  });
  if (read.pages.length === 0) {
    // Nothing read: only an empty list from the top covers anything (the whole list is empty).
    return read.stop === 'end_of_list' && 'top' in read.from ? [{ low: null, high: null }] : [];
  }
  const top = 'top' in read.from ? null : read.from.sinceId;
  const endsHere = read.stop === 'end_of_list';
  if (read.cursor === 'since_id') {
    let low: string | null = null;
    for (const ids of regular) for (const id of ids) if (low === null || compareIds(id, low) < 0) low = id;
    if (low === null) return endsHere ? [{ low: null, high: top }] : [];
    return [{ low: endsHere ? null : low, high: top }];
  }
  // Page numbers: each page covers its own inside; the first page also reaches the top, the last
  // one (when the list ended) the bottom. Between pages nothing is certain.
  const spans: Span[] = [];
  regular.forEach((ids, i) => {
    if (ids.length === 0) return;
    let low = ids[0]!;
    let high = ids[0]!;
    for (const id of ids) {
      if (compareIds(id, low) < 0) low = id;
      if (compareIds(id, high) > 0) high = id;
    }
    spans.push({ low: endsHere && i === regular.length - 1 ? null : low, high: i === 0 ? top : high });
  });
  return spans;
}

export interface DecideOptions {
  /** Single-post checks this visit may spend. */
  maxChecks: number;
}

/**
 * When the read showed a post's place without it: the time of the first page whose range reaches
 * the id (the earliest moment the post is known to be absent), else the end of the read.
 */
function missedAtMs(read: TimelineRead, id: string): number {
  let low: string | null = null;
  for (const p of read.pages) {
    const pinned = new Set(p.pinnedIds ?? []);
    for (const x of p.ids) if (!pinned.has(x) && (low === null || compareIds(x, low) < 0)) low = x;
    if (low !== null && compareIds(id, low) >= 0) return p.fetchedAtMs;
  }
  return read.endedAtMs;
}

/** Which indexed posts a read shows as missing, which reappeared, and which were seen. */
export function findMissing(read: TimelineRead, indexed: readonly IndexedPost[], opts: DecideOptions): MissingReport {
  const shownAt = new Map<string, number>();
  for (const p of read.pages) for (const id of p.ids) if (!shownAt.has(id)) shownAt.set(id, p.fetchedAtMs);
  const spans = coveredSpans(read);
  const candidates: Candidate[] = [];
  const reappeared: string[] = [];
  const seen: { id: string; atMs: number }[] = [];
  for (const post of indexed) {
    const at = shownAt.get(post.id);
    if (at !== undefined) {
      if (post.status === 'active') seen.push({ id: post.id, atMs: at });
      else reappeared.push(post.id);
      continue;
    }
    if (post.status !== 'active' || !spans.some((s) => inSpan(post.id, s))) continue;
    candidates.push({ id: post.id, lastSeenAtMs: post.lastSeenAtMs, firstMissingAtMs: Math.min(post.firstMissingAtMs ?? Infinity, missedAtMs(read, post.id)) });
  }
  candidates.sort((a, b) => a.firstMissingAtMs - b.firstMissingAtMs || compareIds(a.id, b.id));
  return { toConfirm: candidates.slice(0, opts.maxChecks), deferred: candidates.slice(opts.maxChecks), reappeared, seen, covered: spans };
}

/** What the single-post check answered (see parsers/weibo/single-post.ts). */
export type Verdict =
  | { kind: 'active' }
  | { kind: 'gone'; status: Exclude<PostStatus, 'active'> }
  | { kind: 'not_found' }
  | { kind: 'transient' };

export interface TombstoneUpdate {
  id: string;
  status: Exclude<PostStatus, 'active'>;
  last_seen_at_ms: number | undefined;
  first_missing_at_ms: number;
  checked_at_ms: number;
}

/** What to store about a candidate after its check: a tombstone, a kept miss, or nothing. */
export type Resolution =
  | { kind: 'tombstone'; update: TombstoneUpdate }
  /** Still unresolved: keep firstMissingAtMs (and the not-found count) for the next visit. */
  | { kind: 'keep_missing'; firstMissingAtMs: number; notFoundCount: number }
  /** The post exists: forget the miss (it left the timeline for another reason, or the read was wrong). */
  | { kind: 'clear' };

export interface ResolveOptions {
  /** Unexplained `ok:0` answers in a row that make a post count as deleted (default 3). */
  notFoundConfirmations?: number;
}

/**
 * Turns a check into what to store. Only a named reason, or the same unexplained "not found" on
 * several visits in a row, makes a tombstone; a transient answer keeps the miss as it was.
 */
export function resolve(c: Candidate, verdict: Verdict, checkedAtMs: number, prior: Pick<IndexedPost, 'notFoundCount'> = {}, opts: ResolveOptions = {}): Resolution {
  const needed = opts.notFoundConfirmations ?? 3;
  const tomb = (status: Exclude<PostStatus, 'active'>): Resolution => ({
    kind: 'tombstone',
    update: { id: c.id, status, last_seen_at_ms: c.lastSeenAtMs, first_missing_at_ms: c.firstMissingAtMs, checked_at_ms: checkedAtMs },
  });
  switch (verdict.kind) {
    case 'gone':
      return tomb(verdict.status);
    case 'active':
      return { kind: 'clear' };
    case 'not_found': {
      const n = (prior.notFoundCount ?? 0) + 1;
      return n >= needed ? tomb('deleted') : { kind: 'keep_missing', firstMissingAtMs: c.firstMissingAtMs, notFoundCount: n };
    }
    case 'transient':
      return { kind: 'keep_missing', firstMissingAtMs: c.firstMissingAtMs, notFoundCount: prior.notFoundCount ?? 0 };
  }
}
