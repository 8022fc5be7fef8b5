import { z } from 'zod';
import type { Job, SubjectState } from '../core/envelope';
import type { Adapter, Emitted, FetchedText, VisitContext, VisitOutcome } from './adapter';
import { ErrorCodes, FreshetError } from '../core/errors';
import { isoTime } from '../core/iso-time';
import { commentDocs, hotflowUrl, parseHotflow } from './weibo/comments';
import { parseCount } from './weibo/counts';
import { parseWeiboDateMs } from './weibo/dates';
import { metricsDoc, postDoc, userDoc } from './weibo/docs';
import { fansContainerId, parseFansPage } from './weibo/fans';
import { stubStatus } from './weibo/post-status';
import { isData, mblogsOf, parseEnvelope, type Envelope } from './weibo/shapes';
import { softBlockOfStatus } from './weibo/soft-block';
import { compareIds } from './weibo/text';

export const weiboApiConfigSchema = z.strictObject({
  type: z.literal('weibo_api'),
  /** Where the API lives, e.g. https://m.weibo.cn or the local simsite. */
  base_url: z.url(),
  /** Deep history: how many timeline pages a first visit may read. */
  first_visit_page_limit: z.number().int().min(1).default(50),
  /** Later visits stop at the watermark, or after this many pages. */
  page_limit: z.number().int().min(1).default(10),
  /** Fetch the long-text endpoint for truncated posts. */
  long_text: z.boolean().default(true),
  /** Refresh the profile (users document, follower count) every N visits. */
  profile_every_visits: z.number().int().min(1).default(10),
  /** Write a post-metrics snapshot of every post seen on a visit. */
  post_metrics: z.boolean().default(true),
  /** Read the hot-flow comments (and the replies shown under them) of every new post with comments. */
  comments: z.boolean().default(false),
  /** Hot-flow pages (about 20 comments each) per post; anonymous clients see only the hottest anyway. */
  comments_page_limit: z.number().int().min(1).default(5),
  /** Discover users breadth-first through fans lists (`231051_-_fans_-_{uid}`). */
  discover_fans: z.boolean().default(false),
  /** Fans pages (20 users each) read per discovering visit; the platform caps the list silently anyway. */
  fans_page_limit: z.number().int().min(1).default(250),
  /** Re-read the fans list every N visits (the first visit always reads it). */
  fans_every_visits: z.number().int().min(1).default(30),
  /** Stop discovering once the frontier holds this many subjects (zombies included). */
  max_users: z.number().int().min(1).default(1_000_000),
  /** Users with fewer followers are recorded (users document, status `zombie`) but never visited. */
  min_followers: z.number().int().min(0).default(10),
  /**
   * Pages read on past the first known post (within the page limit), so known posts are seen again:
   * their counters refresh and one that went missing can be noticed (deletion monitoring). 0 = stop there.
   */
  recheck_pages: z.number().int().min(0).default(0),
  /** With recheck_pages: stop re-reading once a page reaches posts older than this (0 = always read recheck_pages). */
  recheck_hours: z.number().min(0).default(0),
  /**
   * Pages of older history re-read per visit, from where the last visit's sweep stopped down to
   * `sweep_horizon_days`, then from the top again: every known post is seen again now and then,
   * so deletions and edits deep in a timeline are noticed too. 0 = no sweep.
   */
  sweep_pages: z.number().int().min(0).default(0),
  sweep_horizon_days: z.number().positive().default(30),
});

export type WeiboApiConfig = z.infer<typeof weiboApiConfigSchema>;

const PLATFORM = 'weibo';
const USER_PREFIX = `${PLATFORM}:user:`;

interface Tally {
  requests: number;
}

/** What the timeline pages of one visit have shown so far. */
interface Reading {
  seen: Set<string>;
  newTimes: number[];
  /** The highest post id seen (the next watermark). */
  top: string | undefined;
  lastFetchMs: number;
}

const SINCE = '&since_id=';
/** Post ids are 64-bit (≤ 20 digits); one RegExp for every post instead of a literal evaluated (a new object) per post. */
const POST_ID = /^\d{1,20}$/;
/** `gap_until` of a first visit cut short: no known post below the gap, read to the end of the list. */
const BOTTOM = '0';

