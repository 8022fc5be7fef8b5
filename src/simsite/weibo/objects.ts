import type { PostLife } from '../lifecycle';
import type { SimPost } from '../posts';
import { LONG_TEXT_CHARS } from '../posts';
import { plainLength, tokensToHtml, truncatedHtml, type Token } from '../text/compose';
import { goneText } from './gone';
import { statusesCount } from './visible';
import type { SimUser } from '../users';
import type { World } from '../world';
import type { EraFormat } from './era';

/** Image names derived from the uid, so avatars are stable and distinct. */
function imageKey(uid: number, salt: string): string {
  return `${salt}${uid.toString(36)}j20u00u0`;
}

/** The user object of spec §1.3 (profile userInfo, the `user` of each post, fans items). */
export function userJson(world: World, user: SimUser, nowMs: number, fmt: EraFormat): Record<string, unknown> {
  const uid = user.uid;
  const followers = world.followersCount(user.index);
  const o: Record<string, unknown> = {
    id: uid,
    screen_name: user.screenName,
    profile_image_url: `https://tvax1.sinaimg.cn/crop.0.0.996.996.180/${imageKey(uid, '006')}.jpg`,
    profile_url: `https://m.weibo.cn/u/${uid}?uid=${uid}&luicode=10000011&lfid=100505${uid}`,
    statuses_count: statusesCount(world, user.index, nowMs),
    verified: user.verified,
    verified_type: user.verifiedType,
    close_blue_v: false,
    description: user.description,
    gender: user.gender,
    mbtype: user.mbtype,
    urank: user.urank,
    mbrank: user.mbrank,
    follow_me: false,
    following: false,
    followers_count: fmt.count(followers),
    follow_count: world.followeesOf(user.index).length,
    cover_image_phone: `https://tva2.sinaimg.cn/crop.0.0.640.640.640/${imageKey(uid, '9b1')}.jpg`,
    avatar_hd: `https://wx1.sinaimg.cn/orj480/${imageKey(uid, '006')}.jpg`,
    like: false,
    like_me: false,
  };
  if (user.verified) {
    o.verified_type_ext = 1;
    o.verified_reason = user.verifiedReason;
  }
  if (fmt.era === 'modern2022') o.followers_count_str = String(fmt.count(followers));
  return o;
}

/** The ids of the pictures a list shows (at most nine of picNum). */
export function picIdsOf(post: SimPost): string[] {
  const shown = Math.min(post.picNum, 9);
  const ids: string[] = [];
  for (let i = 0; i < shown; i++) ids.push(`006${post.bid}${i}ly1h4mzukh3pgj30u0190`);
  return ids;
}

function picsJson(post: SimPost): Record<string, unknown> {
  const ids = picIdsOf(post);
  const shown = ids.length;
  const o: Record<string, unknown> = { pic_ids: ids, pic_num: post.picNum };
  if (shown > 0) {
    o.pics = ids.map((pid) => ({
      pid,
      url: `https://wx1.sinaimg.cn/orj360/${pid}.jpg`,
      size: 'orj360',
      geo: { width: 360, height: 540, croped: false },
      large: { size: 'large', url: `https://wx1.sinaimg.cn/large/${pid}.jpg`, geo: { width: '1080', height: '1620', croped: false } },
    }));
    o.thumbnail_pic = `https://wx1.sinaimg.cn/thumbnail/${ids[0]}.jpg`;
    o.bmiddle_pic = `https://wx1.sinaimg.cn/bmiddle/${ids[0]}.jpg`;
    o.original_pic = `https://wx1.sinaimg.cn/large/${ids[0]}.jpg`;
  }
  return o;
}

/** The deleted-original stub a repost carries when its source is gone (`user: null`). */
export function deletedOriginalJson(post: SimPost, nowMs: number, fmt: EraFormat, text = goneText('deleted')): Record<string, unknown> {
  return {
    created_at: fmt.date(post.createdMs, nowMs),
    id: post.id,
    mid: post.id,
    text,
    user: null,
    visible: { type: 0, list_id: 0 },
    bid: post.bid,
  };
}

/** A post as the lifecycle shows it at one instant: its current text and edits, its video. */
export interface PostView {
  tokens: Token[];
  editCount: number;
  editAtMs: number | null;
  life: PostLife;
}

