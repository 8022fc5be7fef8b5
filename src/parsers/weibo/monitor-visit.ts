import { z } from 'zod';
import type { Doc } from '../../core/envelope';
import { FreshetError } from '../../core/errors';
import { isoTime } from '../../core/iso-time';
import { compareIds, coveredSpans, findMissing, resolve, type Candidate, type IndexedPost, type Span, type TimelineRead, type Verdict } from '../../monitor/tombstones';
import type { Emitted, FetchedText, VisitContext } from '../adapter';
import { TimelineReadRecorder } from './read-recorder';
import { classifySinglePost, type SinglePostVerdict } from './single-post';

/**
 * Deletion monitoring of one visit (issue 19): what the visit's timeline reads showed against what
 * the index holds, the single-post checks of the posts a covering read missed, and the changes to
 * store (sinks/post-merge-script.ts applies them to the stored posts; nothing here writes a post).
 * Where a post's miss is kept between visits: in its own document (`first_missing_at`,
 * `not_found_count`), not in the subject's frontier state, whose packed bytes per subject must not
 * grow with the number of posts a user has.
 */
export const weiboMonitorConfigSchema = z.strictObject({
  /** Single-post checks (`statuses/show`) one visit may spend; the rest of the misses wait for the next visit. */
  checks_per_visit: z.number().int().min(0).default(10),
  /** Unexplained not-found answers (`ok:0` without a reason), on separate visits, that count as a deletion. */
  not_found_confirmations: z.number().int().min(1).default(3),
  /** How long after an unconfirmed gone profile (or a check that could not decide) the subject is visited again. */
  recheck_gone_secs: z.number().int().min(1).default(600),
  /** How often a worker recomputes the completeness gauges from the whole ledger (an O(subjects) scan). */
  ledger_gauge_secs: z.number().int().min(10).default(300),
});

export type WeiboMonitorConfig = z.infer<typeof weiboMonitorConfigSchema>;

const PLATFORM = 'weibo';
const docId = (id: string): string => `${PLATFORM}:${id}`;

/** A VisitContext whose timeline answers (and failures) are also given to the recorder. */
export function recordingContext(ctx: VisitContext, recorder: TimelineReadRecorder): VisitContext {
  return {
    ...ctx,
    fetchText: async (url: string, expect: 'json' | 'html', headers?: Record<string, string>): Promise<FetchedText> => {
      let res: FetchedText;
      try {
        res = await ctx.fetchText(url, expect, headers);
      } catch (err) {
        recorder.failed(url, ctx.nowMs());
        throw err;
      }
      recorder.page(url, res.text, res.fetchedAtMs);
      return res;
    },
  };
}

function opDoc(id: string, op: NonNullable<Doc['op']>, body: Record<string, unknown>): Emitted {
  return { kind: 'doc', doc: { index: 'posts', id: docId(id), op, body } };
}

function verdictOf(v: SinglePostVerdict): Verdict {
  return v.kind === 'gone' ? { kind: 'gone', status: v.status } : { kind: v.kind };
}

/** What one check answered, and whether the identity is being throttled (then no more checks now). */
async function check(ctx: VisitContext, base: string, id: string): Promise<{ verdict: SinglePostVerdict; throttled: boolean }> {
  try {
    const res = await ctx.fetchText(`${base}/statuses/show?id=${id}`, 'json');
    const verdict = classifySinglePost(res);
    return { verdict, throttled: verdict.kind === 'transient' && /CAPTCHA|RATE|THROTTL/i.test(verdict.reason) };
  } catch (err) {
    return { verdict: classifySinglePost(err as Error), throttled: err instanceof FreshetError && err.kind === 'throttled' };
  }
}

export interface MonitorDeps {
  ctx: VisitContext;
  config: WeiboMonitorConfig;
  base: string;
  subject: string;
  /** Posts a list showed as stubs (`此微博已被删除` in place of the post): checked first. */
  stubIds: ReadonlySet<string>;
}

