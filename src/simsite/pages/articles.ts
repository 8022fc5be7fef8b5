import { PostingProcess } from '../posting';
import { chance, intBetween, pick, streamRng } from '../random';
import { chooseSentiment, escapeHtml } from '../text/compose';
import {
  EN_FILLERS, EN_FOODS, EN_PLACES, EN_TEMPLATES, EN_THINGS, EN_TIMES, ZH_FILLERS, ZH_FOODS, ZH_PLACES, ZH_TEMPLATES,
  ZH_THINGS, ZH_TIMES, ZH_TOPICS, type Lang, type Sentiment,
} from '../text/lexicon';
import type { World } from '../world';

export interface Article {
  id: number;
  publishedMs: number;
  lang: Lang;
  layout: 'portal' | 'blog';
  title: string;
  author: string;
  section: string;
  sentiment: Sentiment;
  paragraphs: string[];
  comments: { author: string; text: string; createdMs: number }[];
}

/** Articles appear as one Poisson process over the whole site; the stream index is past any user index. */
const ARTICLE_STREAM = 0x7fff_fff0;
export const ARTICLES_PER_INDEX_PAGE = 20;

/** One sentence of an article in its language and tone (also what edits add). */
export function sentence(rng: ReturnType<typeof streamRng>, lang: Lang, sentiment: Sentiment): string {
  const zh = lang === 'zh';
  return pick(rng, (zh ? ZH_TEMPLATES : EN_TEMPLATES)[sentiment]).replace(/\{(topic|thing|place|time|food|name)\}/g, (_m, slot: string) => {
    if (slot === 'thing') return pick(rng, zh ? ZH_THINGS : EN_THINGS);
    if (slot === 'place') return pick(rng, zh ? ZH_PLACES : EN_PLACES);
    if (slot === 'time') return pick(rng, zh ? ZH_TIMES : EN_TIMES);
    if (slot === 'food') return pick(rng, zh ? ZH_FOODS : EN_FOODS);
    return zh ? '有关部门' : 'officials';
  });
}

export class ArticleSite {
  private readonly process: PostingProcess;
  private readonly cache = new Map<number, Article>();

  constructor(private readonly world: World, articlesPerDay: number) {
    this.process = new PostingProcess(world.seed, ARTICLE_STREAM, world.historyStartMs, articlesPerDay, null);
  }

  countAt(nowMs: number): number {
    return this.process.countAt(nowMs);
  }

  /** Article ids are 1-based positions in publication order. */
  article(id: number, nowMs: number): Article | undefined {
    if (!Number.isInteger(id) || id < 1 || id > this.countAt(nowMs)) return undefined;
    let a = this.cache.get(id);
    if (!a) {
      const rng = streamRng(this.world.seed, 0xa27c, id);
      const lang: Lang = chance(rng, 0.2) ? 'en' : 'zh';
      const sentiment = chooseSentiment(rng, 0.35, 0.3);
      const paragraphs: string[] = [];
      const n = intBetween(rng, 4, 9);
      const sep = lang === 'zh' ? '' : ' ';
      for (let i = 0; i < n; i++) {
        const parts = [sentence(rng, lang, sentiment), sentence(rng, lang, sentiment)];
        if (chance(rng, 0.6)) parts.push(pick(rng, lang === 'zh' ? ZH_FILLERS : EN_FILLERS));
        paragraphs.push(parts.map((p) => (lang === 'zh' ? `${p}。` : `${p}.`)).join(sep).replace(/([！？。.!?])[。.]/g, '$1'));
      }
      const comments = Array.from({ length: intBetween(rng, 0, 6) }, (_, i) => ({
        author: this.world.users[Math.floor(rng.next() * this.world.users.length)]!.screenName,
        text: sentence(rng, lang, chooseSentiment(rng, 0.4, 0.3)),
        createdMs: this.process.times[id - 1]! + (i + 1) * 600_000,
      }));
      a = {
        id,
        publishedMs: this.process.times[id - 1]!,
        lang,
        layout: chance(rng, 0.5) ? 'portal' : 'blog',
        title: sentence(rng, lang, sentiment),
        author: this.world.users[Math.floor(rng.next() * this.world.users.length)]!.screenName,
        section: pick(rng, ZH_TOPICS),
        sentiment,
        paragraphs,
        comments,
      };
      this.cache.set(id, a);
    }
    return a;
  }

  /** The main text as the extractor should return it: paragraphs separated by blank lines. */
  static mainText(a: Article): string {
    return a.paragraphs.join('\n\n');
  }
}

const isoDate = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const chinaTime = (ms: number): string => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

/**
 * How an article page shows what may change after publication: its current text, where it lives,
 * how it links other articles (null: not at all, e.g. deleted) and what the site adds to the nav.
 */
