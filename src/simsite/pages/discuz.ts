import { escapeHtml } from '../text/compose';
import type { World } from '../world';
import { discuzDate, discuzPostedHtml, discuzTimeHtml } from './dates';
import { CHARSET_SLOT } from './encode';
import { FORUM_PAGE_SIZE, type ForumBoard, type ForumPost, type ForumThread, type ForumWorld } from './forum-world';

export const discuzThreadUrl = (tid: number, page: number): string => `/forum/thread-${tid}-${page}-1.html`;
export const discuzBoardUrl = (fid: number, page: number): string => `/forum/forum-${fid}-${page}.html`;

/** Discuz's multi() pager: numbered links, the current page in <strong>, 下一页 with class nxt. */
function pager(page: number, pages: number, url: (p: number) => string): string {
  if (pages <= 1) return '';
  let s = '<div class="pg">';
  if (page > 1) s += `<a href="${url(page - 1)}" class="prev">&nbsp;&nbsp;</a>`;
  for (let p = Math.max(1, page - 4); p <= Math.min(pages, page + 4); p++) {
    s += p === page ? `<strong>${p}</strong>` : `<a href="${url(p)}">${p}</a>`;
  }
  if (pages > page + 4) s += `<a href="${url(pages)}" class="last">... ${pages}</a>`;
  if (page < pages) s += `<a href="${url(page + 1)}" class="nxt">下一页</a>`;
  return `${s}</div>`;
}

function shell(title: string, crumbs: string, body: string): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
${CHARSET_SLOT}
<title>${title} - 模拟论坛 - Powered by Discuz!</title>
<meta name="keywords" content="${title}" />
<meta name="generator" content="Discuz! X3.4" />
<link rel="stylesheet" type="text/css" href="data/cache/style_1_common.css" />
</head>
<body id="nv_forum" class="pg_viewthread">
<div id="toptb" class="cl"><div class="wp"><div class="z"><a href="/forum/">设为首页</a><a href="/forum/">收藏本站</a></div><div class="y"><a href="/member.php?mod=register">注册</a><a href="/member.php?mod=logging&amp;action=login">登录</a></div></div></div>
<div id="hd"><div class="wp"><div class="hdc cl"><h2><a href="/forum/" title="模拟论坛">模拟论坛</a></h2></div>
<div id="nv"><ul><li class="a"><a href="/forum/">论坛</a></li><li><a href="/news/">资讯</a></li><li><a href="/home.php">家园</a></li><li><a href="/search.php">搜索</a></li></ul></div></div></div>
<div id="wp" class="wp">
<div id="pt" class="bm cl"><div class="z"><a href="/forum/" class="nvhm" title="首页">模拟论坛</a> <em>&rsaquo;</em> ${crumbs}</div></div>
${body}
</div>
<div id="ft" class="wp cl"><div id="flk" class="y"><p><a href="/archiver/">Archiver</a><span class="pipe">|</span><a href="/forum.php?mobile=yes">手机版</a><span class="pipe">|</span><strong><a href="/">模拟论坛</a></strong></p></div>
<div id="frt"><p>Powered by <strong><a href="http://www.discuz.net" target="_blank">Discuz!</a></strong> <em>X3.4</em></p><p class="xs0">&copy; 2001-2026 <a href="http://www.comsenz.com" target="_blank">Comsenz Inc.</a></p></div></div>
</body>
</html>`;
}

function postHtml(world: World, forum: ForumWorld, thread: ForumThread, post: ForumPost, nowMs: number): string {
  const author = world.users[post.authorIndex]!;
  const pid = post.pid;
  let quote = '';
  if (post.quotesFloor !== null) {
    const q = forum.post(thread, post.quotesFloor);
    const qa = world.users[q.authorIndex]!;
    quote = `<div class="quote"><blockquote><font size="2"><a href="/forum.php?mod=redirect&amp;goto=findpost&amp;pid=${q.pid}&amp;ptid=${thread.tid}" target="_blank"><font color="#999999">${escapeHtml(qa.screenName)} 发表于 ${discuzDate(q.createdMs)}</font></a></font><br />
