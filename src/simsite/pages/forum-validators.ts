import { FORUM_PAGE_SIZE, type ForumThread, type ForumWorld } from './forum-world';
import type { Validators } from './validators';

/**
 * Forum pages show relative times and view counters that age on their own, so their tags are
 * weak: they say the posts shown (and the pager) are the same, which is what a crawler revisits for.
 */

/** A thread page (1-based): its posts and the number of pages; changed when a post lands on it or a page is added. */
export function threadPageValidators(forum: ForumWorld, t: ForumThread, page: number, nowMs: number): Validators | null {
  const visible = forum.visiblePostCount(t, nowMs);
  const pages = Math.max(1, Math.ceil(visible / FORUM_PAGE_SIZE));
  if (visible === 0 || page < 1 || page > pages) return null;
  const lastOnPage = Math.min(visible, page * FORUM_PAGE_SIZE);
  const firstOfLastPage = (pages - 1) * FORUM_PAGE_SIZE + 1;
  return {
    etag: `W/"t${t.tid}-p${page}-${lastOnPage}-${pages}"`,
    lastModifiedMs: Math.max(t.postTimes[lastOnPage - 1]!, t.postTimes[firstOfLastPage - 1]!),
  };
}

/** A board page: the threads listed and their reply counts. */
export function boardPageValidators(forum: ForumWorld, boardId: number, page: number, perPage: number, nowMs: number): Validators | null {
  const threads = forum.activeThreads(boardId, nowMs);
  const rows = threads.slice((page - 1) * perPage, page * perPage);
  if (page < 1 || (page > 1 && rows.length === 0)) return null;
  let h = 0x811c9dc5;
  let last = 0;
  for (const t of rows) {
    const n = forum.visiblePostCount(t, nowMs);
    h = Math.imul(h ^ t.tid, 0x01000193);
    h = Math.imul(h ^ n, 0x01000193);
    last = Math.max(last, t.postTimes[n - 1] ?? t.createdMs);
  }
  return { etag: `W/"b${boardId}-p${page}-${threads.length}-${(h >>> 0).toString(36)}"`, lastModifiedMs: last };
}