export interface ArticleView {
  title: string;
  paragraphs: string[];
  /** Set once the article was edited: the page then says when. */
  modifiedMs: number | null;
  canonicalPath: string;
  href: (id: number) => string | null;
  /** Extra links in the top navigation (e.g. the calendar). */
  navExtra: string;
}

export const plainView = (a: Article): ArticleView => ({
  title: a.title, paragraphs: a.paragraphs, modifiedMs: null, canonicalPath: `/news/${a.id}.html`, href: (id) => `/news/${id}.html`, navExtra: '',
});

function sidebar(site: ArticleSite, a: Article, nowMs: number, view: ArticleView): string {
  const related: string[] = [];
  for (let i = 1; i <= 12; i++) {
    const other = site.article(Math.max(1, a.id - i * 3), nowMs);
    const href = other && other.id !== a.id ? view.href(other.id) : null;
    if (other && href !== null) related.push(`<li><a href="${href}">${escapeHtml(other.title)}</a></li>`);
  }
  return `<ul class="hot-list">${related.join('')}</ul>`;
}

/** Inline style and analytics script, as news portals carry in their head: bytes the parser reads and the extractor must skip. */
const HEAD_ASSETS = `<style>
body{margin:0;font:14px/1.6 "PingFang SC","Microsoft YaHei",sans-serif;color:#222;background:#f5f5f5}
.site-header{background:#c00;color:#fff;height:60px}.site-header .logo a{color:#fff;font-size:24px;text-decoration:none}
.top-nav ul{list-style:none;margin:0;padding:0}.top-nav li{display:inline-block;margin-right:18px}
.container{width:1200px;margin:0 auto;display:flex}.left-sidebar{width:200px}.right-sidebar{width:300px}
.main-column,main{flex:1;background:#fff;padding:20px 30px}.article-title,.entry-title{font-size:28px;line-height:1.3}
.article-meta span{margin-right:12px;color:#888}.article-content p,.entry-content p{text-indent:2em;margin:0 0 1em}
.recommend li{display:flex;border-bottom:1px solid #eee;padding:10px 0}.recommend .summary{color:#666;font-size:13px}
.hot-list li,.rank li{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.comments{width:1200px;margin:20px auto}
.site-footer{background:#333;color:#aaa;text-align:center;padding:20px 0}.site-footer a{color:#ccc;margin:0 6px}
</style>
<script>
window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','SIM-000000');
(function(){var s=document.createElement('script');s.async=true;s.src='/static/stat.js?v=20260101';var f=document.getElementsByTagName('script')[0];f.parentNode.insertBefore(s,f);})();
</script>`;

/** Where the site's feeds are, as news pages announce them in their head. */
export const FEED_LINKS = '<link rel="alternate" type="application/rss+xml" title="模拟日报 RSS" href="/news/rss.xml">'
  + '<link rel="alternate" type="application/atom+xml" title="模拟日报 Atom" href="/news/atom.xml">'
  + '<link rel="alternate" type="application/feed+json" title="模拟日报 JSON Feed" href="/news/feed.json">';

const FOOTER_LINKS = ['关于我们', '联系我们', '招聘信息', '广告服务', '网站地图', '隐私政策', '用户协议', '意见反馈', '违法和不良信息举报', '友情链接', '新闻中心', '产品答疑']
  .map((t, i) => `<a href="/about.html?s=${i}">${t}</a>`).join(' | ');

/** Recommended articles with the opening of their text: link-rich boilerplate that looks like content. */
function recommended(site: ArticleSite, a: Article, nowMs: number, view: ArticleView): string {
  const items: string[] = [];
  for (let i = 1; items.length < 24 && i <= 60; i++) {
    const other = site.article(a.id - i * 7 > 0 ? a.id - i * 7 : a.id + i, nowMs);
    const href = other && other.id !== a.id ? view.href(other.id) : null;
    if (!other || href === null) continue;
    items.push(`<li><a class="thumb" href="${href}"><img src="/static/thumb/${other.id}.jpg" alt=""></a><div><a class="headline" href="${href}">${escapeHtml(other.title)}</a><p class="summary">${escapeHtml(other.paragraphs[0]!.slice(0, 56))}…</p><span class="time">${chinaTime(other.publishedMs)}</span></div></li>`);
  }
  return `<section class="recommend"><h3>猜你喜欢</h3><ul>${items.join('\n')}</ul></section>`;
}

/**
 * Nav, breadcrumbs, two sidebars, share bar, recommended articles, comments, styles, scripts and
 * footer around the main text: boilerplate for the extractor, about 17 KB a page as news pages
 * carry (the throughput benchmark's HTML pages).
 */
