import type { SimRequest, SimResponse } from './http-types';
import { jsonResponse } from './http-types';
import { AjaxSite, ajaxPostTruth } from './pages/ajax';
import { ARTICLES_PER_INDEX_PAGE, ArticleSite } from './pages/articles';
import { ForumWorld } from './pages/forum-world';
import { DEFAULT_NEWS_OPTIONS, type NewsOptions } from './pages/news-lifecycle';
import { NewsSite } from './pages/news-site';
import { PageSites } from './pages/routes';
import { articleTruth, forumPostTruth, forumThreadTruth } from './pages/truth';
import { newsArticleTruth, newsPageTruth } from './pages/web-truth';
import { DEFAULT_QA_OPTIONS, QaSite, type QaOptions } from './qa';
import { WeiboSite, type WeiboOptions } from './weibo/routes';
import type { World } from './world';

/** Options of the non-microblog sites (Q&A, forums, articles). */
export interface SiteOptions {
  qa: QaOptions;
  threadsPerBoard: number;
  articlesPerDay: number;
  /** The news site's feeds, sitemaps, validators, edits, deletions, moves, noisy links and traps. */
  news: NewsOptions;
}

/** What callers pass: any subset, the Q&A quirks included. */
export type SiteOptionsInput = Partial<Omit<SiteOptions, 'qa' | 'news'>> & { qa?: Partial<QaOptions>; news?: Partial<NewsOptions> };

export const DEFAULT_SITE_OPTIONS: SiteOptions = { qa: DEFAULT_QA_OPTIONS, threadsPerBoard: 40, articlesPerDay: 24, news: DEFAULT_NEWS_OPTIONS };

export interface Sites {
  handlers: ((req: SimRequest) => SimResponse | null)[];
  /** Ground-truth endpoints of these sites (forum posts, article texts), as row lists. */
  truth: (req: SimRequest) => Iterable<unknown> | SimResponse | null;
  /** Lines the sites add to robots.txt (`Sitemap:`), or ''. */
  robotsExtra: (req: SimRequest) => string;
}

export function buildSites(world: World, weibo: WeiboOptions, opts: SiteOptionsInput): Sites {
  const o: SiteOptions = { ...DEFAULT_SITE_OPTIONS, ...opts, qa: { ...DEFAULT_QA_OPTIONS, ...opts.qa }, news: { ...DEFAULT_NEWS_OPTIONS, ...opts.news } };
  const w = new WeiboSite(world, weibo);
  const qa = new QaSite(world, o.qa);
  const forum = new ForumWorld(world, o.threadsPerBoard);
  const news = new NewsSite(world.seed, new ArticleSite(world, o.articlesPerDay), forum, o.news);
  const pages = new PageSites(world, forum, news);
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
        case '/_truth/news/articles':
          return newsArticleTruth(news, req.nowMs);
        case '/_truth/news/pages':
          return newsPageTruth(news, req.nowMs, ARTICLES_PER_INDEX_PAGE);
        default:
          return null;
      }
    },
    robotsExtra: (req) => news.robotsLines(req),
  };
}