/** The microblog JSON API (shapes: shared/specs/social-api-shapes.md §1): profiles, timelines, fans. */
export class WeiboApiAdapter implements Adapter {
  readonly type = 'weibo_api';
  private readonly base: string;

  constructor(private readonly config: WeiboApiConfig) {
    this.base = config.base_url.replace(/\/+$/, '');
  }

  /** A JSON request; a 432 (the site rejecting this client) is a soft block, rescheduled like throttling. */
  private async get(ctx: VisitContext, url: string, expect: 'json' | 'html') {
    try {
      return await ctx.fetchText(url, expect);
    } catch (err) {
      throw softBlockOfStatus(err) ?? err;
    }
  }

  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    const uid = job.subject.slice(USER_PREFIX.length);
    const state: SubjectState = { ...job.state, meta: { ...job.state.meta } };
    const tally: Tally = { requests: 0 };
    let containerId = state.meta?.['containerid'];

    if (!containerId || state.visits % this.config.profile_every_visits === 0) {
      const res = await this.get(ctx, `${this.base}/api/container/getIndex?type=uid&value=${uid}&containerid=100505${uid}`, 'json');
      tally.requests += 1;
      const env = parseEnvelope(res.text, res.url);
      const info = env.data?.userInfo;
      if (!isData(env) || !info) {
        // `这里还没有内容` on a profile: deleted account or bad id. Not a ban, not an error.
        return { state: { ...state, status: 'gone', visits: state.visits + 1, lastVisitMs: res.fetchedAtMs }, newPostTimesMs: [], pageLimitHit: false, requests: tally.requests };
      }
      containerId = env.data?.tabsInfo?.tabs?.find((t) => t.tabKey === 'weibo')?.containerid ?? `107603${uid}`;
      state.meta = { ...state.meta, containerid: containerId };
      const followers = parseCount(info.followers_count);
      if (followers !== undefined) state.followers = followers;
      yield { kind: 'doc', doc: userDoc(uid, info, res.fetchedAtMs, job.subject) };
    }

    if (this.config.discover_fans && state.visits % this.config.fans_every_visits === 0) {
      yield* this.discoverFans(uid, job, ctx, tally);
    }

