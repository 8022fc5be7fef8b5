import type { SimRequest, SimResponse } from './http-types';
import { jsonResponse } from './http-types';
import { AjaxSite, ajaxPostTruth } from './pages/ajax';
import { ArticleSite } from './pages/articles';
import { ForumWorld } from './pages/forum-world';
import { PageSites } from './pages/routes';
import { articleTruth, forumPostTruth, forumThreadTruth } from './pages/truth';
import { DEFAULT_QA_OPTIONS, QaSite, type QaOptions } from './qa';
import { WeiboSite, type WeiboOptions } from './weibo/routes';
import type { World } from './world';

/** Options of the non-microblog sites (Q&A, forums, articles). */
export interface SiteOptions {
  qa: QaOptions;
  threadsPerBoard: number;
  articlesPerDay: number;
}

/** What callers pass: any subset, the Q&A quirks included. */
export type SiteOptionsInput = Partial<Omit<SiteOptions, 'qa'>> & { qa?: Partial<QaOptions> };

export const DEFAULT_SITE_OPTIONS: SiteOptions = { qa: DEFAULT_QA_OPTIONS, threadsPerBoard: 40, articlesPerDay: 24 };

export interface Sites {
  handlers: ((req: SimRequest) => SimResponse | null)[];
  /** Ground-truth endpoints of these sites (forum posts, article texts), as row lists. */
  truth: (req: SimRequest) => Iterable<unknown> | SimResponse | null;
}

export function buildSites(world: World, weibo: WeiboOptions, opts: SiteOptionsInput): Sites {
  const o: SiteOptions = { ...DEFAULT_SITE_OPTIONS, ...opts, qa: { ...DEFAULT_QA_OPTIONS, ...opts.qa } };
  const w = new WeiboSite(world, weibo);
  const qa = new QaSite(world, o.qa);
  const pages = new PageSites(world, new ForumWorld(world, o.threadsPerBoard), new ArticleSite(world, o.articlesPerDay));
  const ajax = new AjaxSite(world, pages.forum);
  return {
    handlers: [(req) => w.handle(req), (req) => qa.handle(req), (req) => pages.handle(req), (req) => ajax.handle(req)],
    truth: (req) => {
      switch (req.pathname) {
        case '/_truth/forum/threads':
          return forumThreadTruth(pages.forum, req.nowMs);
        case '/_truth/forum/posts': {
          const t = req.query.get('thread') ?? req.query.get('tid');
          return forumPostTruth(world, pages.forum, req.nowMs, t ? Number(t) : null);
        }
        case '/_truth/forum/boards':
          return jsonResponse(pages.forum.boards);
        case '/_truth/ajax/posts': {
          const t = req.query.get('thread');
          return ajaxPostTruth(ajax, pages.forum, req.nowMs, t ? Number(t) : null);
        }
        case '/_truth/articles':
          return articleTruth(pages.articles, req.nowMs);
        default:
          return null;
      }
    },
  };
}
