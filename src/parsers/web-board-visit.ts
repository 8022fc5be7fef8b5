import { z } from 'zod';
import type { Job } from '../core/envelope';
import { parseHtml } from '../extractors/dom';
import { applyRuleSet, type FieldValue } from '../extractors/rules/apply';
import type { RuleSet } from '../extractors/rules/schema';
import type { Canonicalizer } from '../filters/url-canonical';
import type { Emitted, FetchedText, VisitContext, VisitOutcome } from './adapter';
import { pagesToFetch } from './forum-incremental';
import type { PageReader } from './web-page-read';

export const threadListSchema = z.strictObject({
  /**
   * The rule set whose list items are a board's threads, with fields `url` (the thread's first
   * page, `url: true`), `replies`, and optionally `page_urls` / `page_numbers` (`all: true`: the
   * page links a row shows, e.g. Discuz's `span.tps a`, phpBB's `.pagination a`).
   */
  rule_set: z.string().min(1),
  /** Posts per thread page, as the forum shows them. */
  posts_per_page: z.number().int().min(1).default(10),
  /** Pages of the thread list read per visit (the rule set's pagination): lists put the last active threads first. */
  board_pages: z.number().int().min(1).default(1),
});

export type ThreadListConfig = z.infer<typeof threadListSchema>;

/** A board's row for one thread. */
interface Row {
  url: string;
  replies: number;
  pages: Map<number, string>;
}

const first = (v: FieldValue | undefined): string | undefined => (Array.isArray(v) ? v[0] : v ?? undefined);
const list = (v: FieldValue | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);

function rowsOf(items: Record<string, FieldValue>[], canon: Canonicalizer): Row[] {
  const rows: Row[] = [];
  for (const item of items) {
    const url = first(item['url']);
    const replies = Number.parseInt((first(item['replies']) ?? '').replace(/[^\d]/g, ''), 10);
    const c = url === undefined ? undefined : canon.canonical(url);
    if (c === undefined || !Number.isFinite(replies)) continue;
    const pages = new Map<number, string>([[1, url!]]);
    const urls = list(item['page_urls']);
    const numbers = list(item['page_numbers']);
    for (let i = 0; i < urls.length; i++) {
      const n = Number.parseInt((numbers[i] ?? '').replace(/[^\d]/g, ''), 10);
      if (Number.isInteger(n) && n > 1) pages.set(n, urls[i]!);
    }
    rows.push({ url: c, replies, pages });
  }
  return rows;
}

/** Progress per thread in the board's state: `key.posts,…` (key: a 32-bit hash of the thread URL), base 36. */
const hash36 = (s: string): string => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
};

function readProgress(packed: string | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const part of (packed ?? '').split(',')) {
    const [k, n] = part.split('.');
    const posts = Number.parseInt(n ?? '', 36);
    if (k && Number.isFinite(posts)) m.set(k, posts);
  }
  return m;
}

export interface BoardScope {
  canon: Canonicalizer;
  reader: PageReader;
  threadRuleSet(url: string): RuleSet | undefined;
}

/**
 * A forum board monitored incrementally: its thread list says how many replies each thread has;
 * a thread whose count grew is read from the page holding its first new post to its new last page
 * (the row's page links, else pagination from the nearest page it lists), and only posts past
 * those seen are emitted, so each reply is indexed once. Unchanged threads cost nothing; the
 * board's own page is the only request of a quiet revisit (a 304 when the site says so).
 */
export async function* visitBoard(
  job: Job, ctx: VisitContext, scope: BoardScope, config: ThreadListConfig, boardRuleSet: RuleSet, boardPage: FetchedText, maxRequests: number,
): AsyncGenerator<Emitted, Omit<VisitOutcome, 'state'> & { progress: string; posts: number }, void> {
  const progress = readProgress(job.state.meta?.['th']);
  const next = new Map<string, number>();
  const newPostTimesMs: number[] = [];
  let requests = 0;
  let posts = 0;
  let pageLimitHit = false;
  const listed = applyRuleSet(parseHtml(boardPage.text), boardPage.url, boardRuleSet);
  const rows = rowsOf(listed.items, scope.canon);
  // Further pages of the list, as many as configured (each a request).
  let more = listed.next;
  for (let n = 1; n < config.board_pages && more !== undefined && requests + 1 < maxRequests; n++) {
    const page = await ctx.fetchText(more, 'html');
    requests += 1;
    const r = applyRuleSet(parseHtml(page.text), page.url, boardRuleSet);
    rows.push(...rowsOf(r.items, scope.canon));
    more = r.next;
  }
  for (const row of rows) {
    const key = hash36(row.url);
    if (next.has(key)) continue;
    const seen = progress.get(key);
    const plan = pagesToFetch(seen === undefined ? undefined : { postsSeen: seen }, { key, replies: row.replies }, config.posts_per_page);
    let postsSeen = seen ?? 0;
    // From the highest page the row links at or before the first planned one; pagination from there.
    let pageNo = plan.length === 0 ? 0 : Math.max(...[...row.pages.keys()].filter((n) => n <= plan[0]!));
    let url: string | undefined = plan.length === 0 ? undefined : row.pages.get(pageNo);
    const lastPlanned = plan[plan.length - 1] ?? 0;
    while (url !== undefined && pageNo <= lastPlanned) {
      if (requests + 1 >= maxRequests) {
        pageLimitHit = true;
        break;
      }
      const page = await ctx.fetchText(url, 'html');
      requests += 1;
      if (pageNo >= plan[0]!) {
        const read = await scope.reader.read(page, job.subject, job.state.lastVisitMs);
        for (const [i, doc] of read.docs.filter((d) => d.index === 'posts').entries()) {
          const floor = (pageNo - 1) * config.posts_per_page + i + 1;
          if (floor <= postsSeen) continue;
          const created = typeof doc.body['created_at'] === 'string' ? Date.parse(doc.body['created_at']) : Number.NaN;
          if (Number.isFinite(created)) newPostTimesMs.push(created);
          postsSeen = floor;
          posts += 1;
          yield { kind: 'doc', doc };
        }
        url = read.next;
      } else {
        // A page before the plan, read only for its pagination to the planned ones.
        const rs = scope.threadRuleSet(page.url);
        url = rs ? applyRuleSet(parseHtml(page.text), page.url, rs).next : undefined;
      }
      pageNo += 1;
    }
    next.set(key, postsSeen);
  }
  return {
    newPostTimesMs: newPostTimesMs.sort((a, b) => a - b),
    pageLimitHit,
    requests,
    posts,
    progress: [...next].map(([k, n]) => `${k}.${n.toString(36)}`).join(','),
  };
}
