import * as cheerio from 'cheerio';
import iconv from 'iconv-lite';
import { FORUM_PAGE_SIZE } from '../../../src/simsite/pages/forum-world';
import { pagesToFetch, type ThreadProgress } from '../../../src/parsers/forum-incremental';
import type { ResultRow } from '../lib/results';
import { HOUR_MS, manualSite, truthRows } from './crawl';

interface Board { id: number; flavour: 'discuz' | 'phpbb'; encoding: string }

/**
 * Incremental forum monitoring, measured over simsite's HTTP with the planner of
 * parsers/forum-incremental (not yet through web_pages): every `stepHours` each board's thread
 * list is read (reply counts), and only the pages that hold new posts are fetched; every post
 * read is "indexed" once (by its pid, floors past what was seen). The same revisits made by
 * re-reading every thread whole are counted for comparison (revisits only: the first read is the
 * same for both; the 404 that ends a list's pages counts for both). At the end every post of the truth
 * must have been indexed exactly once.
 */
export async function forums(seed: number, o: { threadsPerBoard: number; steps: number; stepHours: number }): Promise<{ rows: ResultRow[]; exactlyOnce: number | null; reduction: number | null }> {
  const site = await manualSite(seed, { sites: { threadsPerBoard: o.threadsPerBoard } });
  const get = async (path: string, encoding: string): Promise<cheerio.CheerioAPI | null> => {
    const res = await fetch(`${site.url}${path}`, { headers: { 'x-client-id': 'bench-forum' } });
    const bytes = Buffer.from(await res.arrayBuffer());
    return res.status === 200 ? cheerio.load(encoding === 'gbk' ? iconv.decode(bytes, 'gbk') : bytes.toString('utf8')) : null;
  };
  try {
    const boards = (await (await fetch(`${site.url}/_truth/forum/boards`)).json()) as Board[];
    const progress = new Map<number, ThreadProgress>();
    const indexedTimes = new Map<number, number>();
    let incrementalRequests = 0;
    let wholeRequests = 0;
    let revisits = 0;
    for (let step = 0; step < o.steps; step++) {
      if (step > 0) site.frozen.advanceMs(o.stepHours * HOUR_MS);
      for (const b of boards) {
        // The board's thread list, every page of it: what both strategies read.
        const listing: { tid: number; replies: number }[] = [];
        for (let page = 1; ; page++) {
          const path = b.flavour === 'discuz' ? `/forum/forum-${b.id}-${page}.html` : `/phpbb/viewforum.php?f=${b.id}&start=${(page - 1) * FORUM_PAGE_SIZE}`;
          const $ = await get(path, b.encoding);
          if (step > 0) {
            incrementalRequests += 1;
            wholeRequests += 1;
          }
          if (!$) break;
          if (b.flavour === 'discuz') {
            $('tbody[id^=normalthread_]').each((_, el) => void listing.push({ tid: Number($(el).attr('id')!.split('_')[1]), replies: Number($(el).find('td.num a').text()) }));
          } else {
            $('li.row').each((_, el) => void listing.push({ tid: Number(/t=(\d+)/.exec($(el).find('a.topictitle').attr('href')!)![1]), replies: Number($(el).find('dd.posts').text().trim().split(/\s/)[0]) }));
          }
        }
        for (const t of listing) {
          if (step > 0) wholeRequests += Math.ceil((t.replies + 1) / FORUM_PAGE_SIZE);
          const known = progress.get(t.tid);
          const pages = pagesToFetch(known, { key: String(t.tid), replies: t.replies }, FORUM_PAGE_SIZE);
          let seen = known?.postsSeen ?? 0;
          for (const p of pages) {
            const path = b.flavour === 'discuz' ? `/forum/thread-${t.tid}-${p}-1.html` : `/phpbb/viewtopic.php?f=${b.id}&t=${t.tid}&start=${(p - 1) * FORUM_PAGE_SIZE}`;
            const $ = await get(path, b.encoding);
            if (step > 0) incrementalRequests += 1;
            if (!$) throw new Error(`${path}: no page`);
            const pids = b.flavour === 'discuz'
              ? $('div[id^=post_]').map((_, el) => Number($(el).attr('id')!.slice(5))).get()
              : $('div.post[id^=p]').map((_, el) => Number($(el).attr('id')!.slice(1))).get();
            for (const pid of pids) {
              const floor = pid % 1000;
              if (floor <= seen) continue;
              indexedTimes.set(pid, (indexedTimes.get(pid) ?? 0) + 1);
            }
            seen = Math.max(seen, ...pids.map((pid) => pid % 1000));
          }
          progress.set(t.tid, { postsSeen: seen });
        }
      }
      if (step > 0) revisits += 1;
    }
    const truth = await truthRows<{ pid: number }>(site, '/_truth/forum/posts');
    const once = truth.filter((p) => indexedTimes.get(p.pid) === 1).length;
    const extra = [...indexedTimes.values()].filter((n) => n > 1).length;
    const v = 'incremental-planner-http';
    return {
      rows: [
        { system: 'freshet', variant: v, metric: 'posts_truth', value: truth.length },
        { system: 'freshet', variant: v, metric: 'posts_indexed_once', value: once },
        { system: 'freshet', variant: v, metric: 'posts_indexed_more_than_once', value: extra },
        { system: 'freshet', variant: v, metric: 'revisits', value: revisits },
        { system: 'freshet', variant: v, metric: 'requests_incremental', value: incrementalRequests },
        { system: 'whole-threads', variant: v, metric: 'requests', value: wholeRequests },
      ],
      exactlyOnce: truth.length > 0 ? once / truth.length : null,
      reduction: wholeRequests > 0 ? 1 - incrementalRequests / wholeRequests : null,
    };
  } finally {
    await site.close();
  }
}
