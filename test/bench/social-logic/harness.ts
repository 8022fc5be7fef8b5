import { ManualClock } from '../../../src/core/clock';
import type { Doc } from '../../../src/core/envelope';
import { newSubjectState } from '../../../src/core/envelope';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { seededRng, type Rng } from '../../../src/core/rng';
import { applyTombstone, mergeSeenPost } from '../../../src/monitor/post-merge';
import { findMissing, resolve, type IndexedPost, type PostStatus, type TimelineRead, type Verdict } from '../../../src/monitor/tombstones';
import type { FetchedText, VisitContext } from '../../../src/parsers/adapter';
import { TimelineReadRecorder } from '../../../src/parsers/weibo/read-recorder';
import { classifySinglePost } from '../../../src/parsers/weibo/single-post';
import { WeiboApiAdapter, weiboApiConfigSchema } from '../../../src/parsers/weibo-api';
import { createWorld, DEFAULT_WEIBO_OPTIONS, type LifecycleOptions, type World } from '../../../src/simsite';
import { captchaPage } from '../../../src/simsite/fault-responses';
import { softErrorBody } from '../../../src/simsite/faults';
import { WeiboSite } from '../../../src/simsite/weibo/routes';

/**
 * The monitoring loop of issue 19 run in process, with the project's own code everywhere except
 * the runner, Redis and the search engine (not wired yet): the weibo_api adapter visits users on a
 * fixed interval against simsite's routes with a post lifecycle, through a fetch layer that injects
 * the faults the issue names; the read recorder, the tombstone decider, the single-post check and
 * the version merge maintain an in-memory index, which is compared with simsite's truth.
 */
export interface HarnessOptions {
  seed: number;
  users: number;
  days: number;
  visitIntervalMs: number;
  lifecycle: LifecycleOptions;
  faults: { serverErrorRate: number; timeoutRate: number; softBlockRate: number; http432Rate: number; truncatedRate: number; quotaVisitRate: number };
  pageLimit: number;
  recheckPages: number;
  recheckHours: number;
  sweepPages: number;
  maxChecksPerVisit: number;
  /**
   * The baseline a crawler without this logic has: every indexed post of the user that a visit's
   * pages did not show is marked deleted, with no coverage rule and no single-post check.
   */
  naive?: boolean;
}

export interface Stored {
  body: Record<string, unknown>;
  userIndex: number;
  firstMissingAtMs?: number;
  notFoundCount?: number;
}

export interface HarnessResult {
  world: World;
  endMs: number;
  index: Map<string, Stored>;
  requests: number;
  checks: number;
  faultsInjected: Record<string, number>;
  visits: number;
  failedVisits: number;
  /** Timeline answers that were soft blocks, and how many of them a read took for the end of the list. */
  softBlockedTimelinePages: number;
  softBlocksReadAsEnd: number;
}

const DAY_MS = 86_400_000;

class FaultyFetch {
  readonly injected: Record<string, number> = {};
  requests = 0;
  quotaAfter = Infinity;
  /** When the last answer was a soft block (HTTP 200 body), its time; else null. */
  lastSoftBlockAtMs: number | null = null;
  private visitRequests = 0;

  constructor(private readonly site: WeiboSite, private readonly clock: ManualClock, private readonly rng: Rng, private readonly o: HarnessOptions['faults']) {}

  startVisit(quota: boolean): void {
    this.visitRequests = 0;
    this.quotaAfter = quota ? 1 + Math.floor(this.rng.next() * 4) : Infinity;
  }

  private count(kind: string): void {
    this.injected[kind] = (this.injected[kind] ?? 0) + 1;
  }

