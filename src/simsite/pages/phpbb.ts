import { escapeHtml } from '../text/compose';
import type { World } from '../world';
import { phpbbTimeHtml } from './dates';
import { CHARSET_SLOT } from './encode';
import { FORUM_PAGE_SIZE, type ForumBoard, type ForumPost, type ForumThread, type ForumWorld } from './forum-world';

export const phpbbTopicUrl = (f: number, t: number, start: number): string =>
  `/phpbb/viewtopic.php?f=${f}&amp;t=${t}${start > 0 ? `&amp;start=${start}` : ''}`;
export const phpbbForumUrl = (f: number, start: number): string => `/phpbb/viewforum.php?f=${f}${start > 0 ? `&amp;start=${start}` : ''}`;

function pagination(total: number, start: number, url: (s: number) => string, noun: string): string {
  const pages = Math.max(1, Math.ceil(total / FORUM_PAGE_SIZE));
  const current = Math.floor(start / FORUM_PAGE_SIZE) + 1;
  let s = `<div class="pagination">${total} ${noun}`;
  if (pages > 1) {
    s += '<ul>';
    if (current > 1) s += `<li class="arrow previous"><a class="button button-icon-only" href="${url((current - 2) * FORUM_PAGE_SIZE)}" rel="prev" role="button"><span class="sr-only">Previous</span></a></li>`;
    for (let p = 1; p <= pages; p++) {
      s += p === current ? `<li class="active"><span>${p}</span></li>` : `<li><a class="button" href="${url((p - 1) * FORUM_PAGE_SIZE)}" role="button">${p}</a></li>`;
    }
    if (current < pages) s += `<li class="arrow next"><a class="button button-icon-only" href="${url(current * FORUM_PAGE_SIZE)}" rel="next" role="button"><span class="sr-only">Next</span></a></li>`;
    s += '</ul>';
  } else {
    s += ' &bull; Page <strong>1</strong> of <strong>1</strong>';
  }
  return `${s}</div>`;
}

function shell(title: string, crumbs: string, body: string, lang: string): string {
  return `<!DOCTYPE html>
<html dir="ltr" lang="${lang === 'zh' ? 'zh-cmn-hans' : 'en-gb'}">
<head>
${CHARSET_SLOT}
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${title} - Sim Community Forums</title>
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=12" rel="stylesheet">
</head>
<body id="phpbb" class="nojs notouch section-viewtopic ltr ">
<div id="wrap" class="wrap">
<a id="top" class="top-anchor" accesskey="t"></a>
<div id="page-header">
<div class="headerbar" role="banner"><div class="inner"><div id="site-description" class="site-description"><a id="logo" class="logo" href="./index.php" title="Board index"><span class="site_logo"></span></a><h1>Sim Community Forums</h1><p>A place to talk about everything</p></div>
<div id="search-box" class="search-box search-header" role="search"><form action="./search.php" method="get" id="search"><fieldset><input name="keywords" id="keywords" type="search" maxlength="128" title="Search for keywords" class="inputbox search tiny" size="20" value="" placeholder="Search…" /></fieldset></form></div></div></div>
<div class="navbar" role="navigation"><div class="inner"><ul id="nav-main" class="nav-main linklist" role="menubar"><li><a href="/phpbb/faq.php" rel="help" title="Frequently Asked Questions" role="menuitem">FAQ</a></li><li class="rightside"><a href="./ucp.php?mode=login" title="Login" accesskey="x" role="menuitem">Login</a></li><li class="rightside"><a href="./ucp.php?mode=register" role="menuitem">Register</a></li></ul>
<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar"><li class="breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList"><span class="crumb"><a href="/phpbb/index.php" itemprop="item" accesskey="h">Board index</a></span>${crumbs}</li></ul></div></div>
</div>
<div id="page-body" class="page-body" role="main">
${body}
</div>
<div id="page-footer" class="page-footer" role="contentinfo"><div class="navbar" role="navigation"><div class="inner"><ul id="nav-footer" class="nav-footer linklist" role="menubar"><li class="breadcrumbs"><span class="crumb"><a href="/phpbb/index.php">Board index</a></span></li><li class="rightside">All times are <span title="UTC">UTC</span></li><li class="rightside"><a href="/phpbb/ucp.php?mode=delete_cookies">Delete cookies</a></li></ul></div></div>
<div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited<br />Privacy | Terms</div></div>
</div>
</body>
</html>`;
}

