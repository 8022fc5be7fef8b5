import { ManualClock } from '../../../src/core/clock';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import type { VisitContext } from '../../../src/parsers/adapter';
import { zhihuApiConfigSchema, ZhihuApiAdapter } from '../../../src/parsers/zhihu-api';
import { createWorld, type World } from '../../../src/simsite';
import { DEFAULT_QA_OPTIONS, QaSite, type QaOptions } from '../../../src/simsite/qa';
import { drive, jobFor } from '../../helpers/weibo-fake';

function fakeQa(options: Partial<QaOptions> = {}): { world: World; requests: string[]; ctx: VisitContext; subjects: { n: number } } {
  const world = createWorld({ seed: 9, users: 300, historyDays: 5 });
  const site = new QaSite(world, { ...DEFAULT_QA_OPTIONS, ...options });
  const clock = new ManualClock(world.startMs);
  const requests: string[] = [];
  const subjects = { n: 0 };
  const ctx: VisitContext = {
    nowMs: () => clock.nowMs(),
    logger: silentLogger,
    subjectCount: async () => subjects.n,
    fetchText: async (url) => {
      const u = new URL(url);
      requests.push(`${u.pathname}${u.search}`);
      const res = site.handle({
        method: 'GET', pathname: u.pathname, url: `${u.pathname}${u.search}`, query: u.searchParams, headers: { host: 'qa.test' },
        host: 'qa.test', client: 'unit', nowMs: clock.nowMs(), realMs: 0, body: '',
      });
      if (!res) throw new Error(`no route for ${url}`);
      return { url, status: res.status, text: String(res.body), fetchedAtMs: clock.nowMs() };
    },
  };
  return { world, requests, ctx, subjects };
}

const adapter = (extra: Record<string, unknown> = {}) =>
  new ZhihuApiAdapter(zhihuApiConfigSchema.parse({ type: 'zhihu_api', base_url: 'http://qa.test', ...extra }));

const zhihuJob = (token: string) => ({ ...jobFor(0), subject: `zhihu:user:${token}` });

