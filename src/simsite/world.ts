import { BoundedCache } from './bounded-cache';
import { spreadBreakout, type BreakoutPost, type BreakoutSpec } from './breakouts';
import { buildFollowGraph, fansOf, followeesOf, type FollowGraph } from './graph';
import { PostingProcess, DEFAULT_DIURNAL, type DiurnalOptions } from './posting';
import { generatePost, type SimPost } from './posts';
import { chance, streamRng } from './random';
import { Lifecycle, type LifecycleOptions } from './lifecycle';
import { generateUids, generateUser, type SimUser } from './users';

export interface WorldOptions {
  seed: number;
  users: number;
  /** Simulated "now" when the site starts; history is generated back from here. Default 2026-11-21T00:00:00Z. */
  startMs?: number;
  /** How far back the posting history reaches before startMs. */
  historyDays?: number;
  /** Share of near-inactive accounts with few followers. */
  zombieShare?: number;
  medianPostsPerDay?: number;
  postsPerDaySigma?: number;
  medianFollowees?: number;
  /** Modulate posting rates by time of day (true = default amplitude 0.8, peak 21:00 China time). */
  diurnal?: boolean | DiurnalOptions;
  /** Bound on cached post objects (they are regenerated deterministically when evicted). */
  postCacheSize?: number;
  /** Deletions, removals, restrictions, edits, videos, accounts going away (off when absent). */
  lifecycle?: LifecycleOptions | null;
  /** Topics that break out at known times (src/simsite/breakouts.ts): their posts join the adopters' timelines. */
  breakouts?: BreakoutSpec[];
}

export const DEFAULT_START_MS = Date.UTC(2026, 10, 21, 0, 0, 0);
const DAY_MS = 86_400_000;

/**
 * The seeded world: users, the follow graph, and each user's posting process. Posts are produced
 * lazily and deterministically, so large worlds start at once and the same seed gives the same posts.
 */
export class World {
  readonly seed: number;
  readonly startMs: number;
  readonly historyStartMs: number;
  readonly users: readonly SimUser[];
  readonly graph: FollowGraph;
  readonly diurnal: DiurnalOptions | null;
  readonly options: Required<Omit<WorldOptions, 'diurnal' | 'lifecycle' | 'breakouts'>>;
  /** The injected break-outs (their posts: `breakoutPosts()`). */
  readonly breakouts: readonly BreakoutSpec[];
  /** What happens to posts after publication; null: nothing (posts stay as published). */
  readonly lifecycle: Lifecycle | null;
  private readonly uidIndex = new Map<number, number>();
  private readonly tokenIndex = new Map<string, number>();
  private readonly processes: (PostingProcess | undefined)[];
  private readonly postCache: BoundedCache<number, SimPost>;
  private readonly pinned = new Map<number, number>();
  /** Break-out posts per adopting user, in time order; built on first use (the spread needs the graph). */
  private extras: Map<number, BreakoutPost[]> | undefined;

  constructor(opts: WorldOptions) {
    this.options = {
      seed: opts.seed,
      users: opts.users,
      startMs: opts.startMs ?? DEFAULT_START_MS,
      historyDays: opts.historyDays ?? 30,
      zombieShare: opts.zombieShare ?? 0.2,
      medianPostsPerDay: opts.medianPostsPerDay ?? 1,
      postsPerDaySigma: opts.postsPerDaySigma ?? 1.1,
      medianFollowees: opts.medianFollowees ?? 25,
      postCacheSize: opts.postCacheSize ?? 50_000,
    };
    if (!Number.isInteger(opts.users) || opts.users < 1) throw new RangeError('a world needs at least one user');
    this.seed = opts.seed >>> 0;
    this.startMs = this.options.startMs;
    this.historyStartMs = this.startMs - this.options.historyDays * DAY_MS;
    this.diurnal = opts.diurnal === true ? DEFAULT_DIURNAL : opts.diurnal ? opts.diurnal : null;
    this.lifecycle = opts.lifecycle ? new Lifecycle(this.seed, this.startMs, opts.lifecycle) : null;
    this.breakouts = opts.breakouts ?? [];
    const uids = generateUids(this.seed, opts.users);
    const genOpts = {
      seed: this.seed, zombieShare: this.options.zombieShare, medianPostsPerDay: this.options.medianPostsPerDay,
      postsPerDaySigma: this.options.postsPerDaySigma, startMs: this.startMs,
    };
    this.users = uids.map((uid, i) => generateUser(i, uid, genOpts));
    this.users.forEach((u) => {
      this.uidIndex.set(u.uid, u.index);
      this.tokenIndex.set(u.urlToken, u.index);
    });
    this.graph = buildFollowGraph(this.users, { seed: this.seed, medianFollowees: this.options.medianFollowees });
    this.processes = new Array<PostingProcess | undefined>(opts.users);
    this.postCache = new BoundedCache(this.options.postCacheSize);
  }

  userByUid(uid: number): SimUser | undefined {
    const i = this.uidIndex.get(uid);
    return i === undefined ? undefined : this.users[i];
  }

