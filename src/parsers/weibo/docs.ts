import type { Doc } from '../../core/envelope';
import { isoTime } from '../../core/iso-time';
import { parseCount } from './counts';
import { parseWeiboDateMs } from './dates';
import type { Mblog, WeiboUser } from './shapes';
import { parseRegion, postHtmlToText } from './text';

/** Documents of design §7 from the microblog API's objects. Ids stay strings (they exceed 2^53). */
const PLATFORM = 'weibo';

/** `status`: `zombie` for users recorded from a fans list but never scheduled. */
export function userDoc(uid: string, u: WeiboUser, atMs: number, subject: string, status: 'active' | 'zombie' = 'active'): Doc {
  return {
    index: 'users',
    id: `${PLATFORM}:${uid}`,
    body: {
      platform: PLATFORM, id: uid, subject,
      screen_name: u.screen_name, gender: u.gender, description: u.description,
      verified: u.verified === true, verified_reason: u.verified_reason || undefined,
      followers_count: parseCount(u.followers_count), follow_count: parseCount(u.follow_count),
      statuses_count: parseCount(u.statuses_count), crawled_at: isoTime(atMs), status,
    },
  };
}

/**
 * `createdMs`: parseWeiboDateMs of `m.created_at`, which the caller also needs (not read back from the ISO string);
 * `crawledAt`: the ISO form of `atMs`, formatted once per page by the caller (every post of a page shares it).
 */
export function postDoc(id: string, m: Mblog, html: string, uid: string, atMs: number, base: string, subject: string, createdMs = parseWeiboDateMs(m.created_at, atMs), crawledAt = isoTime(atMs)): Doc {
  const clean = postHtmlToText(html);
  const u = m.user ?? undefined;
  const repostOf = m.retweeted_status ? String(m.retweeted_status.id ?? m.retweeted_status.mid ?? '') : '';
  return {
    index: 'posts',
    id: `${PLATFORM}:${id}`,
    body: {
      platform: PLATFORM, id, subject, url: `${base}/detail/${id}`,
      author: {
        id: String(u?.id ?? uid), name: u?.screen_name, followers: parseCount(u?.followers_count),
        verified: u?.verified === true, gender: u?.gender,
      },
      text: clean.text, hashtags: clean.hashtags, mentions: clean.mentions, links: clean.links,
      created_at: createdMs === undefined ? undefined : isoTime(createdMs),
      crawled_at: crawledAt,
      source: m.source || undefined, region: parseRegion(m.region_name),
      counts: { reposts: parseCount(m.reposts_count), comments: parseCount(m.comments_count), likes: parseCount(m.attitudes_count) },
      repost_of: repostOf || undefined,
    },
  };
}

export function metricsDoc(id: string, m: Mblog, atMs: number): Doc {
  return {
    index: 'post-metrics',
    id: `${PLATFORM}:${id}:${atMs}`,
    body: {
      platform: PLATFORM, post_id: id, at: isoTime(atMs),
      reposts: parseCount(m.reposts_count), comments: parseCount(m.comments_count), likes: parseCount(m.attitudes_count),
    },
  };
}
