import type { SimRequest, SimResponse } from '../http-types';
import { htmlResponse, jsonResponse } from '../http-types';
import type { World } from '../world';
import type { ForumThread, ForumWorld } from './forum-world';

/**
 * Script-loaded thread pages (`/ajax/`): the HTML is an empty shell and a script fills it from the
 * JSON API, as AJAX forums do. A plain fetch sees no posts; a browser that runs the script sees
 * every one. The posts are those of the forum world's threads, so the ground truth is exact.
 */
export const AJAX_MAX_POSTS = 30;
const INDEX_PAGE_SIZE = 20;

export const ajaxThreadUrl = (tid: number): string => `/ajax/thread-${tid}.html`;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Runs in the page: fetch the posts, then render them. The image, font and media it references are
 * what a renderer should block; none of them is needed for the text.
 */
const APP_JS = `(function () {
  var root = document.getElementById('posts');
  var tid = root.getAttribute('data-tid');
  fetch('/ajax/api/thread/' + tid + '/posts', { headers: { accept: 'application/json' } })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (data) {
      document.getElementById('title').textContent = data.title;
      data.posts.forEach(function (p) {
        var el = document.createElement('article');
        el.className = 'post';
        el.setAttribute('data-pid', String(p.pid));
        var h = document.createElement('header');
        h.setAttribute('data-pid', String(p.pid));
        var a = document.createElement('span'); a.className = 'author'; a.textContent = p.author;
        var t = document.createElement('time'); t.setAttribute('datetime', p.created_at); t.textContent = p.created_at;
        h.appendChild(a); h.appendChild(t); el.appendChild(h);
        var c = document.createElement('div'); c.className = 'content';
        p.paragraphs.forEach(function (s) { var q = document.createElement('p'); q.textContent = s; c.appendChild(q); });
        el.appendChild(c);
        root.appendChild(el);
      });
      root.setAttribute('data-state', 'loaded');
    })
    .catch(function (e) { root.setAttribute('data-state', 'error'); root.textContent = String(e); });
})();
`;

function threadShell(t: ForumThread): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Thread ${t.tid}</title>
<link rel="preload" href="/ajax/static/font.woff2" as="font" type="font/woff2" crossorigin>
<style>@font-face{font-family:sim;src:url(/ajax/static/font.woff2) format("woff2")} body{font-family:sim,sans-serif}</style>
</head><body><img class="banner" src="/ajax/static/banner.png" alt=""><h1 id="title"></h1>
<div id="posts" data-tid="${t.tid}" data-state="loading"></div>
<video src="/ajax/static/intro.mp4" autoplay muted></video>
<script src="/ajax/app.js"></script></body></html>`;
}

export class AjaxSite {
  constructor(private readonly world: World, private readonly forum: ForumWorld) {}

  /** Threads with at least one visible post, in tid order (what the index lists). */
  threads(nowMs: number): ForumThread[] {
    const out: ForumThread[] = [];
    for (const b of this.forum.boards) {
      for (const tid of this.forum.threadIds(b.id)) {
        const t = this.forum.thread(tid)!;
        if (this.forum.visiblePostCount(t, nowMs) > 0) out.push(t);
      }
    }
    return out;
  }

  /** The posts the API serves for a thread at `nowMs` (the first AJAX_MAX_POSTS visible ones). */
  posts(t: ForumThread, nowMs: number): Array<{ pid: number; floor: number; author: string; createdMs: number; paragraphs: string[]; text: string }> {
    const n = Math.min(AJAX_MAX_POSTS, this.forum.visiblePostCount(t, nowMs));
    const out = [];
    for (let f = 1; f <= n; f++) {
      const p = this.forum.post(t, f);
      out.push({ pid: p.pid, floor: f, author: this.world.users[p.authorIndex]!.screenName, createdMs: p.createdMs, paragraphs: p.paragraphs, text: p.text });
    }
    return out;
  }

  handle(req: SimRequest): SimResponse | null {
    const p = req.pathname;
    if (!p.startsWith('/ajax/')) return null;
    const now = req.nowMs;
    let m: RegExpExecArray | null;
    if ((m = /^\/ajax\/thread-(\d+)\.html$/.exec(p))) {
      const t = this.forum.thread(Number(m[1]));
      return t && t.createdMs <= now ? htmlResponse(threadShell(t)) : notFound();
    }
    if ((m = /^\/ajax\/api\/thread\/(\d+)\/posts$/.exec(p))) {
      const t = this.forum.thread(Number(m[1]));
      if (!t || t.createdMs > now) return jsonResponse({ error: 'not found' }, 404);
      const posts = this.posts(t, now).map((x) => ({ pid: x.pid, floor: x.floor, author: x.author, created_at: new Date(x.createdMs).toISOString(), paragraphs: x.paragraphs }));
      return jsonResponse({ tid: t.tid, title: t.title, posts });
    }
    if (p === '/ajax/app.js') return { status: 200, headers: { 'content-type': 'application/javascript; charset=utf-8' }, body: APP_JS, kind: 'text' };
    if (p === '/ajax/' || p === '/ajax/index.html') {
      const page = Math.max(1, Number(req.query.get('page') ?? '1') || 1);
      const all = this.threads(now);
      const slice = all.slice((page - 1) * INDEX_PAGE_SIZE, page * INDEX_PAGE_SIZE);
      if (slice.length === 0 && page > 1) return notFound();
      const items = slice.map((t) => `<li><a class="thread" href="${ajaxThreadUrl(t.tid)}">${escapeHtml(t.title)}</a></li>`).join('');
      const next = page * INDEX_PAGE_SIZE < all.length ? `<a class="next" href="/ajax/?page=${page + 1}">next</a>` : '';
      return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Script forum</title></head><body><ul class="threads">${items}</ul>${next}</body></html>`);
    }
    // Static assets (banner, font, video) do not exist: a renderer that blocks them never asks.
    return notFound();
  }
}

const notFound = (): SimResponse => htmlResponse('<!DOCTYPE html><html><head><meta charset="utf-8"><title>404</title></head><body><h1>Not found</h1></body></html>', 'text/html; charset=utf-8', 404);

/** Ground truth of the script-loaded posts (`/_truth/ajax/posts[?thread=TID]`). */
export function* ajaxPostTruth(site: AjaxSite, forum: ForumWorld, nowMs: number, tid: number | null): Generator<Record<string, unknown>> {
  const threads = tid === null ? site.threads(nowMs) : [forum.thread(tid)].filter((t): t is ForumThread => t !== undefined && t.createdMs <= nowMs);
  for (const t of threads) {
    for (const p of site.posts(t, nowMs)) {
      yield { pid: p.pid, tid: t.tid, floor: p.floor, author: p.author, createdMs: p.createdMs, createdAt: new Date(p.createdMs).toISOString(), text: p.text, url: ajaxThreadUrl(t.tid) };
    }
  }
}
