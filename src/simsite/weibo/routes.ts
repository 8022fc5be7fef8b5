import type { SimComment } from '../comments';
import { commentsOf } from '../comments';
import type { SimRequest, SimResponse } from '../http-types';
import { htmlResponse, jsonResponse, ok0, rawJsonResponse } from '../http-types';
import { bidToMid } from '../ids';
import { findPostByMid, type SimPost } from '../posts';
import { tokensToHtml } from '../text/compose';
import type { SimUser } from '../users';
import type { World } from '../world';
import { eraFormat, type Era, type EraFormat } from './era';
import { goneHtml, goneJson } from './gone';
import type { GoneKind, RestrictionKind } from '../lifecycle';
import { accountGone } from '../world';
import { mblogJson } from './objects';
import { ResponseCache } from '../response-cache';
import { RenderCache } from './render-cache';
import { timelineResponse } from './timeline';

export interface WeiboOptions {
  era: Era;
  timelinePageSize: number;
  timelineCapPages: number;
  fansPageSize: number;
  /** Fans and follows lists end silently after this many items. */
  fansCapItems: number;
  commentsPageSize: number;
  /** Real ms a rendered list page may be reused while its content version is unchanged (0 = never). */
  responseCacheMs: number;
  /** Memory bound of that cache. */
  responseCacheMaxBytes: number;
  /** Hot-flow comments of posts older than this answer 403 to clients without a SUB cookie (null = never). */
  hotflowCookieAfterDays: number | null;
  /** Print counts of a million or more as "100万+" in every era (the modern site's number_display_strategy). */
  countFloors: boolean;
}

export const DEFAULT_WEIBO_OPTIONS: WeiboOptions = {
  era: 'modern2022',
  timelinePageSize: 10,
  timelineCapPages: 200,
  fansPageSize: 20,
  fansCapItems: 5000,
  commentsPageSize: 20,
  responseCacheMs: 10_000,
  responseCacheMaxBytes: 256 * 1024 * 1024,
  hotflowCookieAfterDays: null,
  countFloors: false,
};

/** The hot-flow cursor: an opaque large int that encodes the next offset; 0 ends the flow. */
const CURSOR_BASE = 138_621_427_296_400;