  async fetchText(url: string): Promise<FetchedText> {
    this.requests += 1;
    this.visitRequests += 1;
    this.lastSoftBlockAtMs = null;
    const u = new URL(url);
    const path = `${u.pathname}${u.search}`;
    const at = this.clock.nowMs();
    if (this.visitRequests > this.quotaAfter) {
      this.count('quota');
      throw new FreshetError(ErrorCodes.quotaExhausted, 'throttled', 'quota exhausted', { url }, undefined, 60_000);
    }
    const r = this.rng.next();
    const o = this.o;
    let edge = o.serverErrorRate;
    if (r < edge) {
      this.count('5xx');
      throw new FreshetError(ErrorCodes.fetchHttpStatus, 'retryable', 'HTTP 503', { url, status: 503 });
    }
    if (r < (edge += o.timeoutRate)) {
      this.count('timeout');
      throw new FreshetError(ErrorCodes.fetchTimeout, 'retryable', 'timed out', { url });
    }
    if (r < (edge += o.http432Rate)) {
      this.count('432');
      throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', 'HTTP 432', { url, status: 432 });
    }
    if (r < (edge += o.softBlockRate)) {
      const k = Math.floor(this.rng.next() * 3);
      this.count(`soft_${k}`);
      this.lastSoftBlockAtMs = at;
      const text = k === 0 ? JSON.stringify(softErrorBody('captcha_limit', path)) : k === 1 ? JSON.stringify(softErrorBody('frequent', path)) : String(captchaPage(path).body);
      return { url, status: 200, text, fetchedAtMs: at };
    }
    const res = this.site.handle({ method: 'GET', pathname: u.pathname, url: path, query: u.searchParams, headers: {}, host: 'sim', client: 'bench', nowMs: at, realMs: 0, body: '' });
    if (!res) throw new Error(`no route for ${path}`);
    let text = String(res.body);
    if (r < (edge += o.truncatedRate)) {
      this.count('truncated');
      text = text.slice(0, Math.floor(text.length / 2));
    }
    if (res.status >= 400) throw new FreshetError(ErrorCodes.fetchHttpStatus, res.status >= 500 ? 'retryable' : 'non_retryable', `HTTP ${res.status}`, { url, status: res.status });
    return { url, status: res.status, text, fetchedAtMs: at };
  }
}

export async function runHarness(o: HarnessOptions): Promise<HarnessResult> {
  const world = createWorld({ seed: o.seed, users: o.users, historyDays: 5, lifecycle: o.lifecycle });
  const site = new WeiboSite(world, { ...DEFAULT_WEIBO_OPTIONS, era: 'modern2022', responseCacheMs: 0, countFloors: true });
  const clock = new ManualClock(world.startMs);
  const rng = seededRng(o.seed ^ 0x5eed);
  const fetch = new FaultyFetch(site, clock, rng, o.faults);
  const adapter = new WeiboApiAdapter(weiboApiConfigSchema.parse({
    type: 'weibo_api', base_url: 'http://sim.test', first_visit_page_limit: 60, page_limit: o.pageLimit, recheck_pages: o.recheckPages, recheck_hours: o.recheckHours, sweep_pages: o.sweepPages,
    post_metrics: false,
  }));
  const index = new Map<string, Stored>();
  const endMs = world.startMs + o.days * DAY_MS;
  const states = world.users.map(() => newSubjectState(world.startMs, { status: 'active' }));
  // Users are spread over the interval so requests do not all fall on the same instant.
  const due = world.users.map((_u, i) => world.startMs + Math.floor((i / world.users.length) * o.visitIntervalMs));
  let visits = 0;
  let failedVisits = 0;
  let checks = 0;
  let softPages = 0;
  let softAsEnd = 0;
  for (;;) {
    let next = -1;
    for (let i = 0; i < due.length; i++) if (due[i]! < endMs && (next < 0 || due[i]! < due[next]!)) next = i;
    if (next < 0) break;
    const u = next;
    clock.setMs(Math.max(clock.nowMs(), due[u]!));
    due[u] = due[u]! + o.visitIntervalMs;
    visits += 1;
    const uid = world.users[u]!.uid;
    const recorder = new TimelineReadRecorder();
    fetch.startVisit(rng.next() < o.faults.quotaVisitRate);
    const ctx: VisitContext = {
      nowMs: () => clock.nowMs(),
      logger: silentLogger,
      fetchText: async (url) => {
        try {
          const res = await fetch.fetchText(url);
          recorder.page(url, res.text, res.fetchedAtMs);
          if (fetch.lastSoftBlockAtMs !== null && TimelineReadRecorder.isTimeline(url)) {
            softPages += 1;
            if (recorder.lastOutcome === 'end') softAsEnd += 1;
          }
          return res;
        } catch (err) {
          recorder.failed(url, clock.nowMs());
          throw err;
        }
      },
    };
    const docs: Doc[] = [];
    let gone = false;
    try {
      const gen = adapter.visit({ subject: `weibo:user:${uid}`, state: states[u]!, claimedAtMs: clock.nowMs(), leaseToken: 't' }, ctx);
      for (;;) {
        const step = await gen.next();
        if (step.done) {
          states[u] = step.value.state;
          gone = step.value.state.status === 'gone';
          if (gone) states[u] = { ...step.value.state, status: 'active' };
          break;
        }
        if (step.value.kind === 'doc') docs.push(step.value.doc);
      }
    } catch {
      failedVisits += 1;
    }
    for (const d of docs) {
      if (d.index !== 'posts') continue;
      const id = d.body['id'] as string;
      const prev = index.get(id);
      index.set(id, { body: mergeSeenPost(prev?.body, d.body), userIndex: u });
    }
    const reads: TimelineRead[] = recorder.finish();
    if (gone) reads.push({ pages: [], stop: 'end_of_list', from: { top: true }, cursor: 'since_id', endedAtMs: clock.nowMs() });
    if (o.naive) naiveReconcile(reads, u, index, clock.nowMs());
    else checks += await reconcile(reads, u, index, ctx, o.maxChecksPerVisit, clock);
  }
  return { world, endMs, index, requests: fetch.requests, checks, faultsInjected: fetch.injected, visits, failedVisits, softBlockedTimelinePages: softPages, softBlocksReadAsEnd: softAsEnd };
}