  userByToken(token: string): SimUser | undefined {
    const i = this.tokenIndex.get(token);
    return i === undefined ? undefined : this.users[i];
  }

  followeesOf(u: number): Uint32Array {
    return followeesOf(this.graph, u);
  }

  fansOf(u: number): Uint32Array {
    return fansOf(this.graph, u);
  }

  fanCount(u: number): number {
    return this.graph.fanOffsets[u + 1]! - this.graph.fanOffsets[u]!;
  }

  /** Followers shown on the profile: fans inside the world plus those outside it. */
  followersCount(u: number): number {
    return this.fanCount(u) + this.users[u]!.hiddenFollowers;
  }

  private process(u: number): PostingProcess {
    let p = this.processes[u];
    if (!p) {
      p = new PostingProcess(this.seed, u, this.historyStartMs, this.users[u]!.postsPerDay, this.diurnal);
      this.processes[u] = p;
    }
    return p;
  }

  /** Every injected break-out post, by break-out, in time order (the ground truth of topic detection). */
  breakoutPosts(): Map<string, BreakoutPost[]> {
    const out = new Map<string, BreakoutPost[]>();
    for (const list of this.extrasMap().values()) for (const p of list) out.set(p.breakout, [...(out.get(p.breakout) ?? []), p]);
    for (const list of out.values()) list.sort((a, b) => a.createdMs - b.createdMs);
    return out;
  }

  /** The timeline post (with its mid) of a break-out post. */
  postOfBreakout(p: BreakoutPost): SimPost {
    const extras = this.extrasMap().get(p.userIndex)!;
    const j = extras.indexOf(p);
    return this.post(p.userIndex, j + this.process(p.userIndex).countAt(p.createdMs));
  }

  private extrasMap(): Map<number, BreakoutPost[]> {
    if (!this.extras) {
      this.extras = new Map();
      for (const spec of this.breakouts) {
        for (const p of spreadBreakout(this, spec)) this.extras.set(p.userIndex, [...(this.extras.get(p.userIndex) ?? []), p]);
      }
      for (const list of this.extras.values()) list.sort((a, b) => a.createdMs - b.createdMs);
    }
    return this.extras;
  }

  /**
   * Post k of user u in the merged timeline: a break-out post (its index among the user's
   * break-out posts) or a post of the posting process (its index there). At equal times the
   * process's posts come first.
   */
  private resolve(u: number, k: number): { extra: BreakoutPost } | { processIndex: number } {
    const extras = this.breakouts.length ? this.extrasMap().get(u) : undefined;
    if (!extras) return { processIndex: k };
    let before = 0;
    for (let j = 0; j < extras.length; j++) {
      const at = j + this.process(u).countAt(extras[j]!.createdMs);
      if (at === k) return { extra: extras[j]! };
      if (at < k) before++;
      else break;
    }
    return { processIndex: k - before };
  }

  /** Number of posts user u has published at or before atMs. */
  postCountAt(u: number, atMs: number): number {
    const n = this.process(u).countAt(atMs);
    const extras = this.breakouts.length ? this.extrasMap().get(u) : undefined;
    if (!extras) return n;
    let m = 0;
    while (m < extras.length && extras[m]!.createdMs <= atMs) m++;
    return n + m;
  }

  /** Publication time of post k of user u (k must be below some postCountAt). */
  postTimes(u: number, k: number): number {
    const r = this.resolve(u, k);
    if ('extra' in r) return r.extra.createdMs;
    const t = this.process(u).times[r.processIndex];
    if (t === undefined) throw new RangeError(`user ${u} has no post ${k} yet`);
    return t;
  }

  /** How many generated posts are held in memory (posts are generated lazily, on demand). */
  get cachedPosts(): number {
    return this.postCache.weight;
  }

  post(u: number, k: number): SimPost {
    const key = u * 4_194_304 + k;
    const hit = this.postCache.get(key);
    if (hit) return hit;
    const r = this.resolve(u, k);
    const post = 'extra' in r ? generatePost(this, u, k, { tokens: r.extra.tokens, sentiment: r.extra.sentiment, lang: r.extra.lang }) : generatePost(this, u, k);
    this.postCache.set(key, post);
    return post;
  }

  /** Index of the user's pinned post, or -1: about a quarter of active users pin one of their early posts. */
  pinnedIndex(u: number): number {
    const cached = this.pinned.get(u);
    if (cached !== undefined) return cached;
    const user = this.users[u]!;
    const rng = streamRng(this.seed, 0x0919, u);
    let idx = -1;
    if (!user.zombie && chance(rng, 0.25)) {
      const available = this.postCountAt(u, this.startMs);
      if (available > 0) idx = Math.floor(rng.next() * Math.min(available, 5));
    }
    this.pinned.set(u, idx);
    return idx;
  }
}

/** Whether user u's account is gone at nowMs (only with a lifecycle). */
export function accountGone(world: World, u: number, nowMs: number): boolean {
  const at = world.lifecycle?.accountGoneAtMs(u, world.users[u]!.zombie) ?? null;
  return at !== null && at <= nowMs;
}

export function createWorld(opts: WorldOptions): World {
  return new World(opts);
}
