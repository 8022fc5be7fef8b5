import type { Job, SubjectState } from '../core/envelope';
import type { Adapter, Emitted, FetchedText, VisitContext, VisitOutcome } from './adapter';
import { ErrorCodes, FreshetError } from '../core/errors';
import { isoTime } from '../core/iso-time';
import { parseCount } from './weibo/counts';
import { parseWeiboDateMs } from './weibo/dates';
import { metricsDoc, postDoc, userDoc } from './weibo/docs';
import { discoverFans, readComments, type WeiboReads } from './weibo/fans-and-comments';
import { stubStatus } from './weibo/post-status';
import { envelopeOf, isData, mblogsOf, nextCursor, type CheckedText, type Envelope } from './weibo/shapes';
import type { WeiboApiConfig } from './weibo/config';
import type { PagesRead, Reading, Tally } from './weibo/visit-state';
import { confirmGoneProfile, reconcileReads, recordingContext } from './weibo/monitor-visit';
import { TimelineReadRecorder } from './weibo/read-recorder';
import { ledgerCheck } from './weibo/ledger-check';
import { softBlockOfStatus } from './weibo/soft-block';
import { CheckedEnvelopes } from './weibo/checked-envelopes';
import { dueIds, dueValue, LONG_TEXT_DUE_KEY, readDuePosts, readLongText } from './weibo/long-text';
import { compareIds } from './weibo/text';

export { weiboApiConfigSchema, type WeiboApiConfig } from './weibo/config';

const PLATFORM = 'weibo';
const USER_PREFIX = `${PLATFORM}:user:`;

const BAD_PAGE_MAX_BACKOFF_MS = 3_600_000;
/** Posts whose long text is due read one by one per visit (two requests each); the rest wait. */
const LONG_TEXT_DUE_PER_VISIT = 5;

/** A failure that passes (a cut or malformed body, a 5xx burst outlasting the fetcher's retries): the page is read again later. */
const passing = (err: unknown): err is FreshetError => err instanceof FreshetError && err.kind === 'retryable';

const SINCE = '&since_id=';
/** Post ids are 64-bit (≤ 20 digits); one RegExp for every post instead of a literal evaluated (a new object) per post. */
const POST_ID = /^\d{1,20}$/;
/** `gap_until` of a first visit cut short: no known post below the gap, read to the end of the list. */
const BOTTOM = '0';

/** The microblog JSON API (shapes: shared/specs/social-api-shapes.md §1): profiles, timelines, fans. */
export class WeiboApiAdapter implements Adapter {
  readonly type = 'weibo_api';
  private readonly base: string;
  private readonly checked = new CheckedEnvelopes();

  constructor(private readonly config: WeiboApiConfig) {
    this.base = config.base_url.replace(/\/+$/, '');
  }

  /** Soft-block bodies are short: longer answers are data (parsed once, by the visit). */
  softBlockOf(res: { url: string; status: number; text: string }): { reason: string; error: FreshetError } | undefined {
    return this.checked.softBlockOf(res);
  }

  private reads(tally: Tally): WeiboReads {
    return { get: (ctx, url, expect) => this.get(ctx, url, expect), base: this.base, tally };
  }

  /** A JSON request; a 432 (the site rejecting this client) is a soft block, rescheduled like throttling. */
  private async get(ctx: VisitContext, url: string, expect: 'json' | 'html'): Promise<CheckedText> {
    let res: FetchedText;
    try {
      res = await ctx.fetchText(url, expect);
    } catch (err) {
      throw softBlockOfStatus(err) ?? err;
    }
    const envelope = this.checked.take(res.url, res.text);
    return envelope === undefined ? res : { ...res, envelope };
  }

  /**
   * The profile: its users document, the timeline's container id. `gone` when the site says there
   * is no such user (`这里还没有内容`: a deleted account or a bad id; not a ban, not an error).
   */
  private async readProfile(uid: string, subject: string, ctx: VisitContext, tally: Tally, state: SubjectState): Promise<{ gone: false; containerId: string; doc: Emitted } | { gone: true; atMs: number }> {
    const res = await this.get(ctx, `${this.base}/api/container/getIndex?type=uid&value=${uid}&containerid=100505${uid}`, 'json');
    tally.requests += 1;
    const env = envelopeOf(res);
    const info = env.data?.userInfo;
    if (!isData(env) || !info) return { gone: true, atMs: res.fetchedAtMs };
    const containerId = env.data?.tabsInfo?.tabs?.find((t) => t.tabKey === 'weibo')?.containerid ?? `107603${uid}`;
    state.meta = { ...state.meta, containerid: containerId };
    const followers = parseCount(info.followers_count);
    if (followers !== undefined) state.followers = followers;
    return { gone: false, containerId, doc: { kind: 'doc', doc: userDoc(uid, info, res.fetchedAtMs, subject) } };
  }

