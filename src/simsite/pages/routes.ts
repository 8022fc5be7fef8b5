import type { SimRequest, SimResponse } from '../http-types';
import { htmlResponse } from '../http-types';
import type { World } from '../world';
import type { ArticleSite } from './articles';
import { discuzBoardPage, discuzBoardUrl, discuzThreadPage, discuzThreadUrl } from './discuz';
import { encodePage } from './encode';
import { boardPageValidators, threadPageValidators } from './forum-validators';
import { FORUM_PAGE_SIZE, ForumWorld } from './forum-world';
import type { NewsSite } from './news-site';
import { phpbbForumPage, phpbbForumUrl, phpbbTopicPage } from './phpbb';
import { type Validators, withValidators } from './validators';

const notFound = (): SimResponse => htmlResponse('<!DOCTYPE html><html><head><meta charset="utf-8"><title>404</title></head><body><h1>页面不存在</h1></body></html>', 'text/html; charset=utf-8', 404);

const int = (v: string | null | undefined, fallback: number): number => {
  const n = Number(v);
  return v !== null && v !== undefined && v !== '' && Number.isInteger(n) ? n : fallback;
};

/** Forum (Discuz under /forum/, phpBB under /phpbb/), article (/news/) pages and the sitemaps. */
export class PageSites {
  constructor(private readonly world: World, readonly forum: ForumWorld, readonly news: NewsSite) {}

  get articles(): ArticleSite {
    return this.news.articles;
  }

  handle(req: SimRequest): SimResponse | null {
    const p = req.pathname;
    if (p.startsWith('/forum') || p === '/forum.php') return this.discuz(req);
    if (p.startsWith('/phpbb/')) return this.phpbb(req);
    return this.news.handle(req);
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
      return this.validated(req, threadPageValidators(this.forum, thread, page, now), () => {
        const html = discuzThreadPage(this.world, this.forum, board, thread, page, now);
        return html ? encodePage(html, board.encoding, board.charset) : notFound();
      });
    }
    if (req.pathname === '/forum.php' && req.query.get('mod') === 'redirect' && req.query.get('goto') === 'lastpost') {
      // Discuz's "last post" link: to the thread's last page.
      const thread = this.forum.thread(int(req.query.get('tid'), -1));
      if (!thread || this.forum.board(thread.boardId)?.flavour !== 'discuz') return notFound();
      const pages = Math.max(1, Math.ceil(this.forum.visiblePostCount(thread, now) / FORUM_PAGE_SIZE));
      return redirect(discuzThreadUrl(thread.tid, pages));
    }
    if ((m = /^\/forum\/forum-(\d+)-(\d+)\.html$/.exec(req.pathname))) {
      const board = this.forum.board(Number(m[1]));
      if (!board || board.flavour !== 'discuz') return notFound();
      const page = Number(m[2]);
      return this.validated(req, boardPageValidators(this.forum, board.id, page, 20, now), () => {
        const html = discuzBoardPage(this.world, this.forum, board, page, now);
        return html ? encodePage(html, board.encoding, board.charset) : notFound();
      });
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
      // `?p=<post id>`: the page that shows the post (post ids are thread × 1000 + floor).
      const pid = int(q.get('p'), -1);
      const thread = this.forum.thread(pid > 0 ? Math.floor(pid / 1000) : int(q.get('t'), -1));
      const board = thread ? this.forum.board(thread.boardId) : undefined;
      if (!thread || !board || board.flavour !== 'phpbb') return notFound();
      const visible = this.forum.visiblePostCount(thread, now);
      if (pid > 0 && (pid % 1000 < 1 || pid % 1000 > visible)) return notFound();
      const start = pid > 0 ? Math.floor(((pid % 1000) - 1) / FORUM_PAGE_SIZE) * FORUM_PAGE_SIZE : int(q.get('start'), 0);
      // A start past the end shows the last page (phpbbTopicPage clamps the same way).
      const page = Math.min(Math.floor(Math.max(0, start) / FORUM_PAGE_SIZE) + 1, Math.max(1, Math.ceil(visible / FORUM_PAGE_SIZE)));
      return this.validated(req, threadPageValidators(this.forum, thread, page, now), () => {
        const html = phpbbTopicPage(this.world, this.forum, board, thread, start, now);
        return html ? encodePage(html, board.encoding, board.charset) : notFound();
      });
    }
    if (req.pathname === '/phpbb/viewforum.php') {
      const board = this.forum.board(int(q.get('f'), -1));
      if (!board || board.flavour !== 'phpbb') return notFound();
      const start = int(q.get('start'), 0);
      return this.validated(req, boardPageValidators(this.forum, board.id, Math.floor(Math.max(0, start) / FORUM_PAGE_SIZE) + 1, FORUM_PAGE_SIZE, now), () => {
        const html = phpbbForumPage(this.world, this.forum, board, start, now);
        return html ? encodePage(html, board.encoding, board.charset) : notFound();
      });
    }
    if (req.pathname === '/phpbb/index.php' || req.pathname === '/phpbb/') {
      const links = this.forum.boards.filter((b) => b.flavour === 'phpbb')
        .map((b) => `<li class="row"><a href="${phpbbForumUrl(b.id, 0)}" class="forumtitle">${b.name}</a></li>`).join('');
      return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Board index</title></head><body><ul class="topiclist forums">${links}</ul></body></html>`);
    }
    return notFound();
  }

  /** Validators when the site gives them (see NewsOptions.validators) and the page exists. */
  private validated(req: SimRequest, v: Validators | null, render: () => SimResponse): SimResponse {
    return v === null ? render() : withValidators(req, v, render, !this.news.options.validators);
  }
}

const redirect = (location: string): SimResponse => ({ status: 302, headers: { location, 'content-type': 'text/html; charset=utf-8' }, body: '', kind: 'html' });
