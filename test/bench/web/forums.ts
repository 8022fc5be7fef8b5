import { forumRuleSets } from '../../../src/extractors/rules/forums';
import { forumBoardRuleSets } from '../../../src/parsers/forum-boards';
import { pipelineSchema } from '../../../src/pipeline/schema';
import type { ResultRow } from '../lib/results';
import { crawl, HOUR_MS, manualSite, truthRows, words, type Services } from './crawl';

interface Board { id: number; flavour: 'discuz' | 'phpbb' }
interface ThreadRow { boardId: number; pages: number }

/**
 * Forum boards monitored with web_pages `thread_lists` (Discuz and phpBB, UTF-8 and GBK): every
 * `stepHours` each board's thread list is read and only the pages holding new posts are fetched.
 * Measured: every post of the truth indexed exactly once (one document, written once), and the
 * requests of the revisits against re-reading every listed thread whole (with the list pages).
 */
export async function forums(svc: Services, seed: number, o: { threadsPerBoard: number; steps: number; stepHours: number }): Promise<{ rows: ResultRow[]; exactlyOnce: number | null; reduction: number | null }> {
  const site = await manualSite(seed, { sites: { threadsPerBoard: o.threadsPerBoard, news: { validators: true } } });
  const c = crawl(svc, 'forums', site.frozen);
  try {
    const boards = await truthRows<Board>(site, '/_truth/forum/boards');
    const seeds = boards.map((b) => `web:page:${site.url}${b.flavour === 'discuz' ? `/forum/forum-${b.id}-1.html` : `/phpbb/viewforum.php?f=${b.id}`}`);
    const config = pipelineSchema.parse({
      name: 'bench-web-forums', seeds,
      source: { type: 'redis_frontier', max_in_flight: 16, poll_interval_ms: 20 },
      fetch: { type: 'http_fetch', allow_private_networks: true, respect_robots: false },
      parse: {
        type: 'web_pages', max_pages_per_visit: 1000, rules: [...forumBoardRuleSets(), ...forumRuleSets()],
        thread_lists: [{ rule_set: 'discuz-board', board_pages: 20 }, { rule_set: 'phpbb-board', board_pages: 20 }],
      },
      sink: { type: 'elasticsearch', replicas: 0, flush_interval_ms: 100 },
      schedule: { type: 'fixed_interval', interval_secs: o.stepHours * 3600 },
    });
    let incremental = 0;
    let whole = 0;
    for (let step = 0; step < o.steps; step++) {
      const since = site.frozen.nowMs();
      if (step > 0) site.frozen.advanceMs(o.stepHours * HOUR_MS + 1000);
      await c.round(config, step === 0);
      if (step === 0) continue;
      incremental += site.requestLog.entries().filter((e) => e.simMs > since).length;
      const threads = await truthRows<ThreadRow>(site, '/_truth/forum/threads');
      whole += boards.reduce((n, b) => n + Math.ceil(threads.filter((t) => t.boardId === b.id).length / (b.flavour === 'discuz' ? 20 : 10)), 0)
        + threads.reduce((n, t) => n + t.pages, 0);
    }
    const truth = await truthRows<{ text: string }>(site, '/_truth/forum/posts');
    const docs = await c.docs<{ text: string }>('posts');
    // Exactly once: as many documents as posts, each written once, the texts those of the truth.
    const want = new Map<string, number>();
    for (const p of truth) want.set(words(p.text), (want.get(words(p.text)) ?? 0) + 1);
    let matched = 0;
    for (const d of docs) {
      const k = words(d.source.text);
      const n = want.get(k) ?? 0;
      if (n > 0 && d.version === 1) {
        matched += 1;
        want.set(k, n - 1);
      }
    }
    const v = 'thread-lists';
    return {
      rows: [
        { system: 'freshet', variant: v, metric: 'posts_truth', value: truth.length },
        { system: 'freshet', variant: v, metric: 'documents', value: docs.length },
        { system: 'freshet', variant: v, metric: 'documents_written_more_than_once', value: docs.filter((d) => d.version > 1).length },
        { system: 'freshet', variant: v, metric: 'posts_indexed_once', value: matched },
        { system: 'freshet', variant: v, metric: 'revisit_requests', value: incremental },
        { system: 'whole-threads', variant: v, metric: 'revisit_requests', value: whole },
      ],
      // Extra documents (a post indexed twice) count against the share as missing ones do.
      exactlyOnce: truth.length > 0 ? matched / Math.max(docs.length, truth.length) : null,
      reduction: whole > 0 ? 1 - incremental / whole : null,
    };
  } finally {
    await c.cleanup();
    await site.close();
  }
}
