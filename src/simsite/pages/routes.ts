import type { SimRequest, SimResponse } from '../http-types';
import { htmlResponse } from '../http-types';
import type { World } from '../world';
import { ArticleSite, articleIndexPage, articlePage } from './articles';
import { discuzBoardPage, discuzBoardUrl, discuzThreadPage } from './discuz';
import { encodePage } from './encode';
import { ForumWorld } from './forum-world';
import { phpbbForumPage, phpbbForumUrl, phpbbTopicPage } from './phpbb';

const notFound = (): SimResponse => htmlResponse('<!DOCTYPE html><html><head><meta charset="utf-8"><title>404</title></head><body><h1>页面不存在</h1></body></html>', 'text/html; charset=utf-8', 404);

const int = (v: string | null | undefined, fallback: number): number => {
  const n = Number(v);
  return v !== null && v !== undefined && v !== '' && Number.isInteger(n) ? n : fallback;
};

/** Forum (Discuz under /forum/, phpBB under /phpbb/) and article (/news/) pages. */
export class PageSites {
  constructor(private readonly world: World, readonly forum: ForumWorld, readonly articles: ArticleSite) {}

  handle(req: SimRequest): SimResponse | null {
    const p = req.pathname;
    if (p.startsWith('/forum') || p === '/forum.php') return this.discuz(req);
    if (p.startsWith('/phpbb/')) return this.phpbb(req);
    if (p.startsWith('/news/')) return this.news(req);
    return null;
  }

  private discuz(req: SimRequest): SimResponse {
    const now = req.nowMs;
    let m: RegExpExecArray | null;
    let tid: number | null = null;
    let page = 1;
    if ((m = /^\/forum\/thread-(\d+)-(\d+)-\d+\.html$/.exec(req.pathname))) {
      tid = Number(m[1]);
      page = Number(m[2]);
    } else if (req.pathname === '/forum.php' && req.query.get('mod') === 'viewthread') {
      tid = int(req.query.get('tid'), -1);
      page = int(req.query.get('page'), 1);
    }
    if (tid !== null) {
      const thread = this.forum.thread(tid);
      const board = thread ? this.forum.board(thread.boardId) : undefined;
      if (!thread || !board || board.flavour !== 'discuz') return notFound();
      const html = discuzThreadPage(this.world, this.forum, board, thread, page, now);
      return html ? encodePage(html, board.encoding, board.charset) : notFound();
    }
    if ((m = /^\/forum\/forum-(\d+)-(\d+)\.html$/.exec(req.pathname))) {
      const board = this.forum.board(Number(m[1]));
      if (!board || board.flavour !== 'discuz') return notFound();
      const html = discuzBoardPage(this.world, this.forum, board, Number(m[2]), now);
      return html ? encodePage(html, board.encoding, board.charset) : notFound();
    }
    if (req.pathname === '/forum/' || req.pathname === '/forum') {
      const links = this.forum.boards.filter((b) => b.flavour === 'discuz')
        .map((b) => `<li><a href="${discuzBoardUrl(b.id, 1)}">${b.name}</a></li>`).join('');
      return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>模拟论坛</title></head><body><ul class="boards">${links}</ul></body></html>`);
    }
    return notFound();
  }

  private phpbb(req: SimRequest): SimResponse {
    const now = req.nowMs;
    const q = req.query;
    if (req.pathname === '/phpbb/viewtopic.php') {
      const thread = this.forum.thread(int(q.get('t'), -1));
      const board = thread ? this.forum.board(thread.boardId) : undefined;
      if (!thread || !board || board.flavour !== 'phpbb') return notFound();
      const html = phpbbTopicPage(this.world, this.forum, board, thread, int(q.get('start'), 0), now);
      return html ? encodePage(html, board.encoding, board.charset) : notFound();
    }
    if (req.pathname === '/phpbb/viewforum.php') {
      const board = this.forum.board(int(q.get('f'), -1));
      if (!board || board.flavour !== 'phpbb') return notFound();
      const html = phpbbForumPage(this.world, this.forum, board, int(q.get('start'), 0), now);
      return html ? encodePage(html, board.encoding, board.charset) : notFound();
    }
    if (req.pathname === '/phpbb/index.php' || req.pathname === '/phpbb/') {
      const links = this.forum.boards.filter((b) => b.flavour === 'phpbb')
        .map((b) => `<li class="row"><a href="${phpbbForumUrl(b.id, 0)}" class="forumtitle">${b.name}</a></li>`).join('');
      return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Board index</title></head><body><ul class="topiclist forums">${links}</ul></body></html>`);
    }
    return notFound();
  }

  private news(req: SimRequest): SimResponse {
    const now = req.nowMs;
    if (req.pathname === '/news/') {
      const html = articleIndexPage(this.articles, int(req.query.get('page'), 1), now);
      return html ? htmlResponse(html) : notFound();
    }
    const m = /^\/news\/(\d+)\.html$/.exec(req.pathname);
    const a = m ? this.articles.article(Number(m[1]), now) : undefined;
    return a ? htmlResponse(articlePage(this.articles, a, now)) : notFound();
  }
}