export interface MonitorTally {
  checks: number;
  requests: number;
}

const livedHours = (post: IndexedPost | undefined, firstMissingAtMs: number): number | undefined =>
  post?.createdAtMs === undefined ? undefined : Math.max(0, (firstMissingAtMs - post.createdAtMs) / 3_600_000);

function tombstoneBody(c: Candidate, status: string, checkedAtMs: number, reason: string, post: IndexedPost | undefined): Record<string, unknown> {
  const lived = livedHours(post, c.firstMissingAtMs);
  return {
    status, first_missing_at: isoTime(c.firstMissingAtMs), status_checked_at: isoTime(checkedAtMs), status_reason: reason,
    ...(c.lastSeenAtMs !== undefined ? { last_seen_at: isoTime(c.lastSeenAtMs) } : {}),
    ...(lived !== undefined ? { lived_hours: Math.round(lived * 100) / 100 } : {}),
  };
}

/**
 * After a visit's reads: the posts they showed move their `last_seen_at` on; posts a covering read
 * missed are checked one by one (within the check budget; stubs and the oldest misses first) and
 * tombstoned only on an answer that names a reason (or repeated not-found); everything undecided
 * keeps its first miss for the next visit. A soft block or throttling during the checks ends them.
 */
export async function* reconcileReads(reads: readonly TimelineRead[], d: MonitorDeps, tally: MonitorTally): AsyncGenerator<Emitted, void, void> {
  const spans: Span[] = reads.flatMap((r) => coveredSpans(r));
  for (const id of d.stubIds) spans.push({ low: id, high: id });
  if (spans.length === 0 || !d.ctx.indexedPosts) return;
  let indexed: IndexedPost[];
  try {
    indexed = await d.ctx.indexedPosts(d.subject, spans);
  } catch (err) {
    // Without the stored states nothing can be decided; misses stay for the next visit.
    d.ctx.logger.warn({ subject: d.subject, code: (err as FreshetError).code, err: (err as Error).message }, 'monitoring skipped: stored post states unreadable');
    return;
  }
  if (indexed.length === 0) return;
  const byId = new Map(indexed.map((p) => [p.id, p]));
  const shown = new Set<string>();
  for (const r of reads) for (const p of r.pages) for (const id of p.ids) shown.add(id);
  const seen = new Map<string, number>();
  const candidates = new Map<string, Candidate>();
  for (const read of reads) {
    const report = findMissing(read, indexed, { maxChecks: Number.MAX_SAFE_INTEGER });
    for (const s of report.seen) seen.set(s.id, Math.max(seen.get(s.id) ?? 0, s.atMs));
    for (const id of report.reappeared) {
      const at = read.pages.find((p) => p.ids.includes(id))?.fetchedAtMs ?? read.endedAtMs;
      seen.set(id, Math.max(seen.get(id) ?? 0, at));
    }
    for (const c of report.toConfirm) {
      if (shown.has(c.id)) continue; // another read of this visit showed it
      const prev = candidates.get(c.id);
      if (!prev || c.firstMissingAtMs < prev.firstMissingAtMs) candidates.set(c.id, c);
    }
  }
  for (const [id, atMs] of seen) {
    const stored = byId.get(id);
    // Only a later sighting is news (and a tombstoned post shown again is live again).
    if (stored && stored.status === 'active' && stored.firstMissingAtMs === undefined && stored.lastSeenAtMs !== undefined && stored.lastSeenAtMs >= atMs) continue;
    yield opDoc(id, 'seen', { last_seen_at: isoTime(atMs) });
  }
  const queue = [...candidates.values()].sort((a, b) => Number(d.stubIds.has(b.id)) - Number(d.stubIds.has(a.id)) || a.firstMissingAtMs - b.firstMissingAtMs || compareIds(a.id, b.id));
  let stopChecks = false;
  for (const c of queue) {
    const stored = byId.get(c.id);
    if (stopChecks || tally.checks >= d.config.checks_per_visit) {
      yield opDoc(c.id, 'missing', { first_missing_at: isoTime(c.firstMissingAtMs), not_found_count: stored?.notFoundCount ?? 0 });
      continue;
    }
    tally.checks += 1;
    tally.requests += 1;
    const { verdict, throttled } = await check(d.ctx, d.base, c.id);
    if (throttled) stopChecks = true;
    const at = d.ctx.nowMs();
    const r = resolve(c, verdictOf(verdict), at, { notFoundCount: stored?.notFoundCount ?? 0 }, { notFoundConfirmations: d.config.not_found_confirmations });
    if (r.kind === 'tombstone') {
      yield opDoc(c.id, 'tombstone', tombstoneBody(c, r.update.status, at, verdict.kind === 'gone' ? verdict.reason : 'not_found', stored));
    } else if (r.kind === 'keep_missing') {
      yield opDoc(c.id, 'missing', { first_missing_at: isoTime(r.firstMissingAtMs), not_found_count: r.notFoundCount, status_checked_at: isoTime(at) });
    } else {
      // The post is there: it left the timeline for another reason, or the read was wrong.
      yield opDoc(c.id, 'seen', { last_seen_at: isoTime(at) });
    }
  }
}