  /**
   * A gone profile ends the subject; under monitoring only once a check of its newest post agrees
   * (then its posts are tombstoned `account_gone`), else it is visited again soon.
   */
  private async *goneProfile(subject: string, ctx: VisitContext, tally: Tally, state: SubjectState, atMs: number): AsyncGenerator<Emitted, VisitOutcome, void> {
    const ended = (s: SubjectState, resume?: VisitOutcome['resume']): VisitOutcome => ({
      state: { ...s, visits: s.visits + 1, lastVisitMs: atMs }, newPostTimesMs: [], pageLimitHit: false, requests: tally.requests, ...(resume ? { resume } : {}),
    });
    const { gone_checks: prior, ...meta } = state.meta ?? {};
    if (!this.config.monitor) return ended({ ...state, status: 'gone' });
    const g = yield* confirmGoneProfile({ ctx, config: this.config.monitor, base: this.base, subject }, atMs, Number(prior ?? 0), state.postsSeen, tally);
    if (g.kind === 'gone') return ended({ ...state, meta, status: 'gone' });
    ctx.logger.info({ subject, reason: g.reason }, 'profile answered "no such user"; not confirmed yet, visited again soon');
    return ended({ ...state, meta: { ...meta, gone_checks: String(g.notFoundCount) } }, { afterMs: this.config.monitor.recheck_gone_secs * 1000, reason: ErrorCodes.profileGoneUnconfirmed });
  }

