import { BoundedCache } from './bounded-cache';
import { chance, expSample, intBetween, pick, streamRng } from './random';
import type { Token } from './text/compose';
import { ZH_FILLERS, EN_FILLERS } from './text/lexicon';

/**
 * What happens to posts after they are published, for monitoring tests: deletions by the author,
 * removals by the platform, restrictions ("半年可见", "仅自己可见": the post leaves the timeline),
 * edits (new texts at known times), videos, and accounts that go away. Every event is drawn from
 * its own seeded stream per (user, post), so a world without these options is unchanged and the
 * same seed always gives the same events. Off unless WorldOptions.lifecycle is given.
 */
export interface LifecycleOptions {
  /** Share of posts the author deletes. */
  deletedShare?: number;
  /** Share of posts the platform removes. */
  removedShare?: number;
  /** Share of posts the author restricts (they vanish from the public timeline). */
  restrictedShare?: number;
  /** Mean time from publication to the deletion/removal/restriction, ms. */
  meanLifetimeMs?: number;
  /** Share of posts edited (1–3 times). */
  editedShare?: number;
  /** Mean time from publication (or the previous edit) to an edit, ms. */
  meanEditDelayMs?: number;
  /** Share of picture-less originals that carry a video. */
  videoShare?: number;
  /** Share of non-zombie users whose account goes away (removed by the platform) at some time. */
  accountGoneShare?: number;
  /** Mean time from the world's start to an account going away, ms. */
  meanAccountLifetimeMs?: number;
}

export type GoneKind = 'deleted' | 'removed' | 'restricted';
export type RestrictionKind = 'half_year' | 'self_only';

export interface PostEdit {
  atMs: number;
  tokens: Token[];
}

export interface SimVideo {
  url: string;
  coverUrl: string;
  durationSecs: number;
  playCount: number;
}

/** The fate of one post. */
export interface PostLife {
  goneAtMs: number | null;
  gone: GoneKind | null;
  restriction: RestrictionKind | null;
  /** Later versions, oldest first; the text before the first is the post's own. */
  edits: PostEdit[];
  video: SimVideo | null;
}

const DAY_MS = 86_400_000;

export const DEFAULT_LIFECYCLE: Required<LifecycleOptions> = {
  deletedShare: 0.04,
  removedShare: 0.01,
  restrictedShare: 0.01,
  meanLifetimeMs: 2 * DAY_MS,
  editedShare: 0.05,
  meanEditDelayMs: 6 * 3_600_000,
  videoShare: 0.1,
  accountGoneShare: 0,
  meanAccountLifetimeMs: 10 * DAY_MS,
};

/** What an edit appends: a short second thought in the post's language. */
const ZH_EDIT = ['补充一下：', '更新：', '修改：', '再说一句，'];
const EN_EDIT = ['Update: ', 'Edit: ', 'PS: ', 'Correction: '];

export interface PostRef {
  id: string;
  userIndex: number;
  index: number;
  createdMs: number;
  tokens: Token[];
  lang: 'zh' | 'en';
  picNum: number;
  /** Non-null for a repost (reposts are never edited and carry no video of their own). */
  repostOf: unknown;
}

export class Lifecycle {
  readonly options: Required<LifecycleOptions>;
  private readonly cache = new BoundedCache<number, PostLife>(100_000);
  private readonly accounts = new Map<number, number | null>();

  constructor(private readonly seed: number, private readonly startMs: number, opts: LifecycleOptions) {
    this.options = { ...DEFAULT_LIFECYCLE, ...opts };
    const o = this.options;
    if (o.deletedShare + o.removedShare + o.restrictedShare > 1) throw new RangeError('lifecycle shares of gone posts add up to more than 1');
  }

  of(post: PostRef): PostLife {
    const key = post.userIndex * 4_194_304 + post.index;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const life = this.draw(post);
    this.cache.set(key, life);
    return life;
  }

  private draw(post: PostRef): PostLife {
    const o = this.options;
    const rng = streamRng(this.seed, 0x11fe, post.userIndex, post.index);
    const r = rng.next();
    let gone: GoneKind | null = null;
    if (r < o.deletedShare) gone = 'deleted';
    else if (r < o.deletedShare + o.removedShare) gone = 'removed';
    else if (r < o.deletedShare + o.removedShare + o.restrictedShare) gone = 'restricted';
    const lifetime = Math.max(60_000, Math.round(expSample(rng, 1 / o.meanLifetimeMs)));
    const restriction: RestrictionKind | null = gone === 'restricted' ? (chance(rng, 0.5) ? 'half_year' : 'self_only') : null;
    const edits: PostEdit[] = [];
    if (chance(rng, o.editedShare) && post.repostOf === null) {
      const n = intBetween(rng, 1, 3);
      let at = post.createdMs;
      let tokens = post.tokens;
      for (let i = 0; i < n; i++) {
        at += Math.max(60_000, Math.round(expSample(rng, 1 / o.meanEditDelayMs)));
        const lead = pick(rng, post.lang === 'zh' ? ZH_EDIT : EN_EDIT);
        const filler = pick(rng, post.lang === 'zh' ? ZH_FILLERS : EN_FILLERS);
        // Appended on the same line: a break after a trailing blank would read back differently after whitespace cleaning.
        tokens = [...tokens, { kind: 'text', text: ` ${lead}${filler}` }];
        edits.push({ atMs: at, tokens });
      }
    }
    let video: SimVideo | null = null;
    if (post.picNum === 0 && post.repostOf === null && chance(rng, o.videoShare)) {
      const key = post.id.slice(-10);
      video = {
        url: `https://f.video.weibocdn.com/o0/${key}lx0806Hoh0fC010412003OgH0E010.mp4?label=mp4_hd&template=540x960.24.0`,
        coverUrl: `https://wx1.sinaimg.cn/orj480/006${key}gy1h7an8xr1smj30u01hc0un.jpg`,
        durationSecs: Math.round((5 + rng.next() * 300) * 1000) / 1000,
        playCount: Math.floor(Math.exp(4 + rng.next() * 12)),
      };
    }
    return { goneAtMs: gone ? post.createdMs + lifetime : null, gone, restriction, edits, video };
  }

  /** When user u's account goes away (removed by the platform), or null. */
  accountGoneAtMs(u: number, zombie: boolean): number | null {
    const hit = this.accounts.get(u);
    if (hit !== undefined) return hit;
    const rng = streamRng(this.seed, 0xacc7, u);
    const at = !zombie && chance(rng, this.options.accountGoneShare)
      ? this.startMs + Math.round(expSample(rng, 1 / this.options.meanAccountLifetimeMs))
      : null;
    this.accounts.set(u, at);
    return at;
  }

  /** The gone-state of a post at `nowMs` (null while it is visible). */
  goneAt(post: PostRef, nowMs: number): GoneKind | null {
    const life = this.of(post);
    return life.goneAtMs !== null && life.goneAtMs <= nowMs ? life.gone : null;
  }

  /** The text tokens and edit count a reader sees at `nowMs`. */
  versionAt(post: PostRef, nowMs: number): { tokens: Token[]; editCount: number; editAtMs: number | null } {
    const edits = this.of(post).edits;
    let k = 0;
    while (k < edits.length && edits[k]!.atMs <= nowMs) k++;
    return k === 0 ? { tokens: post.tokens, editCount: 0, editAtMs: null } : { tokens: edits[k - 1]!.tokens, editCount: k, editAtMs: edits[k - 1]!.atMs };
  }
}
