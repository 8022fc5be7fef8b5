import type { World } from '../world';
import { ArticleSite } from './articles';
import { discuzThreadUrl } from './discuz';
import { FORUM_PAGE_SIZE, type ForumWorld } from './forum-world';

/** Ground truth of forum posts: author, time and own text (quotes excluded), and the page that shows it. */
export function* forumPostTruth(world: World, forum: ForumWorld, nowMs: number, tid: number | null): Generator<Record<string, unknown>> {
  for (const board of forum.boards) {
    for (const id of forum.threadIds(board.id)) {
      if (tid !== null && id !== tid) continue;
      const t = forum.thread(id)!;
      const n = forum.visiblePostCount(t, nowMs);
      for (let f = 1; f <= n; f++) {
        const p = forum.post(t, f);
        const author = world.users[p.authorIndex]!;
        const page = Math.floor((f - 1) / FORUM_PAGE_SIZE) + 1;
        yield {
          pid: p.pid, tid: t.tid, boardId: board.id, flavour: board.flavour, encoding: board.encoding, charset: board.charset,
          floor: f, title: t.title, author: author.screenName, authorUid: author.uid, createdMs: p.createdMs,
          createdAt: new Date(p.createdMs).toISOString(), sentiment: p.sentiment, text: p.text, quotesFloor: p.quotesFloor,
          url: board.flavour === 'discuz'
            ? discuzThreadUrl(t.tid, page)
            : `/phpbb/viewtopic.php?f=${board.id}&t=${t.tid}${page > 1 ? `&start=${(page - 1) * FORUM_PAGE_SIZE}` : ''}`,
        };
      }
    }
  }
}

export function* forumThreadTruth(forum: ForumWorld, nowMs: number): Generator<Record<string, unknown>> {
  for (const board of forum.boards) {
    for (const id of forum.threadIds(board.id)) {
      const t = forum.thread(id)!;
      const posts = forum.visiblePostCount(t, nowMs);
      if (posts === 0) continue;
      yield {
        tid: t.tid, boardId: board.id, board: board.name, flavour: board.flavour, encoding: board.encoding, charset: board.charset,
        title: t.title, createdMs: t.createdMs, posts, replies: posts - 1, pages: Math.ceil(posts / FORUM_PAGE_SIZE), lastPostMs: t.postTimes[posts - 1]!,
        url: board.flavour === 'discuz' ? discuzThreadUrl(t.tid, 1) : `/phpbb/viewtopic.php?f=${board.id}&t=${t.tid}`,
      };
    }
  }
}

export function* articleTruth(site: ArticleSite, nowMs: number): Generator<Record<string, unknown>> {
  const n = site.countAt(nowMs);
  for (let id = 1; id <= n; id++) {
    const a = site.article(id, nowMs)!;
    yield {
      id, url: `/news/${id}.html`, title: a.title, author: a.author, layout: a.layout, lang: a.lang, sentiment: a.sentiment,
      publishedMs: a.publishedMs, publishedAt: new Date(a.publishedMs).toISOString(), text: ArticleSite.mainText(a),
    };
  }
}