/** What a profile that answered "no such user" turned out to be. */
export type GoneProfile =
  /** Confirmed: every active post was tombstoned `account_gone`. */
  | { kind: 'gone' }
  /** Not decided (a check failed, said not found too few times, or the post is there): visit again soon. */
  | { kind: 'unconfirmed'; notFoundCount: number; reason: string };

/**
 * A profile that answered "no such user" (`这里还没有内容`): the newest active post is checked; only
 * an answer that the account is gone (or repeated not-found, on separate visits) tombstones the
 * user's posts as `account_gone`. Without indexed posts there is nothing to mark.
 */
export async function* confirmGoneProfile(
  d: Omit<MonitorDeps, 'stubIds'>, missedAtMs: number, priorNotFound: number, postsSeen: number, tally: MonitorTally,
): AsyncGenerator<Emitted, GoneProfile, void> {
  if (!d.ctx.indexedPosts) return { kind: 'gone' };
  const stored = await d.ctx.indexedPosts(d.subject, [{ low: null, high: null }]);
  // Posts were read but none is searchable yet (the index refreshes in its own time): decide later,
  // or the account would end without its posts marked.
  if (stored.length === 0 && postsSeen > 0) return { kind: 'unconfirmed', notFoundCount: priorNotFound, reason: 'posts_not_searchable' };
  const active = stored.filter((p) => p.status === 'active');
  if (active.length === 0) return { kind: 'gone' };
  const newest = active.reduce((a, b) => (compareIds(a.id, b.id) >= 0 ? a : b));
  tally.checks += 1;
  tally.requests += 1;
  const { verdict } = await check(d.ctx, d.base, newest.id);
  const at = d.ctx.nowMs();
  const notFound = verdict.kind === 'not_found' ? priorNotFound + 1 : priorNotFound;
  const confirmed = (verdict.kind === 'gone' && verdict.status === 'account_gone') || notFound >= d.config.not_found_confirmations;
  if (!confirmed) return { kind: 'unconfirmed', notFoundCount: notFound, reason: verdict.kind === 'gone' ? `post_${verdict.status}` : verdict.kind };
  for (const p of active) {
    const c: Candidate = { id: p.id, lastSeenAtMs: p.lastSeenAtMs, firstMissingAtMs: Math.min(p.firstMissingAtMs ?? Infinity, missedAtMs) };
    yield opDoc(p.id, 'tombstone', tombstoneBody(c, 'account_gone', at, verdict.kind === 'gone' ? verdict.reason : 'not_found', p));
  }
  return { kind: 'gone' };
}
