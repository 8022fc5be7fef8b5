import { commentsOf } from './comments';
import type { SimPost } from './posts';
import { tokensToHtml } from './text/compose';
import type { World } from './world';

/** Ground truth rows: what a crawler should eventually have indexed, and when each thing appeared. */
export interface TruthUser {
  index: number;
  uid: number;
  screenName: string;
  urlToken: string;
  gender: 'm' | 'f';
  description: string;
  province: string;
  city: string;
  verified: boolean;
  verifiedReason: string;
  registeredMs: number;
  lang: string;
  zombie: boolean;
  postsPerDay: number;
  /** What the profile shows (includes followers outside the world). */
  followersCount: number;
  /** Fans listed by the fans endpoint before its cap. */
  fansInWorld: number;
  followCount: number;
  statusesCount: number;
  pinnedId: string | null;
}

export interface TruthPost {
  id: string;
  bid: string;
  uid: number;
  userIndex: number;
  createdMs: number;
  createdAt: string;
  sentiment: string;
  lang: string;
  /** Plain text: emoticons as [codes], topics as #x#, mentions as @x, line breaks as \n. */
  text: string;
  /** The full post HTML as the long-text endpoint serves it. */
  html: string;
  textLength: number;
  topics: string[];
  mentions: string[];
  emoticons: string[];
  source: string;
  regionName: string;
  picNum: number;
  editCount: number;
  isLong: boolean;
  repostOf: string | null;
  originalDeleted: boolean;
  pinned: boolean;
  visibleType: number;
  commentsCount: number;
  attitudesCount: number;
  repostsCount: number;
}

export function truthUser(world: World, u: number, nowMs: number): TruthUser {
  const user = world.users[u]!;
  const pinned = world.pinnedIndex(u);
  return {
    index: u,
    uid: user.uid,
    screenName: user.screenName,
    urlToken: user.urlToken,
    gender: user.gender,
    description: user.description,
    province: user.province,
    city: user.city,
    verified: user.verified,
    verifiedReason: user.verifiedReason,
    registeredMs: user.registeredMs,
    lang: user.lang,
    zombie: user.zombie,
    postsPerDay: user.postsPerDay,
    followersCount: world.followersCount(u),
    fansInWorld: world.fanCount(u),
    followCount: world.followeesOf(u).length,
    statusesCount: world.postCountAt(u, nowMs),
    pinnedId: pinned >= 0 && world.postCountAt(u, nowMs) > pinned ? world.post(u, pinned).id : null,
  };
}

export function truthPost(world: World, p: SimPost): TruthPost {
  const topics: string[] = [];
  const mentions: string[] = [];
  const emoticons: string[] = [];
  for (const t of p.tokens) {
    if (t.kind === 'topic') topics.push(t.name);
    else if (t.kind === 'mention') mentions.push(t.name);
    else if (t.kind === 'emoticon') emoticons.push(t.code);
  }
  return {
    id: p.id,
    bid: p.bid,
    uid: world.users[p.userIndex]!.uid,
    userIndex: p.userIndex,
    createdMs: p.createdMs,
    createdAt: new Date(p.createdMs).toISOString(),
    sentiment: p.sentiment,
    lang: p.lang,
    text: p.text,
    html: tokensToHtml(p.tokens),
    textLength: p.textLength,
    topics,
    mentions,
    emoticons,
    source: p.source,
    regionName: p.regionName,
    picNum: p.picNum,
    editCount: p.editCount,
    isLong: p.isLong,
    repostOf: p.repostOf ? p.repostOf.id : null,
    originalDeleted: p.originalDeleted,
    pinned: world.pinnedIndex(p.userIndex) === p.index,
    visibleType: p.visibleType,
    commentsCount: p.commentsCount,
    attitudesCount: p.attitudesCount,
    repostsCount: p.repostsCount,
  };
}

/** Posts of one user published in [sinceMs, untilMs], oldest first. */
export function* truthPostsOf(world: World, u: number, sinceMs: number, untilMs: number): Generator<TruthPost> {
  const first = world.postCountAt(u, sinceMs - 1);
  const last = world.postCountAt(u, untilMs);
  for (let k = first; k < last; k++) yield truthPost(world, world.post(u, k));
}

export function* truthAllPosts(world: World, sinceMs: number, untilMs: number): Generator<TruthPost> {
  // One flat loop rather than yield* per user: delegation costs add up over half a million rows.
  for (let u = 0; u < world.users.length; u++) {
    const first = world.postCountAt(u, sinceMs - 1);
    const last = world.postCountAt(u, untilMs);
    for (let k = first; k < last; k++) yield truthPost(world, world.post(u, k));
  }
}

export function truthComments(world: World, post: SimPost, nowMs: number): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const c of commentsOf(world, post)) {
    for (const x of [c, ...c.replies]) {
      if (x.createdMs > nowMs) continue;
      rows.push({
        id: x.id, postId: post.id, uid: world.users[x.userIndex]!.uid, createdMs: x.createdMs,
        createdAt: new Date(x.createdMs).toISOString(), sentiment: x.sentiment, text: x.text, rootId: c.id,
      });
    }
  }
  return rows;
}

/** The injected break-outs: when each started, its hashtag, phrases and mix, and its posts published by now (mids, sentiment). */
export function* truthBreakouts(world: World, nowMs: number): Generator<Record<string, unknown>> {
  const posts = world.breakoutPosts();
  for (const spec of world.breakouts) {
    const published = (posts.get(spec.name) ?? []).filter((p) => p.createdMs <= nowMs);
    const sentiment = { positive: 0, neutral: 0, negative: 0 };
    for (const p of published) sentiment[p.sentiment]++;
    yield {
      name: spec.name, hashtag: spec.hashtag, lang: spec.lang, phrases: spec.phrases, startMs: spec.startMs, start: new Date(spec.startMs).toISOString(),
      mix: spec.mix, started: spec.startMs <= nowMs, posts: published.length, sentiment,
      postIds: published.map((p) => world.postOfBreakout(p).id),
    };
  }
}