${escapeHtml(q.paragraphs[0]!.slice(0, 40))}...</blockquote></div><br />`;
  }
  const body = post.paragraphs.map(escapeHtml).join('<br />\r\n');
  return `<div id="post_${pid}"><table id="pid${pid}" class="plhin" summary="pid${pid}" cellspacing="0" cellpadding="0">
<tr><td class="pls" rowspan="2"><div id="favatar${pid}" class="pls favatar"><div class="pi"><div class="authi"><a href="/home.php?mod=space&amp;uid=${author.uid}" target="_blank" class="xw1">${escapeHtml(author.screenName)}</a></div></div>
<div><div class="avatar"><a href="/home.php?mod=space&amp;uid=${author.uid}" class="avtm" target="_blank"><img src="/uc_server/avatar.php?uid=${author.uid}&amp;size=middle" /></a></div></div>
<div class="tns xg2"><table cellspacing="0" cellpadding="0"><th><p><a href="/home.php?mod=space&amp;uid=${author.uid}&amp;do=thread" class="xi2">${author.urank}</a></p>主题</th><td><p><a class="xi2">${author.urank * 13}</a></p>积分</td></table></div></div></td>
<td class="plc"><div class="pi"><strong><a href="${discuzThreadUrl(thread.tid, 1)}#pid${pid}" id="postnum${pid}"><em>${post.floor}</em><sup>#</sup></a></strong>
<div class="pti"><div class="authi"><img class="authicn vm" src="static/image/common/online_member.gif" /><em id="authorposton${pid}">${discuzPostedHtml(post.createdMs, nowMs)}</em><span class="pipe">|</span><a href="${discuzThreadUrl(thread.tid, 1)}" rel="nofollow">只看该作者</a></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_${pid}">
${quote}${body}</td></tr></table></div></div></div></td></tr>
<tr><td class="plc plm"><div class="sign">签名：${escapeHtml(author.description || '这个人很懒，什么都没有留下')}</div></td></tr>
<tr><td class="pls"></td><td class="plc"><div class="po hin"><div class="pob cl"><em><a class="fastre" href="/forum.php?mod=post&amp;action=reply&amp;tid=${thread.tid}&amp;repquote=${pid}">回复</a></em><p><a href="javascript:;">举报</a></p></div></div></td></tr>
</table></div>`;
}

export function discuzThreadPage(world: World, forum: ForumWorld, board: ForumBoard, thread: ForumThread, page: number, nowMs: number): string | null {
  const visible = forum.visiblePostCount(thread, nowMs);
  const pages = Math.max(1, Math.ceil(visible / FORUM_PAGE_SIZE));
  if (visible === 0 || page < 1 || page > pages) return null;
  const posts: string[] = [];
  for (let f = (page - 1) * FORUM_PAGE_SIZE + 1; f <= Math.min(visible, page * FORUM_PAGE_SIZE); f++) {
    posts.push(postHtml(world, forum, thread, forum.post(thread, f), nowMs));
  }
  const title = escapeHtml(thread.title);
  const pg = pager(page, pages, (p) => discuzThreadUrl(thread.tid, p));
  const crumbs = `<a href="${discuzBoardUrl(board.id, 1)}">${escapeHtml(board.name)}</a> <em>&rsaquo;</em> <a href="${discuzThreadUrl(thread.tid, 1)}">${title}</a>`;
  return shell(`${title} - ${escapeHtml(board.name)}`, crumbs, `<div id="ct" class="wp cl">