function postHtml(world: World, forum: ForumWorld, board: ForumBoard, thread: ForumThread, post: ForumPost, index: number): string {
  const author = world.users[post.authorIndex]!;
  const pid = post.pid;
  const usernameClass = author.verified ? 'username-coloured' : 'username';
  const profile = `./memberlist.php?mode=viewprofile&amp;u=${author.index + 2}`;
  let quote = '';
  if (post.quotesFloor !== null) {
    const q = forum.post(thread, post.quotesFloor);
    quote = `<blockquote><div><cite><a href="./memberlist.php?mode=viewprofile&amp;u=${q.authorIndex + 2}">${escapeHtml(world.users[q.authorIndex]!.screenName)}</a> wrote: <a href="./viewtopic.php?p=${q.pid}#p${q.pid}" data-post-id="${q.pid}">↑</a></cite>${escapeHtml(q.paragraphs[0]!)}</div></blockquote>`;
  }
  const subject = post.floor === 1 ? escapeHtml(thread.title) : `Re: ${escapeHtml(thread.title)}`;
  return `<div id="p${pid}" class="post has-profile ${index % 2 === 0 ? 'bg2' : 'bg1'}">
<div class="inner">
<dl class="postprofile" id="profile${pid}">
<dt class="has-profile-rank no-avatar"><div class="avatar-container"></div><a href="${profile}" class="${usernameClass}">${escapeHtml(author.screenName)}</a></dt>
<dd class="profile-rank">${author.verified ? 'Site Admin' : 'Registered User'}</dd>
<dd class="profile-posts"><strong>Posts:</strong> <a href="./search.php?author_id=${author.index + 2}&amp;sr=posts">${author.urank * 11}</a></dd>
<dd class="profile-joined"><strong>Joined:</strong> ${new Date(author.registeredMs).toUTCString().slice(5, 16)}</dd>
</dl>
<div class="postbody">
<div id="post_content${pid}">
<h3 ${index === 0 ? 'class="first"' : ''}><a href="#p${pid}">${subject}</a></h3>
<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=${pid}" title="Reply with quote" class="button button-icon-only"><span>Quote</span></a></li></ul>
<p class="author"><a class="unread" href="./viewtopic.php?p=${pid}#p${pid}" title="Post"><span class="imageset icon_post_target">Post</span></a><span class="responsive-hide">by <strong><a href="${profile}" class="${usernameClass}">${escapeHtml(author.screenName)}</a></strong> &raquo; </span>${phpbbTimeHtml(post.createdMs)}</p>
<div class="content">${quote}${post.paragraphs.map(escapeHtml).join('<br>\n')}</div>
<div id="sig${pid}" class="signature">${escapeHtml(author.headline || 'Just another forum member')}</div>
</div>
</div>
<div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>
</div>
</div>
<hr class="divider" />`;
}

