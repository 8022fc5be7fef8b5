import type { SimRequest, SimResponse } from './http-types';
import { jsonResponse } from './http-types';
import type { SimUser } from './users';
import type { World } from './world';

/** Q&A members API (spec §2: zhihu v4, 2017-era shape). */
export interface QaOptions {
  /** Offsets at or past this return an empty page (deep paging is capped, silently). */
  offsetCap: number;
  /** The MediaCrawler quirk: on the last page is_end stays false and next points at the same offset. */
  isEndStuck: boolean;
}

export const DEFAULT_QA_OPTIONS: QaOptions = { offsetCap: 5000, isEndStuck: false };

const INCLUDABLE = [
  'answer_count', 'articles_count', 'follower_count', 'following_count', 'is_followed', 'is_following',
  'voteup_count', 'thanked_count', 'question_count', 'favorited_count', 'locations', 'employments', 'educations', 'business',
];

export class QaSite {
  constructor(private readonly world: World, private readonly options: QaOptions) {}

  handle(req: SimRequest): SimResponse | null {
    const m = /^\/api\/v4\/members\/([^/]+)(?:\/(followees|followers))?$/.exec(req.pathname);
    if (!m) return null;
    let token: string;
    try {
      token = decodeURIComponent(m[1]!);
    } catch {
      token = m[1]!;
    }
    const user = this.world.userByToken(token);
    if (!user) return jsonResponse({ error: { code: 404, name: 'NotFoundError', message: '用户不存在' } }, 404);
    const include = req.query.get('include') ?? '';
    if (!m[2]) return jsonResponse(this.member(user, include, true));
    return this.list(req, user, m[2] as 'followees' | 'followers', include);
  }

  private member(user: SimUser, include: string, profile: boolean): Record<string, unknown> {
    const avatar = `https://pic3.zhimg.com/v2-${user.hexId}`;
    const o: Record<string, unknown> = {
      id: user.hexId,
      url_token: user.urlToken,
      name: user.screenName,
      headline: user.headline,
      gender: user.gender === 'm' ? 1 : 0,
      type: 'people',
      user_type: 'people',
      is_org: false,
      is_advertiser: false,
      url: `https://www.zhihu.com/api/v4/people/${user.hexId}`,
      avatar_url: `${avatar}_is.jpg`,
      avatar_url_template: `${avatar}_{size}.jpg`,
      use_default_avatar: false,
      badge: [],
      vip_info: { is_vip: user.mbrank > 3, rename_days: '60' },
      is_realname: user.verified,
    };
    const u = user.index;
    const values: Record<string, unknown> = {
      answer_count: user.answerCount,
      articles_count: user.articlesCount,
      follower_count: this.world.fanCount(u),
      following_count: this.world.followeesOf(u).length,
      is_followed: false,
      is_following: false,
      voteup_count: user.answerCount * 7,
      thanked_count: user.answerCount * 2,
      question_count: Math.floor(user.answerCount / 3),
      favorited_count: user.answerCount,
      locations: [{ name: user.province, type: 'topic' }],
      employments: [],
      educations: [],
      business: { name: '互联网', type: 'topic' },
    };
    // `include` adds fields; the profile call answers a few of them regardless.
    for (const k of INCLUDABLE) if (include.includes(k) || (profile && k.endsWith('_count'))) o[k] = values[k];
    return o;
  }

  private list(req: SimRequest, user: SimUser, which: 'followees' | 'followers', include: string): SimResponse {
    const q = req.query;
    const offset = Math.max(0, Math.floor(Number(q.get('offset') ?? 0)) || 0);
    const limitRaw = Math.floor(Number(q.get('limit') ?? 20)) || 20;
    const limit = Math.min(Math.max(1, limitRaw), 20);
    const all = which === 'followees' ? this.world.followeesOf(user.index) : this.world.fansOf(user.index);
    const reachable = Math.min(all.length, this.options.offsetCap);
    const end = Math.min(reachable, offset + limit);
    const data: Record<string, unknown>[] = [];
    for (let i = offset; i < end; i++) data.push(this.member(this.world.users[all[i]!]!, include, false));
    let isEnd = end >= reachable;
    let nextOffset = offset + limit;
    if (isEnd && this.options.isEndStuck && data.length > 0) {
      isEnd = false;
      nextOffset = offset;
    }
    const base = `http://${req.headers.host ?? 'www.zhihu.com'}/api/v4/members/${user.urlToken}/${which}`;
    const qs = (o: number): string => `${base}?include=${encodeURIComponent(include)}&limit=${limit}&offset=${o}`;
    return jsonResponse({
      paging: {
        is_end: isEnd,
        is_start: offset === 0,
        // `next` is always present, even past the end: only is_end is reliable.
        next: qs(nextOffset),
        previous: qs(Math.max(0, offset - limit)),
        totals: all.length,
      },
      data,
    });
  }
}