const statusOf = (b: Record<string, unknown>): PostStatus => (b['status'] as PostStatus | undefined) ?? 'active';

/** The tombstone wiring for one visit: misses from its reads, single-post checks, index updates. */
async function reconcile(reads: TimelineRead[], u: number, index: Map<string, Stored>, ctx: VisitContext, maxChecks: number, clock: ManualClock): Promise<number> {
  let checks = 0;
  for (const read of reads) {
    const mine: IndexedPost[] = [];
    for (const s of index.values()) {
      if (s.userIndex !== u) continue;
      const b = s.body;
      mine.push({
        id: b['id'] as string, status: statusOf(b),
        lastSeenAtMs: typeof b['last_seen_at'] === 'string' ? Date.parse(b['last_seen_at']) : undefined,
        firstMissingAtMs: s.firstMissingAtMs, notFoundCount: s.notFoundCount,
      });
    }
    const report = findMissing(read, mine, { maxChecks: maxChecks - checks });
    for (const seen of report.seen) {
      const s = index.get(seen.id)!;
      const last = typeof s.body['last_seen_at'] === 'string' ? Date.parse(s.body['last_seen_at']) : 0;
      if (seen.atMs > last) s.body = { ...s.body, last_seen_at: new Date(seen.atMs).toISOString() };
      delete s.firstMissingAtMs;
      delete s.notFoundCount;
    }
    for (const id of report.reappeared) {
      const s = index.get(id)!;
      s.body = mergeSeenPost(s.body, { ...s.body, status: 'active' });
    }
    for (const c of report.deferred) index.get(c.id)!.firstMissingAtMs = c.firstMissingAtMs;
    for (const c of report.toConfirm) {
      checks += 1;
      let v: Verdict = { kind: 'transient' };
      // One retry of an answer that meant nothing (error, soft block): cheap, and most faults are brief.
      for (let attempt = 0; attempt < 2 && v.kind === 'transient'; attempt++) {
        let got;
        try {
          got = classifySinglePost(await ctx.fetchText(`http://sim.test/statuses/show?id=${c.id}`, 'json'));
        } catch (err) {
          got = classifySinglePost(err as Error);
        }
        v = got.kind === 'gone' ? { kind: 'gone', status: got.status } : { kind: got.kind };
      }
      const s = index.get(c.id)!;
      const r = resolve(c, v, clock.nowMs(), { notFoundCount: s.notFoundCount });
      if (r.kind === 'tombstone') {
        s.body = applyTombstone(s.body, r.update);
        delete s.firstMissingAtMs;
        delete s.notFoundCount;
      } else if (r.kind === 'keep_missing') {
        s.firstMissingAtMs = r.firstMissingAtMs;
        s.notFoundCount = r.notFoundCount;
      } else {
        delete s.firstMissingAtMs;
        delete s.notFoundCount;
      }
    }
  }
  return checks;
}

function naiveReconcile(reads: TimelineRead[], u: number, index: Map<string, Stored>, nowMs: number): void {
  const shown = new Set(reads.flatMap((r) => r.pages.flatMap((p) => p.ids)));
  if (shown.size === 0) return;
  for (const s of index.values()) {
    if (s.userIndex !== u) continue;
    const id = s.body['id'] as string;
    if (shown.has(id)) {
      if (statusOf(s.body) !== 'active') s.body = mergeSeenPost(s.body, { ...s.body, status: 'active' });
      s.body = { ...s.body, last_seen_at: new Date(nowMs).toISOString() };
    } else if (statusOf(s.body) === 'active') {
      s.body = applyTombstone(s.body, { id, status: 'deleted', last_seen_at_ms: Date.parse(s.body['last_seen_at'] as string), first_missing_at_ms: nowMs, checked_at_ms: nowMs });
    }
  }
}