    // A first visit cut short by the quota goes on reading history on later visits with its own budget.
    const budget = state.watermark && state.meta?.['gap_until'] !== BOTTOM ? this.config.page_limit : this.config.first_visit_page_limit;
    const r: Reading = { seen: new Set(), newTimes: [], top: state.watermark, lastFetchMs: ctx.nowMs() };
    const page = { uid, containerId, subject: job.subject };
    const head = yield* this.readPages(page, ctx, tally, r, '&page=1', state.watermark, budget);
    let gapSince = state.meta?.['gap_since'];
    let gapUntil = state.meta?.['gap_until'];
    let pageLimitHit = false;
    let paused = head.paused;
    if (!head.done) {
      pageLimitHit = true;
      // More new posts than the page limit: remember where reading stopped and where the known
      // posts begin, and fill that gap on later visits (an older gap is folded into the new one).
      // A first visit paused by the quota has no known posts: its gap runs to the end of the list.
      if ((state.watermark || head.paused) && head.stoppedAt?.startsWith(SINCE)) {
        gapUntil = gapSince ? gapUntil : (state.watermark ?? BOTTOM);
        gapSince = head.stoppedAt.slice(SINCE.length);
      }
    } else if (gapSince && gapUntil && head.pages < budget) {
      const fill = yield* this.readPages(page, ctx, tally, r, `${SINCE}${gapSince}`, gapUntil, budget - head.pages);
      if (fill.done) gapSince = gapUntil = undefined;
      else {
        pageLimitHit = true;
        paused = fill.paused;
        if (fill.stoppedAt?.startsWith(SINCE)) gapSince = fill.stoppedAt.slice(SINCE.length);
      }
    }
    let sweepSince = state.meta?.['sweep_since'];
    if (this.config.sweep_pages > 0 && state.watermark && head.done && !(gapSince && gapUntil)) {
      const from = sweepSince ?? head.after;
      if (from) {
        const sweep = yield* this.readPages(page, ctx, tally, r, `${SINCE}${from}`, r.top, this.config.sweep_pages, 'sweep');
        sweepSince = sweep.stoppedAt?.startsWith(SINCE) ? sweep.stoppedAt.slice(SINCE.length) : undefined;
      }
    }
    const { gap_since: _s, gap_until: _u, sweep_since: _w, ...meta } = state.meta ?? {};
    state.meta = gapSince && gapUntil ? { ...meta, gap_since: gapSince, gap_until: gapUntil } : meta;
    if (sweepSince) state.meta = { ...state.meta, sweep_since: sweepSince };
    const newTimes = r.newTimes;
    const watermark = r.top;
    const lastFetchMs = r.lastFetchMs;
    const lastPost = newTimes.length > 0 ? Math.max(...newTimes) : undefined;
    return {
      state: {
        ...state,
        ...(watermark ? { watermark } : {}),
        ...(lastPost !== undefined && (state.lastPostMs === undefined || lastPost > state.lastPostMs) ? { lastPostMs: lastPost } : {}),
        postsSeen: state.postsSeen + newTimes.length,
        visits: state.visits + 1,
        failures: 0,
        lastVisitMs: lastFetchMs,
      },
      newPostTimesMs: newTimes,
      pageLimitHit,
      requests: tally.requests,
      ...(paused ? { paused } : {}),
    };
  }

  /**
   * Reads timeline pages from `cursor`, yielding every post newer than `knownAtOrBelow` (undefined:
   * all), until a known post, the end of the list, or `maxPages`. `done` is false only when the
   * page budget ran out first; `stoppedAt` is then the cursor of the first unread page.
   */
  private async *readPages(
    page: { uid: string; containerId: string; subject: string }, ctx: VisitContext, tally: Tally, r: Reading,
    cursor: string, knownAtOrBelow: string | undefined, maxPages: number, mode: 'new' | 'sweep' = 'new',
  ): AsyncGenerator<Emitted, { done: boolean; pages: number; stoppedAt?: string; paused?: VisitOutcome['paused']; after?: string }, void> {
    const sweeping = mode === 'sweep';
    const horizonMs = ctx.nowMs() - this.config.sweep_horizon_days * 86_400_000;
    // Out of quota (or an identity benched) after some posts were read: stop here and resume at
    // this page on a later visit, instead of failing the visit and reading it all again (a visit
    // larger than what is left of a quota window would otherwise never complete).
    const pausedAt = (err: unknown, n: number) => {
      // Only a since_id cursor can be resumed as a gap; page 1 and `page=` cursors fail as before.
      if (r.seen.size === 0 || !cursor.startsWith(SINCE) || !(err instanceof FreshetError) || err.kind !== 'throttled') throw err;
      ctx.logger.info({ subject: page.subject, code: err.code, posts_read: r.seen.size }, 'visit paused (throttled); the rest is read as a gap later');
      return { done: false, pages: n - 1, stoppedAt: cursor, paused: { code: err.code, retryAfterMs: err.retryAfterMs } };
    };
    let recheck = -1; // pages still to read past the first known post; -1 until one is reached
    // Re-reading known posts has its own allowance on top of the page limit for new posts.
    const allowance = sweeping ? maxPages : maxPages + this.config.recheck_pages;
    for (let n = 1; n <= allowance; n++) {
      if (recheck < 0 && n > maxPages) return { done: false, pages: maxPages, stoppedAt: cursor };
      let res: FetchedText;
      let env: Envelope;
      let parsing = false;
      try {
        res = await this.get(ctx, `${this.base}/api/container/getIndex?type=uid&value=${page.uid}&containerid=${page.containerId}${cursor}`, 'json');
        tally.requests += 1;
        r.lastFetchMs = res.fetchedAtMs;
        parsing = true;
        env = parseEnvelope(res.text, res.url);
      } catch (err) {
        // Re-reading known posts is a bonus: every new post is read, so a failure there ends the visit well
        // (a sweep resumes at the failed page next time).
        if (sweeping) return { done: false, pages: n - 1, stoppedAt: cursor };
        if (recheck >= 0) return { done: true, pages: n - 1 };
        // A body that is no data (soft block, truncated JSON) fails the visit, which is rescheduled
        // and read again; only a refused request (quota, benched identity) pauses it.
        if (parsing) throw err;
        return pausedAt(err, n);
      }
      const posts = isData(env) ? mblogsOf(env) : []; // `ok:0`: past the last page
      if (posts.length === 0) return { done: true, pages: n };
      const crawledAt = isoTime(res.fetchedAtMs);
      let reachedKnown = false;
      for (const m of posts) {
        const id = String(m.id ?? m.mid ?? '');
        // A longer "id" would become a watermark no real post passes.
        if (!POST_ID.test(id) || r.seen.has(id)) continue;
        r.seen.add(id);
        const gone = stubStatus(m);
        if (gone) {
          // A list can show a stub where a post was (`此微博已被删除`, no author): never index it over the
          // post's last text. It is counted; the tombstone check decides what it means for the stored post.
          yield { kind: 'dropped', doc: { index: 'posts', id: `${PLATFORM}:${id}`, body: { platform: PLATFORM, id, subject: page.subject, status: gone } }, stage: this.type, reason: `post_${gone}` };
          continue;
        }
        if (this.config.post_metrics) yield { kind: 'doc', doc: metricsDoc(id, m, res.fetchedAtMs) };
        const known = knownAtOrBelow !== undefined && compareIds(id, knownAtOrBelow) <= 0;
        if (known) {
          // A pinned post is shown first even when old: it says nothing about where new posts end.
          if (m.mblogtype !== 2) reachedKnown = true;
          // When re-reading known posts, an edited one is indexed again: its current text becomes a version.
          if (!((sweeping || this.config.recheck_pages > 0) && (parseCount(m.edit_count) ?? 0) > 0)) continue;
        }
        let text = m.text ?? '';
        if (m.isLongText && this.config.long_text) {
          let long;
          try {
            long = await this.get(ctx, `${this.base}/statuses/extend?id=${id}`, 'json');
          } catch (err) {
            if (known) continue; // the known post stays as indexed; the next visit tries again
            // This page is read again from its start (documents are idempotent by id).
            r.seen.delete(id);
            return pausedAt(err, n);
          }
          tally.requests += 1;
          const content = parseEnvelope(long.text, long.url).data?.longTextContent;
          if (content) text = content;
        }
        const createdMs = parseWeiboDateMs(m.created_at, res.fetchedAtMs);
        const doc = postDoc(id, m, text, page.uid, res.fetchedAtMs, this.base, page.subject, createdMs, crawledAt);
        if (known) {
          yield { kind: 'doc', doc };
          continue;
        }
        // What Date.parse would read back from the document's created_at (ms, truncated), unparsed.
        if (createdMs !== undefined) r.newTimes.push(Math.trunc(createdMs) + 0);
        if (!r.top || compareIds(id, r.top) > 0) r.top = id;
        yield { kind: 'doc', doc };
        if (this.config.comments && (parseCount(m.comments_count) ?? 0) > 0) {
          try {
            yield* this.readComments(id, page.subject, ctx, tally);
          } catch (err) {
            return pausedAt(err, n);
          }
        }
      }
      const next = nextCursor(env, n);
      if (next === undefined) return { done: true, pages: n };
      if (sweeping) {
        // Past the horizon: the sweep starts from the top again next time.
        const oldest = parseWeiboDateMs(posts[posts.length - 1]!.created_at, res.fetchedAtMs);
        if (oldest !== undefined && oldest < horizonMs) return { done: true, pages: n };
        cursor = next;
        continue;
      }
      if (reachedKnown && recheck < 0) recheck = this.config.recheck_pages;
      if (recheck >= 0 && this.config.recheck_hours > 0) {
        // Deletions and edits come mostly while posts are young: re-read only that deep.
        const oldest = parseWeiboDateMs(posts[posts.length - 1]!.created_at, res.fetchedAtMs);
        if (oldest !== undefined && oldest < ctx.nowMs() - this.config.recheck_hours * 3_600_000) recheck = 0;
      }
      if (recheck === 0) return { done: true, pages: n, after: next };
      if (recheck > 0) recheck -= 1;
      cursor = next;
    }
    // Out of pages while re-reading known posts: every new post was read.
    if (sweeping) return { done: false, pages: maxPages, stoppedAt: cursor };
    return recheck >= 0 ? { done: true, pages: maxPages, after: cursor } : { done: false, pages: maxPages, stoppedAt: cursor };
  }

  /**
   * The hot flow of one post, by its `max_id` cursor. Old posts can answer 403 to clients without a
   * login cookie (spec §1.6): the post is kept and its comments left for a logged-in identity.
   */
  private async *readComments(mid: string, subject: string, ctx: VisitContext, tally: Tally): AsyncGenerator<Emitted, void, void> {
    let maxId: string | undefined;
    for (let n = 0; n < this.config.comments_page_limit; n++) {
      let res;
      try {
        res = await this.get(ctx, hotflowUrl(this.base, mid, maxId), 'json');
      } catch (err) {
        tally.requests += 1;
        if (err instanceof FreshetError && err.code === ErrorCodes.fetchHttpStatus && err.fields['status'] === 403) {
          ctx.logger.info({ subject, post_id: mid, code: err.code }, 'comments refused without login; post kept without them');
          return;
        }
        throw err;
      }
      tally.requests += 1;
      const page = parseHotflow(parseEnvelope(res.text, res.url));
      for (const c of page.comments) for (const doc of commentDocs(c, mid, res.fetchedAtMs, subject)) yield { kind: 'doc', doc };
      if (page.nextMaxId === undefined) return;
      maxId = page.nextMaxId;
    }
  }

  /**
   * Pages the fans list and yields each fan as a discovered subject (due now, so the frontier's
   * FIFO-by-due order makes the crawl breadth-first). Fans under `min_followers` are yielded as
   * zombies with their users document: recorded, never visited. Stops at `max_users`.
   */
  private async *discoverFans(uid: string, job: Job, ctx: VisitContext, tally: Tally): AsyncGenerator<Emitted, void, void> {
    const depth = (job.state.depth ?? 0) + 1;
    let room = this.config.max_users - (ctx.subjectCount ? await ctx.subjectCount() : 0);
    for (let sinceId: number | undefined = 1, pages = 0; sinceId !== undefined && pages < this.config.fans_page_limit && room > 0; pages++) {
      const res = await this.get(ctx, `${this.base}/api/container/getIndex?containerid=${fansContainerId(uid)}&since_id=${sinceId}`, 'json');
      tally.requests += 1;
      const page = parseFansPage(parseEnvelope(res.text, res.url));
      for (const fan of page.fans) {
        if (room <= 0) break;
        room -= 1;
        const subject = `${USER_PREFIX}${fan.uid}`;
        const zombie = fan.followers !== undefined && fan.followers < this.config.min_followers;
        if (zombie) yield { kind: 'doc', doc: userDoc(fan.uid, fan.user, res.fetchedAtMs, subject, 'zombie') };
        yield {
          kind: 'discovered', subject,
          state: { status: zombie ? 'zombie' : 'active', depth, ...(fan.followers !== undefined ? { followers: fan.followers } : {}) },
        };
      }
      // A list that does not advance would page forever: trust only a counter that moves on.
      sinceId = page.nextSinceId !== undefined && page.nextSinceId > sinceId ? page.nextSinceId : undefined;
    }
  }
}

/**
 * The next timeline page: `since_id` when the site gives one (stable while new posts arrive, spec
 * §5), else `page=` from cardlistInfo, else page + 1. Undefined when cardlistInfo says it is the end.
 */
function nextCursor(env: Envelope, page: number): string | undefined {
  const info = env.data?.cardlistInfo;
  if (!info) return `&page=${page + 1}`;
  const since = info.since_id;
  if ((typeof since === 'number' && since > 0) || (typeof since === 'string' && /^\d+$/.test(since))) return `&since_id=${since}`;
  if (typeof info.page === 'number' && info.page > page) return `&page=${info.page}`;
  return undefined;
}
