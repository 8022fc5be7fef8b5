/**
 * Incremental forum threads: a board's thread list says how many replies each thread has (and
 * when the last came); a thread whose count grew is revisited from the page that holds its first
 * new post to its new last page — never from page 1 again.
 */
export interface ThreadListing {
  /** Thread key (tid, or the canonical URL of its first page). */
  key: string;
  /** Replies the list shows (posts − 1). */
  replies: number;
  lastReplyMs?: number;
}

export interface ThreadProgress {
  /** Posts indexed so far (the opening post counts). */
  postsSeen: number;
  lastReplyMs?: number;
}

/** 1-based pages of a thread to fetch: none when the list shows nothing new. */
export function pagesToFetch(progress: ThreadProgress | undefined, listing: ThreadListing, pageSize: number): number[] {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const posts = listing.replies + 1;
  const seen = progress?.postsSeen ?? 0;
  const newer = listing.lastReplyMs !== undefined && progress?.lastReplyMs !== undefined && listing.lastReplyMs > progress.lastReplyMs;
  // A count that did not grow, with no later reply time, is no change (deletions shrink counts; they are not new posts).
  if (posts <= seen && !newer) return [];
  const to = Math.max(1, Math.ceil(posts / pageSize));
  // Post seen + 1 is the first new one; with a later reply time but no more posts, the last page.
  const from = Math.min(Math.floor(seen / pageSize) + 1, to);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