/** A `start` past the end shows the last page, as phpBB does (spec §3.2). */
export function phpbbTopicPage(world: World, forum: ForumWorld, board: ForumBoard, thread: ForumThread, start: number, nowMs: number): string | null {
  const visible = forum.visiblePostCount(thread, nowMs);
  if (visible === 0) return null;
  const lastStart = Math.floor((visible - 1) / FORUM_PAGE_SIZE) * FORUM_PAGE_SIZE;
  const s = Math.min(Math.max(0, Math.floor(start / FORUM_PAGE_SIZE) * FORUM_PAGE_SIZE), lastStart);
  const posts: string[] = [];
  for (let f = s + 1, i = 0; f <= Math.min(visible, s + FORUM_PAGE_SIZE); f++, i++) posts.push(postHtml(world, forum, board, thread, forum.post(thread, f), i));
  const pg = pagination(visible, s, (x) => phpbbTopicUrl(board.id, thread.tid, x), visible === 1 ? 'post' : 'posts');
  const title = escapeHtml(thread.title);
  const crumbs = `<span class="crumb"><a href="${phpbbForumUrl(board.id, 0)}">${escapeHtml(board.name)}</a></span>`;
  return shell(title, crumbs, `<h2 class="topic-title"><a href="${phpbbTopicUrl(board.id, thread.tid, 0)}">${title}</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=${thread.tid}" class="button" title="Post a reply"><span>Post Reply</span></a>${pg}</div>
${posts.join('\n')}
<div class="action-bar bar-bottom">${pg}</div>
<div class="action-bar actions-jump"><p class="jumpbox-return"><a href="${phpbbForumUrl(board.id, 0)}" class="left-box arrow-left" accesskey="r">Return to &ldquo;${escapeHtml(board.name)}&rdquo;</a></p></div>`, board.lang);
}

export function phpbbForumPage(world: World, forum: ForumWorld, board: ForumBoard, start: number, nowMs: number): string | null {
  const threads = forum.activeThreads(board.id, nowMs);
  const s = Math.max(0, Math.floor(start / FORUM_PAGE_SIZE) * FORUM_PAGE_SIZE);
  if (s > 0 && s >= threads.length) return null;
  const rows = threads.slice(s, s + FORUM_PAGE_SIZE).map((t) => {
    const visible = forum.visiblePostCount(t, nowMs);
    const author = world.users[forum.post(t, 1).authorIndex]!;
    const last = forum.post(t, visible);
    const lastAuthor = world.users[last.authorIndex]!;
    const topicPages = Math.ceil(visible / FORUM_PAGE_SIZE);
    const pages = topicPages < 2 ? '' : `<div class="pagination"><ul>${Array.from({ length: topicPages }, (_, i) => i + 1)
      .filter((p) => p <= 3 || p === topicPages).map((p) => `<li><a class="button" href="${phpbbTopicUrl(board.id, t.tid, (p - 1) * FORUM_PAGE_SIZE)}">${p}</a></li>`).join('')}</ul></div>`;
    return `<li class="row bg1"><dl class="row-item topic_read"><dt><div class="list-inner"><a href="${phpbbTopicUrl(board.id, t.tid, 0)}" class="topictitle">${escapeHtml(t.title)}</a>
<div class="topic-poster responsive-hide left-box">by <a href="./memberlist.php?mode=viewprofile&amp;u=${author.index + 2}" class="username">${escapeHtml(author.screenName)}</a> &raquo; ${phpbbTimeHtml(t.createdMs)}</div>${pages}</div></dt>
<dd class="posts">${visible - 1} <dfn>Replies</dfn></dd><dd class="views">${visible * 23} <dfn>Views</dfn></dd>
<dd class="lastpost"><span><dfn>Last post </dfn>by <a href="./memberlist.php?mode=viewprofile&amp;u=${lastAuthor.index + 2}" class="username">${escapeHtml(lastAuthor.screenName)}</a> <a href="./viewtopic.php?p=${last.pid}#p${last.pid}" title="Go to last post"><span class="sr-only">Go to last post</span></a><br />${phpbbTimeHtml(last.createdMs)}</span></dd></dl></li>`;
  });
  const pg = pagination(threads.length, s, (x) => phpbbForumUrl(board.id, x), 'topics');
  return shell(escapeHtml(board.name), `<span class="crumb"><a href="${phpbbForumUrl(board.id, 0)}">${escapeHtml(board.name)}</a></span>`,
    `<h2 class="forum-title"><a href="${phpbbForumUrl(board.id, 0)}">${escapeHtml(board.name)}</a></h2>
<div class="action-bar bar-top">${pg}</div>
<div class="forumbg"><div class="inner"><ul class="topiclist"><li class="header"><dl class="row-item"><dt><div class="list-inner">Topics</div></dt></dl></li></ul>
<ul class="topiclist topics">${rows.join('\n')}</ul></div></div>
<div class="action-bar bar-bottom">${pg}</div>`, board.lang);
}