export function articlePage(site: ArticleSite, a: Article, nowMs: number, view: ArticleView = plainView(a)): string {
  const title = escapeHtml(view.title);
  const body = view.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const modified = view.modifiedMs === null ? '' : `<meta property="article:modified_time" content="${isoDate(view.modifiedMs)}">`;
  const comments = a.comments.filter((c) => c.createdMs <= nowMs)
    .map((c) => `<li class="comment"><span class="comment-author">${escapeHtml(c.author)}</span><span class="comment-time">${chinaTime(c.createdMs)}</span><p>${escapeHtml(c.text)}</p></li>`)
    .join('\n');
  const nav = `<nav class="top-nav"><ul><li><a href="/news/">首页</a></li><li><a href="/news/?section=tech">科技</a></li><li><a href="/news/?section=life">生活</a></li><li><a href="/news/?section=travel">旅游</a></li><li><a href="/forum/">论坛</a></li><li><a href="/about.html">关于我们</a></li>${view.navExtra}</ul></nav>`;
  const ads = '<div class="ad-box"><a href="/ad/click?id=1"><img src="/static/ad-300x250.png" alt="广告"></a><p>热门推荐：限时优惠，立即抢购！</p></div>';
  const share = '<div class="share-bar">分享到：<a href="#weibo">微博</a> <a href="#wechat">微信</a> <a href="#qq">QQ空间</a></div>';
  const main = a.layout === 'portal'
    ? `<div class="main-column"><div class="breadcrumb"><a href="/news/">首页</a> &gt; <a href="/news/?section=${encodeURIComponent(a.section)}">${escapeHtml(a.section)}</a> &gt; 正文</div>
<h1 class="article-title">${title}</h1>
<div class="article-meta"><span class="source">来源：模拟日报</span><span class="author">作者：${escapeHtml(a.author)}</span><span class="pubtime">${chinaTime(a.publishedMs)}</span>${view.modifiedMs === null ? '' : `<span class="modtime">更新于 ${chinaTime(view.modifiedMs)}</span>`}</div>
${share}
<div class="article-content" id="artibody">
${body}
</div>
<div class="editor">责任编辑：${escapeHtml(a.author)}</div>
<div class="statement">声明：本文仅代表作者观点，不代表本站立场。</div></div>`
    : `<main><article class="post"><header><h1 class="entry-title">${title}</h1>
<p class="byline">By <a rel="author" href="/news/author/${encodeURIComponent(a.author)}">${escapeHtml(a.author)}</a> · <time datetime="${isoDate(a.publishedMs)}">${chinaTime(a.publishedMs)}</time>${view.modifiedMs === null ? '' : ` · Updated <time class="updated" datetime="${isoDate(view.modifiedMs)}">${chinaTime(view.modifiedMs)}</time>`}</p></header>
<div class="entry-content">
${body}
</div>
<footer class="entry-footer"><span class="tags">Tags: <a href="/news/tag/${encodeURIComponent(a.section)}">${escapeHtml(a.section)}</a></span>${share}</footer></article></main>`;
  return `<!DOCTYPE html>
<html lang="${a.lang === 'zh' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><title>${title}_模拟日报</title>
<meta name="description" content="${escapeHtml(view.paragraphs[0]!.slice(0, 60))}">
<meta property="og:title" content="${title}"><meta property="article:published_time" content="${isoDate(a.publishedMs)}">${modified}
<link rel="canonical" href="${view.canonicalPath}">
${FEED_LINKS}
${HEAD_ASSETS}</head>
<body class="${a.layout}">
<header class="site-header"><div class="logo"><a href="/news/">模拟日报</a></div>${nav}<form class="search" action="/news/search"><input name="q" placeholder="搜索"></form></header>
<div class="container">
<aside class="left-sidebar"><h3>栏目导航</h3><ul><li><a href="/news/?section=tech">科技</a></li><li><a href="/news/?section=finance">财经</a></li><li><a href="/news/?section=sports">体育</a></li><li><a href="/news/?section=ent">娱乐</a></li></ul>${ads}</aside>
${main}
<aside class="right-sidebar"><h3>相关阅读</h3>${sidebar(site, a, nowMs, view)}<h3>热门排行</h3><ol class="rank"><li><a href="/news/1.html">本周热门话题盘点</a></li><li><a href="/news/2.html">专家解读最新政策</a></li></ol></aside>
</div>
${recommended(site, a, nowMs, view)}
<section class="comments" id="comments"><h3>网友评论（${a.comments.length}）</h3><ul>${comments}</ul><form class="comment-form"><textarea name="content" placeholder="说点什么吧"></textarea><button>发表评论</button></form></section>
<footer class="site-footer"><p>${FOOTER_LINKS}</p><p>Copyright &copy; 2026 模拟日报 版权所有 京ICP备00000000号</p></footer>
</body></html>`;
}