  async *visit(job: Job, outer: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    const uid = job.subject.slice(USER_PREFIX.length);
    const state: SubjectState = { ...job.state, meta: { ...job.state.meta } };
    const tally: Tally = { requests: 0, checks: 0 };
    let containerId = state.meta?.['containerid'];
    // Under monitoring every timeline answer is also recorded as what the visit's reads covered.
    const recorder = this.config.monitor ? new TimelineReadRecorder() : undefined;
    const ctx = recorder ? recordingContext(outer, recorder) : outer;

    let profiled = false;
    // The profile's post count is stored only once this visit has read the timeline's head at the
    // same time: the completeness ledger compares it with the posts indexed by then, and a count
    // without that read (the visit failed after the profile) would show posts published since the
    // last read, and deleted before the next one, as missing for good.
    let profileDoc: Emitted | undefined;
    if (!containerId || state.visits % this.config.profile_every_visits === 0) {
      const p = await this.readProfile(uid, job.subject, ctx, tally, state);
      if (p.gone) return yield* this.goneProfile(job.subject, ctx, tally, state, p.atMs);
      containerId = p.containerId;
      profileDoc = p.doc;
      profiled = true;
    }

    if (this.config.discover_fans && state.visits % this.config.fans_every_visits === 0) {
      yield* discoverFans(this.reads(tally), uid, job, ctx, {
        maxUsers: this.config.max_users, fansPageLimit: this.config.fans_page_limit, minFollowers: this.config.min_followers, userPrefix: USER_PREFIX,
      });
    }

    // A first visit cut short by the quota goes on reading history on later visits with its own budget.
    const budget = state.watermark && state.meta?.['gap_until'] !== BOTTOM ? this.config.page_limit : this.config.first_visit_page_limit;
    const r: Reading = { seen: new Set(), newTimes: [], top: state.watermark, lastFetchMs: ctx.nowMs(), stubs: new Set(), indexed: new Set(), longDue: dueIds(state.meta), longFailed: new Set() };
    const page = { uid, containerId, subject: job.subject };
    const head = yield* this.readPages(page, ctx, tally, r, '&page=1', state.watermark, budget);
    if (profileDoc) yield profileDoc;
    // A timeline that shows nothing where posts were known may be a gone account: the profile says.
    if (this.config.monitor && !profiled && head.done && r.seen.size === 0 && state.watermark) {
      const p = await this.readProfile(uid, job.subject, ctx, tally, state);
      if (p.gone) return yield* this.goneProfile(job.subject, ctx, tally, state, p.atMs);
      yield p.doc;
    }
    let gapSince = state.meta?.['gap_since'];
    let gapUntil = state.meta?.['gap_until'];
    let pageLimitHit = false;
    let paused = head.paused;
    let bad = head.bad;
    // Cut short on a `page=` cursor (no since_id to resume from): the watermark stays, so the next visit reads down to it again.
    let keepWatermark = false;
    if (!head.done) {
      pageLimitHit = true;
      // More new posts than the page limit: remember where reading stopped and where the known
      // posts begin, and fill that gap on later visits (an older gap is folded into the new one).
      // A first visit paused by the quota (or by a bad page) has no known posts: its gap runs to the end of the list.
      if ((state.watermark || head.paused || head.bad) && head.stoppedAt?.startsWith(SINCE)) {
        gapUntil = gapSince ? gapUntil : (state.watermark ?? BOTTOM);
        gapSince = head.stoppedAt.slice(SINCE.length);
      } else if (head.bad) keepWatermark = true;
    } else if (gapSince && gapUntil && head.pages < budget) {
      const fill = yield* this.readPages(page, ctx, tally, r, `${SINCE}${gapSince}`, gapUntil, budget - head.pages);
      bad = fill.bad;
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
    let short = state.meta?.['short'];
    if (this.config.monitor && outer.ledgerCounts && head.done && !bad && !(gapSince && gapUntil) && state.visits % this.config.profile_every_visits === 1 % this.config.profile_every_visits) {
      short = yield* ledgerCheck(job.subject, outer, r, short, () => this.readPages(page, outer, tally, r, '&page=1', undefined, this.config.first_visit_page_limit, 'reread'));
    }
    // Due long texts the timeline did not show again are read post by post; failed ones stay due.
    const unread = [...r.longDue].filter((id) => !r.longFailed.has(id));
    const due = unread.length > 0 ? yield* readDuePosts(this.reads(tally), ctx, unread, { uid, subject: job.subject, maxPosts: LONG_TEXT_DUE_PER_VISIT }) : [];
    const longDue = dueValue(new Set([...due, ...r.longFailed]));
    if (recorder && this.config.monitor) {
      yield* reconcileReads(recorder.finish(), { ctx: outer, config: this.config.monitor, base: this.base, subject: job.subject, stubIds: r.stubs }, tally);
    }
    const { gap_since: _s, gap_until: _u, sweep_since: _w, bad_pages: badBefore, gone_checks: _g, short: _h, [LONG_TEXT_DUE_KEY]: _l, ...meta } = state.meta ?? {};
    state.meta = gapSince && gapUntil ? { ...meta, gap_since: gapSince, gap_until: gapUntil } : meta;
    if (longDue) state.meta = { ...state.meta, [LONG_TEXT_DUE_KEY]: longDue };
    if (short) state.meta = { ...state.meta, short };
    if (sweepSince) state.meta = { ...state.meta, sweep_since: sweepSince };
    let resume: VisitOutcome['resume'];
    if (bad) {
      const n = Number(badBefore ?? 0) + 1;
      // Met again and again: not passing after all; the visit fails (backoff, then the dead letter).
      if (n > this.config.bad_page_retries) throw bad;
      state.meta = { ...state.meta, bad_pages: String(n) };
      resume = { afterMs: Math.min(BAD_PAGE_MAX_BACKOFF_MS, this.config.bad_page_backoff_secs * 1000 * 2 ** (n - 1)), reason: bad.code };
      ctx.logger.info({ subject: job.subject, code: bad.code, bad_pages: n, posts_read: r.seen.size }, 'timeline page unreadable; the visit keeps what it read and resumes there later');
    }
    const newTimes = r.newTimes;
    const watermark = keepWatermark ? state.watermark : r.top;
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
      ...(resume ? { resume } : {}),
    };
  }