function intParam(q: URLSearchParams, name: string): number | null {
  const v = q.get(name);
  if (v === null || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

export class WeiboSite {
  private readonly fmt: EraFormat;
  private readonly render: RenderCache;
  private readonly cache: ResponseCache;
  private visitors = 0;
  constructor(private readonly world: World, readonly options: WeiboOptions) {
    this.fmt = eraFormat(options.era, { countFloors: options.countFloors });
    this.render = new RenderCache(world, this.fmt);
    // With a lifecycle, pages change when posts go or are edited, which the content version does not see.
    this.cache = new ResponseCache(world.lifecycle ? 0 : options.responseCacheMs, options.responseCacheMaxBytes);
  }

  /**
   * What a getIndex page shows changes when its user's visible post count does (timeline, profile),
   * and with the clock's minute in the eras that print relative dates. Lists of users are static.
   */
  private version(req: SimRequest): string | null {
    const q = req.query;
    const containerid = q.get('containerid') ?? '';
    const uidText = /(\d{6,12})(?:_-_INFO)?$/.exec(containerid)?.[1] ?? q.get('value');
    let uid = uidText;
    if (/^(107603|230413|100505|230283)\d+/.test(containerid)) uid = containerid.slice(6).replace('_-_INFO', '');
    const user = this.userOf(uid);
    if (!user) return null;
    const minute = this.fmt.era === 'modern2022' ? '' : `|${Math.floor(req.nowMs / 60_000)}`;
    return `${this.world.postCountAt(user.index, req.nowMs)}${minute}`;
  }

  private cachedGetIndex(req: SimRequest): SimResponse {
    if (!this.cache.enabled) return this.getIndex(req);
    const version = this.version(req);
    if (version === null) return this.getIndex(req);
    const hit = this.cache.get(req.url, version, req.realMs);
    if (hit) return hit;
    return this.cache.put(req.url, version, req.realMs, this.getIndex(req));
  }

  handle(req: SimRequest): SimResponse | null {
    switch (req.pathname) {
      case '/api/container/getIndex':
      case '/container/getIndex':
        return this.cachedGetIndex(req);
      case '/api/container/getSecond':
        return this.getIndex(req);
      case '/statuses/extend':
        return this.extend(req);
      case '/statuses/show':
        return this.show(req);
      case '/comments/hotflow':
        return this.hotflow(req);
      case '/api/comments/show':
        return this.commentsShow(req);
      case '/api/config':
        return jsonResponse({ ok: 1, data: { login: false, st: '', uid: '' } });
      case '/visitor/genvisitor2':
        return this.visitor(req);
      default:
        if (req.pathname.startsWith('/detail/') || req.pathname.startsWith('/status/')) return this.detail(req);
        return null;
    }
  }

  private userOf(uidText: string | null | undefined): SimUser | undefined {
    if (!uidText || !/^\d{1,12}$/.test(uidText)) return undefined;
    return this.world.userByUid(Number(uidText));
  }

  private getIndex(req: SimRequest): SimResponse {
    const q = req.query;
    const containerid = q.get('containerid') ?? '';
    const now = req.nowMs;
    let m: RegExpExecArray | null;
    if ((m = /^231051_-_(fans|followers)_-_(\d+)$/.exec(containerid))) {
      const user = this.userOf(m[2]);
      if (!user) return ok0();
      const page = intParam(q, 'since_id') ?? intParam(q, 'page') ?? 1;
      return this.userList(user, m[1] === 'fans' ? 'fans' : 'follows', containerid, page, now);
    }
    if ((m = /^230283(\d+)_-_INFO$/.exec(containerid))) {
      const user = this.userOf(m[1]);
      return user ? this.info(user) : ok0();
    }
    if ((m = /^(107603|230413)(\d+)$/.exec(containerid))) {
      const user = this.userOf(m[2]);
      if (!user) return ok0();
      const sinceId = q.get('since_id');
      const count = intParam(q, 'count');
      return timelineResponse(this.world, user, {
        containerid,
        page: intParam(q, 'page'),
        sinceId: sinceId === null || sinceId === '' ? null : sinceId,
        pageSize: count !== null && count > 0 && count <= 50 ? count : this.options.timelinePageSize,
        capPages: this.options.timelineCapPages,
      }, now, this.fmt, this.render);
    }
    if ((m = /^100505(\d+)$/.exec(containerid)) || (containerid === '' && q.get('type') === 'uid')) {
      const user = this.userOf(m ? m[1] : q.get('value'));
      return user ? this.profile(user, now) : ok0();
    }
    return ok0();
  }

  private profile(user: SimUser, now: number): SimResponse {
    if (accountGone(this.world, user.index, now)) return ok0();
    const uid = user.uid;
    const lfid = `100505${uid}`;
    return jsonResponse(this.fmt.wrap({
      isVideoCoverStyle: 0,
      isStarStyle: 0,
      userInfo: JSON.parse(this.render.userString(user.index, now)) as unknown,
      fans_scheme: `https://m.weibo.cn/p/index?containerid=231051_-_fans_intimacy_-_${uid}&luicode=10000011&lfid=${lfid}`,
      follow_scheme: `https://m.weibo.cn/p/index?containerid=231051_-_followersrecomm_-_${uid}&luicode=10000011&lfid=${lfid}`,
      tabsInfo: {
        selectedTab: 1,
        tabs: [
          { id: 1, tabKey: 'profile', must_show: 1, hidden: 0, title: '主页', tab_type: 'profile', containerid: `230283${uid}` },
          {
            id: 2, tabKey: 'weibo', must_show: 1, hidden: 0, title: '微博', tab_type: 'weibo',
            containerid: this.fmt.era === 'modern2022' ? `230413${uid}` : `107603${uid}`, apipath: '/profile/statuses',
          },
        ],
      },
      scheme: `sinaweibo://userinfo?uid=${uid}`,
      showAppTips: 1,
    }));
  }

  private info(user: SimUser): SimResponse {
    const reg = new Date(user.registeredMs + 8 * 3_600_000).toISOString().slice(0, 10);
    return jsonResponse(this.fmt.wrap({
      cards: [
        {
          card_type: 11,
          card_group: [
            { card_type: 41, item_name: '所在地', item_content: `${user.province} ${user.city}` },
            { card_type: 41, item_name: 'IP属地', item_content: user.province },
          ],
        },
        { card_type: 11, card_group: [{ card_type: 41, item_name: '注册时间', item_content: reg }] },
      ],
    }));
  }

  private userList(user: SimUser, which: 'fans' | 'follows', containerid: string, page: number, now: number): SimResponse {
    const list = which === 'fans' ? this.world.fansOf(user.index) : this.world.followeesOf(user.index);
    const size = this.options.fansPageSize;
    const visibleCount = Math.min(list.length, this.options.fansCapItems);
    const start = (Math.max(1, page) - 1) * size;
    const end = Math.min(visibleCount, start + size);
    if (start >= end) return ok0();
    const group: string[] = [];
    for (let i = start; i < end; i++) {
      const fan = this.world.users[list[i]!]!;
      const uj = this.render.userString(fan.index, now);
      const desc2 = JSON.stringify(`粉丝：${String(this.fmt.count(this.world.followersCount(fan.index)))}`);
      // The slim fan object adds avatar_large (= profile_image_url) to the §1.3 user.
      const avatar = /"profile_image_url":("[^"]*")/.exec(uj)?.[1] ?? '""';
      group.push(`{"card_type":10,"itemid":"2310510033_1_ _${fan.uid}","scheme":"https://m.weibo.cn/u/${fan.uid}?uid=${fan.uid}","desc1":${JSON.stringify(fan.description)},"desc2":${desc2},"user":${uj.slice(0, -1)},"avatar_large":${avatar}},"buttons":[{"type":"follow","sub_type":0,"name":"关注","params":{"uid":${fan.uid},"need_follow":1}}]}`);
    }
    const more = end < visibleCount;
    const info: Record<string, unknown> = {
      containerid, v_p: 42, show_style: 1, title_top: which === 'fans' ? '他的粉丝' : '他的关注', page_type: '03',
    };
    // The fans cursor is a page counter; the modern site sends it as a string.
    if (more) info.since_id = this.fmt.era === 'modern2022' ? String(page + 1) : page + 1;
    const title = which === 'fans' ? '他的全部粉丝' : '全部关注';
    const inner = `"cardlistInfo":${JSON.stringify(info)},"cards":[{"card_type":11,"title":"${title}","itemid":"2310510033_1_ _${user.uid}","show_type":1,"card_group":[${group.join(',')}]}],"scheme":"sinaweibo://cardlist?containerid=${containerid}"`;
    return rawJsonResponse(this.fmt.era === 'legacy2017' ? `{"ok":1,${inner}}` : `{"ok":1,"data":{${inner}}}`);
  }

  /** A post by mid or bid, only once it is published. */
  private postOf(idText: string | null, now: number): SimPost | null {
    if (!idText) return null;
    const mid = /^\d+$/.test(idText) ? idText : bidToMid(idText);
    if (!mid) return null;
    const post = findPostByMid(this.world, mid);
    return post && post.createdMs <= now ? post : null;
  }

  /** Why a published post cannot be seen at `now` (lifecycle), or null. */
  private goneOf(post: SimPost, now: number): { kind: GoneKind | 'account_gone'; restriction: RestrictionKind | null } | null {
    const lc = this.world.lifecycle;
    if (!lc) return null;
    if (accountGone(this.world, post.userIndex, now)) return { kind: 'account_gone', restriction: null };
    const kind = lc.goneAt(post, now);
    return kind ? { kind, restriction: lc.of(post).restriction } : null;
  }

  private extend(req: SimRequest): SimResponse {
    const post = this.postOf(req.query.get('id'), req.nowMs);
    if (!post) return ok0();
    const gone = this.goneOf(post, req.nowMs);
    if (gone) return goneJson(gone.kind, gone.restriction);
    const tokens = this.world.lifecycle ? this.world.lifecycle.versionAt(post, req.nowMs).tokens : post.tokens;
    return jsonResponse({
      ok: 1,
      data: {
        ok: 1,
        longTextContent: tokensToHtml(tokens),
        reposts_count: this.fmt.count(post.repostsCount),
        comments_count: this.fmt.count(post.commentsCount),
        attitudes_count: this.fmt.count(post.attitudesCount),
      },
    });
  }

  private show(req: SimRequest): SimResponse {
    const post = this.postOf(req.query.get('id'), req.nowMs);
    if (!post) return ok0();
    const gone = this.goneOf(post, req.nowMs);
    if (gone) return goneJson(gone.kind, gone.restriction);
    return jsonResponse({ ok: 1, data: mblogJson(this.world, post, req.nowMs, this.fmt, { fullText: true }) });
  }

  private detail(req: SimRequest): SimResponse {
    const id = req.pathname.split('/')[2] ?? '';
    const post = this.postOf(id, req.nowMs);
    if (!post) return htmlResponse('<!DOCTYPE html><html><body>这里还没有内容</body></html>', 'text/html; charset=utf-8', 404);
    const gone = this.goneOf(post, req.nowMs);
    if (gone) return goneHtml(gone.kind, gone.restriction);
    const status = mblogJson(this.world, post, req.nowMs, this.fmt, { fullText: true });
    const render = JSON.stringify([{ status, hotScheme: `sinaweibo://detail?mblogid=${post.bid}`, appScheme: '', call: 1 }]);
    return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>微博正文</title></head><body><div id="app"></div><script>
var $render_data = ${render}[0] || {};
</script></body></html>`);
  }

  private commentJson(c: SimComment, now: number): Record<string, unknown> {
    const user = this.world.users[c.userIndex]!;
    return {
      id: c.id,
      rootid: c.id,
      created_at: this.fmt.date(c.createdMs, now),
      text: tokensToHtml(c.tokens),
      like_count: c.likeCount,
      source: c.source,
      total_number: c.replies.length,
      user: {
        id: user.uid, screen_name: user.screenName, gender: user.gender,
        profile_url: `https://m.weibo.cn/u/${user.uid}`,
        profile_image_url: `https://tvax1.sinaimg.cn/crop.0.0.996.996.180/006${user.uid.toString(36)}.jpg`,
      },
      comments: c.replies.length === 0 ? false : c.replies.filter((r) => r.createdMs <= now).map((r) => ({
        id: r.id, rootid: c.id, created_at: this.fmt.date(r.createdMs, now), text: tokensToHtml(r.tokens),
        like_count: r.likeCount, source: r.source,
        user: { id: this.world.users[r.userIndex]!.uid, screen_name: this.world.users[r.userIndex]!.screenName, gender: this.world.users[r.userIndex]!.gender },
      })),
    };
  }

  private visibleComments(post: SimPost, now: number): SimComment[] {
    return commentsOf(this.world, post).filter((c) => c.createdMs <= now);
  }

  /** The visitor-cookie handshake: JSONP with sub/subp and the SUB/SUBP cookies (a fresh identity per call). */
  private visitor(req: SimRequest): SimResponse {
    this.visitors++;
    const sub = `_2AkM${(this.world.seed >>> 0).toString(36)}v${this.visitors.toString(36).padStart(6, '0')}`;
    const subp = `0033WrSXqPxfM72-Ws9jqgMF55529P9D9W${this.visitors.toString(36)}`;
    const cb = req.query.get('cb') ?? 'visitor_callback';
    return {
      status: 200,
      headers: {
        'content-type': 'application/javascript; charset=utf-8',
        'set-cookie': `SUB=${sub}; path=/; domain=.weibo.cn; httponly, SUBP=${subp}; path=/; domain=.weibo.cn`,
      },
      body: `window.${cb} && ${cb}(${JSON.stringify({ retcode: 20000000, msg: 'succ', data: { sub, subp } })});`,
      kind: 'text',
    };
  }

  private hotflow(req: SimRequest): SimResponse {
    const post = this.postOf(req.query.get('id') ?? req.query.get('mid'), req.nowMs);
    if (!post || this.goneOf(post, req.nowMs)) return jsonResponse({ ok: 0, error_code: 20101 });
    const limitDays = this.options.hotflowCookieAfterDays;
    if (limitDays !== null && req.nowMs - post.createdMs > limitDays * 86_400_000 && !/(?:^|;\s*)SUB=/.test(req.headers.cookie ?? '')) {
      return { status: 403, headers: { 'content-type': 'text/html' }, body: '', kind: 'empty' };
    }
    const all = this.visibleComments(post, req.nowMs);
    const cursor = intParam(req.query, 'max_id');
    const offset = cursor && cursor > CURSOR_BASE ? cursor - CURSOR_BASE : 0;
    const page = all.slice(offset, offset + this.options.commentsPageSize);
    if (page.length === 0) return jsonResponse({ ok: 0, error_code: 20101 });
    const next = offset + page.length;
    return jsonResponse({
      ok: 1,
      data: {
        data: page.map((c) => this.commentJson(c, req.nowMs)),
        total_number: post.commentsCount,
        max_id: next < all.length ? CURSOR_BASE + next : 0,
        max_id_type: 0,
      },
    });
  }

  private commentsShow(req: SimRequest): SimResponse {
    const post = this.postOf(req.query.get('id'), req.nowMs);
    if (!post || this.goneOf(post, req.nowMs)) return ok0();
    const all = this.visibleComments(post, req.nowMs).slice(0, 50);
    const size = 10;
    const page = intParam(req.query, 'page') ?? 1;
    const items = all.slice((page - 1) * size, page * size);
    if (items.length === 0) return ok0();
    return jsonResponse({
      ok: 1,
      data: { data: items.map((c) => this.commentJson(c, req.nowMs)), total_number: post.commentsCount, max: Math.ceil(all.length / size) },
    });
  }
}
