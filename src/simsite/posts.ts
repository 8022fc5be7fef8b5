import { makeMid, midToBid, parseMid } from './ids';
import { chance, intBetween, logNormalSample, pick, streamRng } from './random';
import { composePost, plainLength, tokensToPlain, type Token } from './text/compose';
import { SOURCES, type Lang, type Sentiment } from './text/lexicon';
import type { World } from './world';

export interface SimPost {
  id: string;
  bid: string;
  userIndex: number;
  /** Position in the author's history (0 = oldest). */
  index: number;
  createdMs: number;
  lang: Lang;
  sentiment: Sentiment;
  tokens: Token[];
  /** The full text as a reader sees it (emoticons as [codes]). */
  text: string;
  textLength: number;
  isLong: boolean;
  /** The reposted original, or null for an original post. */
  repostOf: SimPost | null;
  /** A repost whose original was deleted: served with `user: null` and no text. */
  originalDeleted: boolean;
  source: string;
  regionName: string;
  picNum: number;
  repostsCount: number;
  commentsCount: number;
  attitudesCount: number;
  /** 0 public; 6 fans-only (a few posts are visible only when logged in). */
  visibleType: number;
  editCount: number;
}

/** Posts beyond this many plain characters are truncated in lists and served in full by the long-text endpoint. */
export const LONG_TEXT_CHARS = 140;

/**
 * Builds the content of post `index` of a user; a pure function of (seed, user, index) and the
 * world. `content`: the post's text is given (an injected break-out post), not composed.
 */
export function generatePost(world: World, userIndex: number, index: number, content?: { tokens: Token[]; sentiment: Sentiment; lang: Lang }): SimPost {
  const user = world.users[userIndex]!;
  const createdMs = world.postTimes(userIndex, index);
  const rng = streamRng(world.seed, 0x7057, userIndex, index);
  const id = makeMid(createdMs, userIndex, index);
  const followees = world.followeesOf(userIndex);
  const mentionCandidates: string[] = [];
  for (let i = 0; i < Math.min(5, followees.length); i++) mentionCandidates.push(world.users[followees[i]!]!.screenName);

  let repostOf: SimPost | null = null;
  let originalDeleted = false;
  if (!content && followees.length > 0 && chance(rng, 0.15)) {
    const f = pick(rng, Array.from(followees));
    const available = world.postCountAt(f, createdMs - 1);
    if (available > 0) {
      const j = available - 1 - Math.floor(rng.next() * Math.min(available, 20));
      const target = world.post(f, j);
      repostOf = target.repostOf ?? target;
      originalDeleted = chance(rng, 0.03);
    }
  }

  let tokens: Token[];
  let sentiment: Sentiment;
  let isLong = false;
  if (content) {
    tokens = content.tokens;
    sentiment = content.sentiment;
  } else if (repostOf) {
    const composed = composePost(rng, {
      lang: user.lang, positiveShare: user.positiveShare, negativeShare: user.negativeShare,
      long: false, mentionCandidates: [], names: [],
    });
    if (chance(rng, 0.4)) {
      tokens = [{ kind: 'text', text: user.lang === 'zh' ? '转发微博' : 'Repost' }];
      sentiment = 'neutral';
    } else {
      tokens = composed.tokens;
      sentiment = composed.sentiment;
    }
  } else {
    isLong = chance(rng, user.longShare);
    const composed = composePost(rng, {
      lang: user.lang, positiveShare: user.positiveShare, negativeShare: user.negativeShare,
      long: isLong, mentionCandidates, names: mentionCandidates,
    });
    tokens = composed.tokens;
    sentiment = composed.sentiment;
  }
  const textLength = plainLength(tokens);
  isLong = textLength > LONG_TEXT_CHARS;
  const audience = world.fanCount(userIndex) + user.hiddenFollowers;
  const attitudesCount = Math.floor(logNormalSample(rng, 0.5 + audience * 0.03, 1.3));
  return {
    id,
    bid: midToBid(id),
    userIndex,
    index,
    createdMs,
    lang: content?.lang ?? user.lang,
    sentiment,
    tokens,
    text: tokensToPlain(tokens),
    textLength,
    isLong,
    repostOf,
    originalDeleted,
    source: pick(rng, SOURCES),
    regionName: `发布于 ${user.province}`,
    picNum: chance(rng, 0.3) ? (chance(rng, 0.1) ? intBetween(rng, 10, 18) : intBetween(rng, 1, 9)) : 0,
    repostsCount: Math.floor(attitudesCount * rng.next() * 0.2),
    commentsCount: Math.min(Math.floor(attitudesCount * rng.next() * 0.3), 5000),
    attitudesCount,
    visibleType: chance(rng, 0.01) ? 6 : 0,
    editCount: chance(rng, 0.05) ? 1 : 0,
  };
}

/** Finds a post by mid: the id encodes author and second, so only that user's posts of that second are scanned. */
export function findPostByMid(world: World, mid: string): SimPost | null {
  const parts = parseMid(mid);
  if (!parts || parts.userIndex >= world.users.length) return null;
  const u = parts.userIndex;
  const secStartMs = parts.createdSec * 1000;
  const first = world.postCountAt(u, secStartMs - 1);
  const last = world.postCountAt(u, secStartMs + 999);
  for (let k = first; k < last; k++) {
    const p = world.post(u, k);
    if (p.id === mid) return p;
  }
  return null;
}