/** The lifecycle view of a post at nowMs, or undefined when the world has no lifecycle. */
export function postView(world: World, post: SimPost, nowMs: number): PostView | undefined {
  const lc = world.lifecycle;
  if (!lc) return undefined;
  return { ...lc.versionAt(post, nowMs), life: lc.of(post) };
}

/** One post (spec §1.4 `mblog`); long posts are truncated with a 全文 link unless `fullText`. */
export function mblogJson(
  world: World, post: SimPost, nowMs: number, fmt: EraFormat, opts: { pinned?: boolean; fullText?: boolean } = {},
): Record<string, unknown> {
  const view = postView(world, post, nowMs);
  const o = mblogStaticJson(post, fmt, opts.fullText ?? false, view);
  o.created_at = fmt.date(post.createdMs, nowMs);
  o.user = userJson(world, world.users[post.userIndex]!, nowMs, fmt);
  o.mblogtype = opts.pinned ? 2 : 0;
  if (view && view.editCount > 0) {
    o.edit_count = view.editCount;
    o.edit_at = fmt.date(view.editAtMs!, nowMs);
  }
  if (post.repostOf) {
    const gone = world.lifecycle?.goneAt(post.repostOf, nowMs) ?? null;
    if (post.originalDeleted || gone) {
      const life = gone ? world.lifecycle!.of(post.repostOf) : null;
      o.retweeted_status = deletedOriginalJson(post.repostOf, nowMs, fmt, gone ? goneText(gone, life!.restriction) : undefined);
    } else {
      o.retweeted_status = mblogJson(world, post.repostOf, nowMs, fmt);
    }
  }
  return o;
}

/** `page_info` of a video post (2019 and 2022 captures: media_info with stream URLs and duration; play_count since about 2020). */
function videoJson(post: SimPost, life: PostLife, fmt: EraFormat): Record<string, unknown> | null {
  const v = life.video;
  if (!v) return null;
  const o: Record<string, unknown> = {
    type: 'video',
    object_type: 11,
    page_pic: { url: v.coverUrl },
    page_url: `https://video.weibo.com/show?fid=1034%3A${post.id}`,
    page_title: '微博视频',
    media_info: { stream_url: v.url.replace('mp4_hd', 'mp4_ld'), stream_url_hd: v.url, duration: v.durationSecs },
  };
  if (fmt.era === 'modern2022') o.play_count = `${String(fmt.count(v.playCount))}次播放`;
  return o;
}

/** The fields of a post that do not depend on "now" (everything but created_at, user, mblogtype, retweeted_status). */
export function mblogStaticJson(post: SimPost, fmt: EraFormat, fullText: boolean, view?: PostView): Record<string, unknown> {
  const tokens = view ? view.tokens : post.tokens;
  const textLength = view ? plainLength(tokens) : post.textLength;
  const isLong = view ? textLength > LONG_TEXT_CHARS : post.isLong;
  const truncated = isLong && !fullText;
  const o: Record<string, unknown> = {
    visible: { type: post.visibleType, list_id: 0 },
    id: post.id,
    mid: post.id,
    can_edit: false,
    text: truncated ? truncatedHtml(tokens, LONG_TEXT_CHARS - 20, post.id) : tokensToHtml(tokens),
    textLength,
    source: post.source,
    favorited: false,
    ...picsJson(post),
    is_paid: false,
    reposts_count: fmt.count(post.repostsCount),
    comments_count: fmt.count(post.commentsCount),
    attitudes_count: fmt.count(post.attitudesCount),
    pending_approval_count: 0,
    isLongText: isLong,
    bid: post.bid,
  };
  if (fmt.era !== 'modern2022') o.idstr = post.id;
  // With a lifecycle the edits are real (texts and times, set by mblogJson); without, a bare count.
  if (post.editCount > 0 && !view) o.edit_count = post.editCount;
  const video = view ? videoJson(post, view.life, fmt) : null;
  if (video) o.page_info = video;
  if (fmt.regionName) {
    o.region_name = post.regionName;
    o.region_opt = 1;
  }
  if (post.repostOf) o.raw_text = post.text;
  return o;
}