  /**
   * Reads timeline pages from `cursor`, yielding every post newer than `knownAtOrBelow` (undefined:
   * all), until a known post, the end of the list, or `maxPages`. `done` is false only when the
   * page budget ran out first; `stoppedAt` is then the cursor of the first unread page.
   */
  private async *readPages(
    page: { uid: string; containerId: string; subject: string }, ctx: VisitContext, tally: Tally, r: Reading,
    cursor: string, knownAtOrBelow: string | undefined, maxPages: number, mode: 'new' | 'sweep' | 'reread' = 'new',
  ): AsyncGenerator<Emitted, PagesRead, void> {
    // A re-read (the completeness ledger found posts missing) pages like a sweep, to the end, and indexes every post again.
    const rereading = mode === 'reread';
    const sweeping = mode === 'sweep' || rereading;
    const horizonMs = ctx.nowMs() - this.config.sweep_horizon_days * 86_400_000;
    // Out of quota (or an identity benched) after some posts were read: stop here and resume at
    // this page on a later visit, instead of failing the visit and reading it all again (a visit
    // larger than what is left of a quota window would otherwise never complete).
    const pausedAt = (err: unknown, n: number): PagesRead => {
      // One page that cannot be read: what came before is kept, the visit resumes here soon.
      if (passing(err)) return { done: false, pages: n - 1, stoppedAt: cursor, bad: err };
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
      let res: CheckedText;
      let env: Envelope;
      let parsing = false;
      try {
        res = await this.get(ctx, `${this.base}/api/container/getIndex?type=uid&value=${page.uid}&containerid=${page.containerId}${cursor}`, 'json');
        tally.requests += 1;
        r.lastFetchMs = res.fetchedAtMs;
        parsing = true;
        env = envelopeOf(res);
      } catch (err) {
        // Re-reading known posts is a bonus: every new post is read, so a failure there ends the visit well
        // (a sweep resumes at the failed page next time).
        if (sweeping) return { done: false, pages: n - 1, stoppedAt: cursor };
        if (recheck >= 0) return { done: true, pages: n - 1 };
        // A body that cannot be read (truncated, malformed) or a failure that passes: the visit keeps
        // what it read and resumes at this page soon. A soft block (throttled) fails the visit, which
        // is rescheduled; a refused request (quota, benched identity) after some posts pauses it.
        if (parsing && !passing(err)) throw err;
        return pausedAt(err, n);
      }
      const posts = isData(env) ? mblogsOf(env) : []; // `ok:0`: past the last page
      if (posts.length === 0) return { done: true, pages: n };
      if (rereading && r.listed) {
        for (const m of posts) {
          const created = stubStatus(m) ? undefined : parseWeiboDateMs(m.created_at, res.fetchedAtMs);
          if (created !== undefined && created <= r.listed.upToMs) r.listed.count += 1;
        }
      }
      const crawledAt = isoTime(res.fetchedAtMs);
      let reachedKnown = false;
      for (const m of posts) {
        const id = String(m.id ?? m.mid ?? '');
        // A longer "id" would become a watermark no real post passes.
        // A re-read indexes every post the list shows, also those an earlier read of this visit
        // (head, recheck, sweep) showed but did not index because they counted as known.
        if (!POST_ID.test(id) || (rereading ? r.indexed.has(id) || r.stubs.has(id) : r.seen.has(id))) continue;
        r.seen.add(id);
        const gone = stubStatus(m);
        if (gone) {
          // A list can show a stub where a post was (`此微博已被删除`, no author): never index it over the
          // post's last text. It is counted; the tombstone check decides what it means for the stored post.
          r.stubs.add(id);
          yield { kind: 'dropped', doc: { index: 'posts', id: `${PLATFORM}:${id}`, body: { platform: PLATFORM, id, subject: page.subject, status: gone } }, stage: this.type, reason: `post_${gone}` };
          continue;
        }
        if (this.config.post_metrics) yield { kind: 'doc', doc: metricsDoc(id, m, res.fetchedAtMs) };
        const known = rereading || (knownAtOrBelow !== undefined && compareIds(id, knownAtOrBelow) <= 0);
        if (known) {
          // A pinned post is shown first even when old: it says nothing about where new posts end.
          if (m.mblogtype !== 2) reachedKnown = true;
          // When re-reading known posts, an edited one is indexed again: its current text becomes a
          // version; so is one whose long text an earlier visit could not read again.
          const edited = (sweeping || this.config.recheck_pages > 0) && (parseCount(m.edit_count) ?? 0) > 0;
          if (!rereading && !edited && !r.longDue.has(id)) continue;
        }
        let text = m.text ?? '';
        if (m.isLongText && this.config.long_text) {
          let long;
          try {
            long = await readLongText(this.reads(tally), ctx, id);
          } catch (err) {
            // The known post keeps its indexed text, and is due: read again on later visits until its
            // current text is indexed (never taken for "unchanged", or an edit would be lost).
            if (known) {
              r.longFailed.add(id);
              ctx.logger.info({ subject: page.subject, post_id: id, code: (err as FreshetError).code }, 'long text of a known post unreadable; due on the next visit');
              continue;
            }
            // This page is read again from its start (documents are idempotent by id).
            r.seen.delete(id);
            return pausedAt(err, n);
          }
          // A known post whose long text went missing keeps its indexed text (the list's is cut short).
          if (long === undefined && known) {
            r.longDue.delete(id);
            continue;
          }
          if (long !== undefined) text = long;
        }
        r.longDue.delete(id);
        const createdMs = parseWeiboDateMs(m.created_at, res.fetchedAtMs);
        const doc = postDoc(id, m, text, page.uid, res.fetchedAtMs, this.base, page.subject, createdMs, crawledAt);
        r.indexed.add(id);
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
            yield* readComments(this.reads(tally), id, page.subject, ctx, this.config.comments_page_limit);
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
        if (!rereading && oldest !== undefined && oldest < horizonMs) return { done: true, pages: n };
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

}