<div id="pgt" class="pgs mbm cl"><div class="pgt">${pg}</div><span class="y pgb"><a href="${discuzBoardUrl(board.id, 1)}">返回列表</a></span></div>
<div id="postlist" class="pl bm">
<table cellspacing="0" cellpadding="0"><tr><td class="pls ptn pbn"><div class="hm ptn"><span class="xg1">查看:</span> <span class="xi1">${visible * 37}</span><span class="pipe">|</span><span class="xg1">回复:</span> <span class="xi1">${visible - 1}</span></div></td>
<td class="plc ptm pbn vwthd"><h1 class="ts"><span id="thread_subject">${title}</span></h1></td></tr></table>
${posts.join('\n')}
</div>
<div class="pgs mtm mbm cl">${pg}<span class="pgb y"><a href="${discuzBoardUrl(board.id, 1)}">返回列表</a></span></div>
<div id="f_pst" class="pl bm bmw"><form method="post" action="/forum.php?mod=post&amp;action=reply&amp;tid=${thread.tid}"><textarea name="message" id="fastpostmessage"></textarea><button type="submit">发表回复</button></form></div>
</div>`);
}

export function discuzBoardPage(world: World, forum: ForumWorld, board: ForumBoard, page: number, nowMs: number): string | null {
  const threads = forum.activeThreads(board.id, nowMs);
  const perPage = 20;
  const pages = Math.max(1, Math.ceil(threads.length / perPage));
  if (page < 1 || page > pages) return null;
  const rows = threads.slice((page - 1) * perPage, page * perPage).map((t) => {
    const visible = forum.visiblePostCount(t, nowMs);
    const first = forum.post(t, 1);
    const author = world.users[first.authorIndex]!;
    const last = forum.post(t, visible);
    const lastAuthor = world.users[last.authorIndex]!;
    const threadPages = Math.ceil(visible / FORUM_PAGE_SIZE);
    // Discuz lists a multi-page thread's pages after its title: the first few and the last.
    const tps = threadPages < 2 ? '' : `<span class="tps">&nbsp;...${[...new Set([2, 3, 4, 5, 6, threadPages].filter((p) => p <= threadPages))]
      .map((p) => `<a href="${discuzThreadUrl(t.tid, p)}">${p}</a>`).join('')}</span>`;
    return `<tbody id="normalthread_${t.tid}"><tr><td class="icn"><a href="${discuzThreadUrl(t.tid, 1)}" target="_blank"><img src="static/image/common/folder_common.gif" /></a></td>
<th class="common"><a href="${discuzThreadUrl(t.tid, 1)}" onclick="atarget(this)" class="s xst">${escapeHtml(t.title)}</a>${tps}</th>
<td class="by"><cite><a href="/home.php?mod=space&amp;uid=${author.uid}">${escapeHtml(author.screenName)}</a></cite><em><span>${discuzDate(t.createdMs)}</span></em></td>
<td class="num"><a href="${discuzThreadUrl(t.tid, 1)}" class="xi2">${visible - 1}</a><em>${visible * 37}</em></td>
<td class="by"><cite><a href="/home.php?mod=space&amp;username=${encodeURIComponent(lastAuthor.screenName)}" c="1">${escapeHtml(lastAuthor.screenName)}</a></cite><em><a href="/forum.php?mod=redirect&amp;tid=${t.tid}&amp;goto=lastpost#lastpost">${discuzTimeHtml(last.createdMs, nowMs)}</a></em></td></tr></tbody>`;
  });
  const pg = pager(page, pages, (p) => discuzBoardUrl(board.id, p));
  return shell(escapeHtml(board.name), `<a href="${discuzBoardUrl(board.id, 1)}">${escapeHtml(board.name)}</a>`, `<div id="ct" class="wp cl">
<div class="bm bml pbn"><div class="bm_h cl"><h1 class="xs2"><a href="${discuzBoardUrl(board.id, 1)}">${escapeHtml(board.name)}</a></h1></div></div>
<div id="pgt" class="bm bw0 pgs cl">${pg}</div>
<div id="threadlist" class="tl bm bmw"><div class="bm_c"><table summary="forum_${board.id}" cellspacing="0" cellpadding="0" id="threadlisttableid">
${rows.join('\n')}
</table></div></div>
<div class="bm bw0 pgs cl">${pg}</div></div>`);
}