/** A member following more than two pages of people. */
function follower(world: World, minFollowees = 45): number {
  const i = world.users.findIndex((u) => world.followeesOf(u.index).length > minFollowees);
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

const followeesRequests = (requests: string[]) => requests.filter((r) => r.includes('/followees?'));

describe('zhihu_api', () => {
  it('reads the member, then followees by offset/limit until is_end; every followee is discovered once, zombies recorded', async () => {
    const qa = fakeQa();
    const u = follower(qa.world);
    const user = qa.world.users[u]!;
    const { emitted, outcome } = await drive(adapter(), zhihuJob(user.urlToken), qa.ctx);
    const followees = [...qa.world.followeesOf(u)];
    const pages = Math.ceil(followees.length / 20);
    expect(qa.requests[0]).toMatch(new RegExp(`^/api/v4/members/${user.urlToken}\\?include=`));
    expect(followeesRequests(qa.requests).map((r) => new URL(r, 'http://x').searchParams.get('offset'))).toEqual(Array.from({ length: pages }, (_, i) => String(i * 20)));
    expect(outcome.requests).toBe(1 + pages);
    const discovered = emitted.flatMap((e) => (e.kind === 'discovered' ? [e] : []));
    expect(discovered.map((d) => d.subject)).toEqual(followees.map((f) => `zhihu:user:${qa.world.users[f]!.urlToken}`));
    for (const [k, f] of followees.entries()) {
      const n = qa.world.fanCount(f);
      expect(discovered[k]!.state).toEqual({ status: n < 10 ? 'zombie' : 'active', depth: 1, followers: n });
    }
    const docs = emitted.flatMap((e) => (e.kind === 'doc' ? [e.doc] : []));
    expect(docs[0]).toMatchObject({
      index: 'users', id: `zhihu:${user.hexId}`,
      body: { platform: 'zhihu', screen_name: user.screenName, followers_count: qa.world.fanCount(u), follow_count: followees.length, location: user.province, status: 'active' },
    });
    expect(docs.filter((d) => d.body['status'] === 'zombie')).toHaveLength(discovered.filter((d) => d.state.status === 'zombie').length);
    expect(outcome.state.visits).toBe(1);
  });

  it('trusts is_end over next: a list whose last page repeats itself (is_end stuck false) still ends', async () => {
    const qa = fakeQa({ isEndStuck: true });
    const u = follower(qa.world);
    const { emitted } = await drive(adapter(), zhihuJob(qa.world.users[u]!.urlToken), qa.ctx);
    const n = qa.world.followeesOf(u).length;
    // The stuck page points `next` at itself; freshet's own offset moves on and stops at totals.
    expect(followeesRequests(qa.requests)).toHaveLength(Math.ceil(n / 20));
    expect(new Set(emitted.flatMap((e) => (e.kind === 'discovered' ? [e.subject] : []))).size).toBe(n);
  });

  it('stops at the silent offset cap, at followees_page_limit and at max_users', async () => {
    const capped = fakeQa({ offsetCap: 20 });
    const u = follower(capped.world);
    const a = await drive(adapter(), zhihuJob(capped.world.users[u]!.urlToken), capped.ctx);
    expect(a.emitted.filter((e) => e.kind === 'discovered')).toHaveLength(20);
    expect(followeesRequests(capped.requests).length).toBeLessThanOrEqual(2);

    const limited = fakeQa();
    await drive(adapter({ followees_page_limit: 1 }), zhihuJob(limited.world.users[u]!.urlToken), limited.ctx);
    expect(followeesRequests(limited.requests)).toHaveLength(1);

    const full = fakeQa();
    full.subjects.n = 95;
    const b = await drive(adapter({ max_users: 100 }), zhihuJob(full.world.users[u]!.urlToken), full.ctx);
    expect(b.emitted.filter((e) => e.kind === 'discovered')).toHaveLength(5);
    expect(followeesRequests(full.requests)).toHaveLength(1);
  });

  it('refuses a body that is not JSON as retryable, and a body without a member as a shape error', async () => {
    const qa = fakeQa();
    const ctx: VisitContext = { ...qa.ctx, fetchText: async (url) => ({ url, status: 200, text: '{"paging":{"is_e', fetchedAtMs: 0 }) };
    await expect(drive(adapter(), zhihuJob('x'), ctx)).rejects.toMatchObject({ code: 'E_PARSE_JSON', kind: 'retryable' });
    const ctx2: VisitContext = { ...qa.ctx, fetchText: async (url) => ({ url, status: 200, text: '{"error":{"code":40362}}', fetchedAtMs: 0 }) };
    await expect(drive(adapter(), zhihuJob('x'), ctx2)).rejects.toMatchObject({ code: 'E_PARSE_SHAPE' });
  });

  it('maps the site\'s 403 (risk control) to a deferral and its 401 to a login wall, not to dead letters of bad items', async () => {
    const qa = fakeQa();
    const refusing = (status: number): VisitContext => ({
      ...qa.ctx,
      fetchText: async (url) => {
        throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', `HTTP ${status}`, { url, status });
      },
    });
    await expect(drive(adapter({ risk_control_backoff_secs: 90 }), zhihuJob('x'), refusing(403))).rejects.toMatchObject({ code: 'E_RATE_LIMITED_BODY', kind: 'throttled', retryAfterMs: 90_000 });
    await expect(drive(adapter(), zhihuJob('x'), refusing(401))).rejects.toMatchObject({ code: 'E_LOGIN_REQUIRED', kind: 'non_retryable' });
    await expect(drive(adapter(), zhihuJob('x'), refusing(404))).rejects.toMatchObject({ code: 'E_FETCH_HTTP_STATUS' });
  });
});
