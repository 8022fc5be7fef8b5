import { makeCommentId } from './ids';
import { chance, expSample, pick, streamRng } from './random';
import type { SimPost } from './posts';
import { composeComment, tokensToPlain, type Token } from './text/compose';
import { LOCATIONS, type Sentiment } from './text/lexicon';
import type { World } from './world';

export interface SimComment {
  id: number;
  postId: string;
  userIndex: number;
  createdMs: number;
  tokens: Token[];
  text: string;
  sentiment: Sentiment;
  likeCount: number;
  /** "来自北京": the commenter's IP region. */
  source: string;
  /** Replies shown nested under the root comment. */
  replies: SimComment[];
}

/** Comments generated per post are bounded: the hot flow never shows more for anonymous clients anyway. */
export const MAX_COMMENTS_PER_POST = 200;
const MEAN_COMMENT_DELAY_MS = 2 * 3_600_000;

/** All comments a post will ever get (some may be in the future of a given now), hottest first. */
export function commentsOf(world: World, post: SimPost): SimComment[] {
  const n = Math.min(post.commentsCount, MAX_COMMENTS_PER_POST);
  const rng = streamRng(world.seed, 0xc033, post.userIndex, post.index);
  const fans = world.fansOf(post.userIndex);
  const author = (): number => (fans.length > 0 && chance(rng, 0.8) ? fans[Math.floor(rng.next() * fans.length)]! : Math.floor(rng.next() * world.users.length));
  const make = (i: number, afterMs: number): SimComment => {
    const userIndex = author();
    const createdMs = Math.floor((afterMs + 1000 + expSample(rng, 1 / MEAN_COMMENT_DELAY_MS)) / 1000) * 1000;
    const composed = composeComment(rng, world.users[userIndex]!.lang);
    return {
      id: makeCommentId(createdMs, post.userIndex, i),
      postId: post.id,
      userIndex,
      createdMs,
      tokens: composed.tokens,
      text: tokensToPlain(composed.tokens),
      sentiment: composed.sentiment,
      likeCount: Math.floor(expSample(rng, 1 / 8) * (chance(rng, 0.1) ? 20 : 1)),
      source: `来自${pick(rng, LOCATIONS).province}`,
      replies: [],
    };
  };
  const out: SimComment[] = [];
  for (let i = 0; i < n; i++) {
    const c = make(i * 2, post.createdMs);
    if (chance(rng, 0.15)) {
      const r = make(i * 2 + 1, c.createdMs);
      const target = world.users[c.userIndex]!.screenName;
      r.tokens = [{ kind: 'text', text: '回复' }, { kind: 'mention', name: target }, { kind: 'text', text: ':' }, ...r.tokens];
      r.text = tokensToPlain(r.tokens);
      c.replies.push(r);
    }
    out.push(c);
  }
  out.sort((a, b) => b.likeCount - a.likeCount || a.id - b.id);
  return out;
}
