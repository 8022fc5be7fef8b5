import type { Doc } from '../../core/envelope';
import { isoTime } from '../../core/iso-time';
import { parseCount, readCount } from './counts';
import { parseWeiboDateMs } from './dates';
import { mediaOf } from './media';
import { stubStatus } from './post-status';
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

/** The three counters with the names of those the site printed only as a floor (`"100万+"`). */
function countsOf(m: Mblog): { counts: Record<string, number | undefined>; lowerBound: string[] } {
  const counts: Record<string, number | undefined> = {};
  const lowerBound: string[] = [];
  for (const [name, raw] of [['reposts', m.reposts_count], ['comments', m.comments_count], ['likes', m.attitudes_count]] as const) {
    const r = readCount(raw);
    counts[name] = r?.value;
    if (r?.atLeast) lowerBound.push(name);
  }
  return { counts, lowerBound };
}

/**
 * `createdMs`: parseWeiboDateMs of `m.created_at`, which the caller also needs (not read back from the ISO string);
 * `crawledAt`: the ISO form of `atMs`, formatted once per page by the caller (every post of a page shares it).
 * The document is seen live: `status: active`, `last_seen_at` = now. Media, edits and count floors are kept.
 */
export function postDoc(id: string, m: Mblog, html: string, uid: string, atMs: number, base: string, subject: string, createdMs = parseWeiboDateMs(m.created_at, atMs), crawledAt = isoTime(atMs)): Doc {
  const clean = postHtmlToText(html);
  const u = m.user ?? undefined;
  const original = m.retweeted_status ?? undefined;
  const repostOf = original ? String(original.id ?? original.mid ?? '') : '';
  const { counts, lowerBound } = countsOf(m);
  const media = mediaOf(m);
  const editCount = parseCount(m.edit_count);
  const editedMs = editCount ? parseWeiboDateMs(m.edit_at, atMs) : undefined;
  const visibleType = typeof m.visible?.type === 'number' ? m.visible.type : undefined;
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
      counts,
      counts_lower_bound: lowerBound.length > 0 ? lowerBound : undefined,
      repost_of: repostOf || undefined,
      // The original of a repost can be gone while the repost stays (its stub has no author).
      repost_of_status: original ? (stubStatus(original) ?? undefined) : undefined,
      media: media.pictures.length > 0 || media.video || media.picture_count > 0 ? media : undefined,
      visibility: visibleType !== undefined && visibleType !== 0 ? visibleType : undefined,
      edit_count: editCount || undefined,
      edited_at: editedMs === undefined ? undefined : isoTime(editedMs),
      status: 'active',
      last_seen_at: crawledAt,
    },
  };
}

export function metricsDoc(id: string, m: Mblog, atMs: number): Doc {
  const { counts, lowerBound } = countsOf(m);
  return {
    index: 'post-metrics',
    id: `${PLATFORM}:${id}:${atMs}`,
    body: { platform: PLATFORM, post_id: id, at: isoTime(atMs), ...counts, lower_bound: lowerBound.length > 0 ? lowerBound : undefined },
  };
}
