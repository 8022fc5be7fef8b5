import type { Doc } from '../../../src/core/envelope';
import { weiboApiConfigSchema, WeiboApiAdapter } from '../../../src/parsers/weibo-api';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { ERAS, findPostByMid, truthComments, truthPostsOf, type Era, type World } from '../../../src/simsite';
import type { VisitContext } from '../../../src/parsers/adapter';
import { drive, fakeWeibo, jobFor } from '../../helpers/weibo-fake';
import { expectedPost, pickPost } from '../../helpers/weibo-truth';

const adapterWith = (extra: Record<string, unknown> = {}) =>
  new WeiboApiAdapter(weiboApiConfigSchema.parse({ type: 'weibo_api', base_url: 'http://sim.test', first_visit_page_limit: 1000, ...extra }));

const docsOf = (emitted: { kind: string; doc?: Doc }[], index: string): Doc[] =>
  emitted.filter((e) => e.kind === 'doc' && e.doc!.index === index).map((e) => e.doc!);

/** A user with a pinned post, several timeline pages, and long posts among them. */
function busyUser(world: World): number {
  const now = world.startMs;
  const i = world.users.findIndex((_u, k) => {
    const posts = [...truthPostsOf(world, k, world.historyStartMs, now)];
    return posts.length > 25 && posts.some((p) => p.pinned) && posts.some((p) => p.isLong) && world.fansOf(k).length > 25;
  });
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

describe.each(ERAS.map((e) => [e]))('weibo_api against simsite routes (%s)', (era: Era) => {
  it('plans profile, then timeline pages to the end, long texts on the way; every post equals the truth', async () => {
    const fake = fakeWeibo(era);
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const { emitted, outcome } = await drive(adapterWith(), jobFor(uid), fake.ctx);
    const truth = [...truthPostsOf(fake.world, u, fake.world.historyStartMs, fake.clock.nowMs())];
    const longs = truth.filter((t) => t.isLong).length;
    const pages = Math.ceil(truth.length / 10);

    expect(fake.requests[0]).toBe(`/api/container/getIndex?type=uid&value=${uid}&containerid=100505${uid}`);
    const timeline = fake.requests.filter((r) => /containerid=(107603|230413)/.test(r));
    expect(timeline).toHaveLength(pages);
    expect(timeline[0]).toMatch(/&page=1$/);
    // Later pages follow the stable since_id cursor (spec §5), never a guessed page number.
    for (const r of timeline.slice(1)) expect(r).toMatch(/&since_id=\d+$/);
    expect(fake.requests.filter((r) => r.startsWith('/statuses/extend?id='))).toHaveLength(longs);
    expect(outcome.requests).toBe(fake.requests.length);
    expect(outcome.requests).toBe(1 + pages + longs);
    expect(outcome.pageLimitHit).toBe(false);

    const posts = docsOf(emitted, 'posts');
    expect(posts.map((d) => d.id).sort()).toEqual(truth.map((t) => `weibo:${t.id}`).sort());
    const byId = new Map(posts.map((d) => [d.body['id'] as string, d.body]));
    for (const t of truth) expect(pickPost(byId.get(t.id)!)).toEqual(expectedPost(fake.world, era, t, fake.clock.nowMs()));
    expect(docsOf(emitted, 'users')).toHaveLength(1);
    expect(docsOf(emitted, 'post-metrics')).toHaveLength(truth.length);
    expect(outcome.state.watermark).toBe(truth.map((t) => t.id).sort((a, b) => a.length - b.length || a.localeCompare(b)).pop());
    expect(outcome.state.postsSeen).toBe(truth.length);
  });

  it('a later visit reads only the new page(s) and stops at the watermark, pinned post or not', async () => {
    const fake = fakeWeibo(era);
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith();
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    const before = fake.clock.nowMs();
    fake.clock.advanceMs(2 * 86_400_000);
    fake.requests.length = 0;
    const second = await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, fake.ctx);
    const fresh = [...truthPostsOf(fake.world, u, before + 1, fake.clock.nowMs())];
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length).toBeLessThan(9);
    // No profile (every 10th visit), one timeline page holding all new posts and the first known one.
    expect(fake.requests.filter((r) => /containerid=(107603|230413)/.test(r))).toEqual([expect.stringMatching(/&page=1$/)]);
    expect(fake.requests.some((r) => r.includes('containerid=100505'))).toBe(false);
    expect(docsOf(second.emitted, 'posts').map((d) => d.body['id']).sort()).toEqual(fresh.map((t) => t.id).sort());
    expect(second.outcome.newPostTimesMs).toHaveLength(fresh.length);
    expect(second.outcome.state.visits).toBe(2);
  });
});

describe('the soft-block check and the read share one parse', () => {
  it('parses each short body once when the fetcher checked it (as http_fetch does), and emits the same documents', async () => {
    const plain = fakeWeibo('modern2022');
    const u = busyUser(plain.world);
    const uid = plain.world.users[u]!.uid;
    const expected = await drive(adapterWith(), jobFor(uid), plain.ctx);

    const fake = fakeWeibo('modern2022');
    const adapter = adapterWith();
    // The fetcher runs the parser's soft-block check on every answer before the read gets it.
    const checkedCtx: VisitContext = { ...fake.ctx, fetchText: async (url, want, headers) => {
      const res = await fake.ctx.fetchText(url, want, headers);
      expect(adapter.softBlockOf(res)).toBeUndefined();
      return res;
    } };
    const parsed = new Map<string, number>();
    const realParse = JSON.parse;
    const spy = jest.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsed.set(text, (parsed.get(text) ?? 0) + 1);
      return realParse(text, reviver);
    });
    let got;
    try {
      got = await drive(adapter, jobFor(uid), checkedCtx);
    } finally {
      spy.mockRestore();
    }
    const bodies = [...parsed.entries()].filter(([text]) => text.startsWith('{') && text.length > 100);
    expect(bodies.length).toBeGreaterThan(3);
    expect(bodies.filter(([, n]) => n > 1).map(([text]) => text.slice(0, 80))).toEqual([]);
    expect(got.emitted.map((e) => e.kind === 'doc' ? e.doc!.id : e.kind)).toEqual(expected.emitted.map((e) => e.kind === 'doc' ? e.doc!.id : e.kind));
  });
});

describe('the page-limit gap', () => {
  it('records where a later visit stopped short of the watermark and fills the gap on the next visits, losing nothing', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ page_limit: 2 });
    let state = (await drive(adapter, jobFor(uid), fake.ctx)).outcome.state;
    const t0 = fake.clock.nowMs();
    fake.clock.advanceMs(25 * 86_400_000);
    const fresh = [...truthPostsOf(fake.world, u, t0 + 1, fake.clock.nowMs())].map((t) => t.id);
    expect(fresh.length).toBeGreaterThan(40);
    const got = new Set<string>();
    const visits: { pages: number; limitHit: boolean; gap: boolean }[] = [];
    for (let v = 0; v < 10; v++) {
      fake.requests.length = 0;
      const { emitted, outcome } = await drive(adapter, { ...jobFor(uid), state }, fake.ctx);
      for (const d of docsOf(emitted, 'posts')) got.add(d.body['id'] as string);
      state = outcome.state;
      visits.push({ pages: fake.requests.filter((r) => r.includes('containerid=230413')).length, limitHit: outcome.pageLimitHit, gap: state.meta?.['gap_since'] !== undefined });
      if (!outcome.pageLimitHit) break;
    }
    expect(visits[0]).toEqual({ pages: 2, limitHit: true, gap: true });
    expect(visits.every((v) => v.pages <= 2)).toBe(true);
    expect(visits[visits.length - 1]).toMatchObject({ limitHit: false, gap: false });
    expect([...got].sort()).toEqual([...fresh].sort());
    expect(state.watermark).toBe(fresh.sort((a, b) => a.length - b.length || a.localeCompare(b)).pop());
  });
});

describe('a visit paused by the quota', () => {
  /** The fake site, until `left` more requests (matching `what`) have gone: then every request is refused for quota. */
  const quotaAfter = (ctx: VisitContext, left: number, what = /./) => ({
    ...ctx,
    fetchText: async (url: string, expect: 'json' | 'html') => {
      if (what.test(url) && left-- <= 0) throw new FreshetError(ErrorCodes.quotaExhausted, 'throttled', 'every identity is at its quota or benched', {}, undefined, 60_000);
      return ctx.fetchText(url, expect);
    },
  });

  it.each([['a timeline page', /containerid=(107603|230413)/, 1], ['a long text', /statuses\/extend/, 1]])(
    'keeps what it read when refused on %s, and later visits read the rest as a gap: every post once, as the truth says',
    async (_what, match, pagesBefore) => {
      const fake = fakeWeibo('modern2022');
      const u = busyUser(fake.world);
      const uid = fake.world.users[u]!.uid;
      const adapter = adapterWith({ page_limit: 2 });
      const truth = [...truthPostsOf(fake.world, u, fake.world.historyStartMs, fake.clock.nowMs())].map((t) => t.id);
      expect(truth.length).toBeGreaterThan(25);
      const first = await drive(adapter, jobFor(uid), quotaAfter(fake.ctx, pagesBefore, match));
      expect(first.outcome.pageLimitHit).toBe(true);
      // The runner makes the rest due when the quota allows (60 s here), not at the next scheduled visit.
      expect(first.outcome.paused).toEqual({ code: ErrorCodes.quotaExhausted, retryAfterMs: 60_000 });
      const got = new Map<string, number>();
      const count = (emitted: { kind: string; doc?: Doc }[]) => { for (const d of docsOf(emitted, 'posts')) got.set(d.body['id'] as string, (got.get(d.body['id'] as string) ?? 0) + 1); };
      count(first.emitted);
      expect(got.size).toBeGreaterThan(0);
      expect(got.size).toBeLessThan(truth.length);
      expect(first.outcome.state.meta).toMatchObject({ gap_until: '0', gap_since: expect.stringMatching(/^\d+$/) });
      let state = first.outcome.state;
      let visits = 1;
      for (let more = true; more && visits < 20; visits++) {
        const next = await drive(adapter, { ...jobFor(uid), state }, fake.ctx);
        count(next.emitted);
        state = next.outcome.state;
        more = next.outcome.pageLimitHit;
      }
      expect(visits).toBe(2);
      expect([...got.keys()].sort()).toEqual([...truth].sort());
      expect(state.meta?.['gap_since']).toBeUndefined();
      // Only the page the pause interrupted is read twice.
      expect([...got.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(10);
    },
  );

  it('with nothing read yet, fails the visit as before (deferred by the runner)', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    await expect(drive(adapterWith(), jobFor(fake.world.users[u]!.uid), quotaAfter(fake.ctx, 1))).rejects.toMatchObject({ code: ErrorCodes.quotaExhausted });
  });
});

describe('comments', () => {
  it.each([[5], [1]])('reads the hot flow of every new post with comments (%p page(s) of 20 at most), replies included, equal to the truth', async (pagesPerPost) => {
    const fake = fakeWeibo('modern2022');
    const now = fake.clock.nowMs();
    // The user whose busiest post has the most visible comments, so that the page cap matters.
    const most = (k: number) => Math.max(0, ...[...truthPostsOf(fake.world, k, fake.world.historyStartMs, now)].map((t) => truthComments(fake.world, findPostByMid(fake.world, t.id)!, now).length));
    const u = fake.world.users.map((_x, k) => k).sort((a, b) => most(b) - most(a))[0]!;
    expect(most(u)).toBeGreaterThan(40);
    const uid = fake.world.users[u]!.uid;
    const { emitted } = await drive(adapterWith({ comments: true, comments_page_limit: pagesPerPost }), jobFor(uid), fake.ctx);
    const got = new Map(docsOf(emitted, 'comments').map((d) => [d.body['id'] as string, d.body]));
    let expected = 0;
    for (const t of truthPostsOf(fake.world, u, fake.world.historyStartMs, now)) {
      const rows = truthComments(fake.world, findPostByMid(fake.world, t.id)!, now);
      const roots = rows.filter((c) => c['id'] === c['rootId']).slice(0, 20 * pagesPerPost).map((c) => c['id']);
      for (const c of rows.filter((x) => roots.includes(x['rootId']))) {
        expected += 1;
        expect(got.get(String(c['id']))).toMatchObject({
          post_id: t.id, root_id: String(c['rootId']), text: String(c['text']).trim(), created_at: c['createdAt'],
          author: { id: String(c['uid']) },
        });
      }
    }
    expect(expected).toBeGreaterThan(40);
    expect(got.size).toBe(expected);
    expect(fake.requests.filter((r) => r.startsWith('/comments/hotflow')).length).toBeGreaterThan(0);
  });

  it('reads the hot flow of the posts that are new on later visits too (gap-filling visits included), never again for known posts', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ comments: true, comments_page_limit: 5, page_limit: 2 });
    const firstMids = (r: string[]) => r.filter((x) => x.startsWith('/comments/hotflow') && !x.includes('&max_id=')).map((x) => new URLSearchParams(x.split('?')[1]).get('mid')!);
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    const known = new Set(docsOf(first.emitted, 'posts').map((d) => d.body['id'] as string));
    expect(firstMids(fake.requests).length).toBeGreaterThan(0);
    const t0 = fake.clock.nowMs();
    fake.clock.advanceMs(25 * 86_400_000);
    const now = fake.clock.nowMs();
    fake.requests.length = 0;
    // Several later visits: the first stops at its page limit, the next ones fill the gap.
    let state = first.outcome.state;
    const comments = new Map<string, Record<string, unknown>>();
    let visits = 0;
    for (let more = true; more && visits < 10; visits++) {
      const { emitted, outcome } = await drive(adapter, { ...jobFor(uid), state }, fake.ctx);
      for (const d of docsOf(emitted, 'comments')) comments.set(d.body['id'] as string, d.body);
      state = outcome.state;
      more = outcome.pageLimitHit;
    }
    expect(visits).toBeGreaterThan(1);
    const fresh = [...truthPostsOf(fake.world, u, t0 + 1, now)];
    const withComments = fresh.filter((t) => truthComments(fake.world, findPostByMid(fake.world, t.id)!, now).length > 0);
    expect(withComments.length).toBeGreaterThan(5);
    // One hot flow per new post with comments, none for a post the first visit had already read.
    const asked = firstMids(fake.requests);
    expect([...asked].sort()).toEqual(withComments.map((t) => t.id).sort());
    expect(asked.some((m) => known.has(m))).toBe(false);
    let expected = 0;
    for (const t of withComments) {
      const rows = truthComments(fake.world, findPostByMid(fake.world, t.id)!, now);
      const roots = rows.filter((c) => c['id'] === c['rootId']).slice(0, 100).map((c) => c['id']);
      for (const c of rows.filter((x) => roots.includes(x['rootId']))) {
        expected += 1;
        expect(comments.get(String(c['id']))).toMatchObject({ post_id: t.id, root_id: String(c['rootId']), text: String(c['text']).trim(), created_at: c['createdAt'] });
      }
    }
    expect(comments.size).toBe(expected);
  });

  it('keeps the post when the hot flow is refused without a login (403), and reads nothing more of it', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    const ctx = {
      ...fake.ctx,
      fetchText: async (url: string, expect: 'json' | 'html') => {
        if (url.includes('/comments/hotflow')) throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', 'HTTP 403', { url, status: 403 });
        return fake.ctx.fetchText(url, expect);
      },
    };
    const { emitted, outcome } = await drive(adapterWith({ comments: true }), jobFor(fake.world.users[u]!.uid), ctx);
    expect(docsOf(emitted, 'comments')).toEqual([]);
    expect(docsOf(emitted, 'posts').length).toBe(outcome.state.postsSeen);
    expect(outcome.state.postsSeen).toBeGreaterThan(25);
  });
});

describe('fans discovery', () => {
  it('pages the fans list by since_id, yields fans as due subjects and low-follower fans as zombies with a users document', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const { emitted } = await drive(adapterWith({ discover_fans: true, min_followers: 40 }), jobFor(uid, { depth: 0 }), fake.ctx);
    const fans = [...fake.world.fansOf(u)];
    const fanPages = fake.requests.filter((r) => r.includes('containerid=231051_-_fans_-_'));
    expect(fanPages).toEqual(Array.from({ length: Math.ceil(fans.length / 20) }, (_, i) => `/api/container/getIndex?containerid=231051_-_fans_-_${uid}&since_id=${i + 1}`));
    const discovered = emitted.filter((e) => e.kind === 'discovered');
    expect(discovered.map((d) => d.kind === 'discovered' && d.subject)).toEqual(fans.map((f) => `weibo:user:${fake.world.users[f]!.uid}`));
    // A high threshold, so that this small world's fans fall on both sides of it.
    const zombies = fans.filter((f) => fake.world.followersCount(f) < 40);
    expect(zombies.length).toBeGreaterThan(0);
    expect(zombies.length).toBeLessThan(fans.length);
    for (const [k, f] of fans.entries()) {
      const d = discovered[k]!;
      if (d.kind !== 'discovered') throw new Error('unreachable');
      expect(d.state).toEqual({ status: fake.world.followersCount(f) < 40 ? 'zombie' : 'active', depth: 1, followers: fake.world.followersCount(f) });
    }
    const zombieDocs = docsOf(emitted, 'users').filter((d) => d.body['status'] === 'zombie');
    expect(zombieDocs.map((d) => d.id).sort()).toEqual(zombies.map((f) => `weibo:${fake.world.users[f]!.uid}`).sort());
  });

  it('stops at max_users, counting what the frontier already holds', async () => {
    const fake = fakeWeibo('classic2019');
    const u = busyUser(fake.world);
    fake.subjects = 30;
    const { emitted } = await drive(adapterWith({ discover_fans: true, max_users: 55 }), jobFor(fake.world.users[u]!.uid), fake.ctx);
    expect(emitted.filter((e) => e.kind === 'discovered')).toHaveLength(25);
    expect(fake.requests.filter((r) => r.includes('_-_fans_-_'))).toHaveLength(2);
  });

  it('stops at fans_page_limit and on a cursor that does not advance', async () => {
    const fake = fakeWeibo('modern2022');
    const u = busyUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    await drive(adapterWith({ discover_fans: true, fans_page_limit: 2 }), jobFor(uid), fake.ctx);
    expect(fake.requests.filter((r) => r.includes('_-_fans_-_'))).toHaveLength(2);
    fake.requests.length = 0;
    fake.override(/_-_fans_-_.*since_id=1$/, JSON.stringify({ ok: 1, data: { cardlistInfo: { since_id: '1' }, cards: [{ card_type: 11, card_group: [{ card_type: 10, user: { id: 7, followers_count: '1.2万' } }] }] } }));
    const { emitted } = await drive(adapterWith({ discover_fans: true }), jobFor(uid), fake.ctx);
    expect(fake.requests.filter((r) => r.includes('_-_fans_-_'))).toHaveLength(1);
    expect(emitted.filter((e) => e.kind === 'discovered')).toEqual([{ kind: 'discovered', subject: 'weibo:user:7', state: { status: 'active', depth: 1, followers: 12000 } }]);
  });
});

describe('errors', () => {
  it('classifies a login wall, a captcha and a truncated body instead of parsing them as data', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[busyUser(fake.world)]!.uid;
    const cases: [string, string, string][] = [
      ['{"ok":-100,"msg":"请先登录","url":"https://passport.weibo.cn/signin/welcome"}', 'E_LOGIN_REQUIRED', 'non_retryable'],
      // A captcha is a soft block: rescheduled like throttling, never parked and never "no posts".
      ['{"ok":0,"url":"https://m.weibo.cn/verify?x=1"}', 'E_CAPTCHA', 'throttled'],
      ['{"ok":-100,"errno":"-100","msg":"","url":"https://m.weibo.cn/captcha?scene=limit&referer=/","extra":""}', 'E_CAPTCHA', 'throttled'],
      ['<!DOCTYPE html><html><head><title>安全验证</title></head><body>请输入验证码</body></html>', 'E_CAPTCHA', 'throttled'],
      ['<html><body>访问过于频繁，请稍后再试</body></html>', 'E_RATE_LIMITED_BODY', 'throttled'],
      // Neither `ok` nor data: unknown, read again soon (issue 24: a bad page ends the visit early), never read as an empty timeline.
      ['{"url":"https://m.weibo.cn/u/1"}', 'E_PARSE_SHAPE', 'retryable'],
      ['{"ok":1,"data":{"cards":[{"card_ty', 'E_PARSE_JSON', 'retryable'],
      // Not the end of the list: a throttled visit is deferred, never cut short.
      ['{"ok":0,"msg":"操作过于频繁，请稍后再试"}', 'E_RATE_LIMITED_BODY', 'throttled'],
    ];
    for (const [body, code, kind] of cases) {
      fake.override(/containerid=230413/, body);
      if (kind !== 'retryable') {
        await expect(drive(adapterWith(), jobFor(uid), fake.ctx)).rejects.toMatchObject({ code, kind });
        continue;
      }
      const { emitted, outcome } = await drive(adapterWith(), jobFor(uid), fake.ctx);
      expect(outcome.resume).toEqual({ afterMs: 120_000, reason: code });
      expect(outcome.state.watermark).toBeUndefined();
      expect(docsOf(emitted, 'posts')).toEqual([]);
    }
  });

  it('one bad timeline page costs only itself: the pages before it are kept, the visit resumes at its cursor minutes later, backing off', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[busyUser(fake.world)]!.uid;
    const truth = [...truthPostsOf(fake.world, busyUser(fake.world), fake.world.historyStartMs, fake.clock.nowMs())];
    // Page 1 and 2 are good; the third page (a since_id cursor) arrives cut in half.
    const third = (() => {
      let n = 0;
      return { [Symbol.match]: undefined, test: (path: string) => /containerid=230413/.test(path) && ++n === 3 } as unknown as RegExp;
    })();
    fake.override(third, '{"ok":1,"data":{"cardlistInfo":{"since_id":1},"cards":[{"card_type":9,"mblog":{"id":"48');
    const first = await drive(adapterWith(), jobFor(uid), fake.ctx);
    const kept = docsOf(first.emitted, 'posts').map((d) => d.body['id'] as string);
    expect(kept.length).toBeGreaterThanOrEqual(15); // two good pages
    expect(first.outcome.resume).toEqual({ afterMs: 120_000, reason: 'E_PARSE_JSON' });
    expect(first.outcome.state.failures).toBe(0);
    const cursor = first.outcome.state.meta?.['gap_since'];
    expect(cursor).toMatch(/^\d+$/);
    expect(first.outcome.state.meta?.['gap_until']).toBe('0');

    // The next visit starts at that cursor (after reading the top for new posts) and reads to the end.
    fake.requests.length = 0;
    const second = await drive(adapterWith(), { ...jobFor(uid), state: first.outcome.state }, fake.ctx);
    expect(fake.requests.some((r) => r.includes(`since_id=${cursor}`))).toBe(true);
    expect(second.outcome.resume).toBeUndefined();
    expect(second.outcome.state.meta?.['gap_since']).toBeUndefined();
    expect(second.outcome.state.meta?.['bad_pages']).toBeUndefined();
    const all = new Set([...kept, ...docsOf(second.emitted, 'posts').map((d) => d.body['id'] as string)]);
    expect(truth.filter((p) => !all.has(p.id))).toEqual([]);

    // The same page bad again and again: the pause doubles, in minutes, then the visit fails as usual.
    let state = first.outcome.state;
    const waits: number[] = [120_000];
    for (let i = 0; i < 5; i++) {
      fake.override(new RegExp(`since_id=${cursor}`), '{"ok":1,"data":{"cards":[{"card_ty');
      const again = await drive(adapterWith(), { ...jobFor(uid), state }, fake.ctx);
      waits.push(again.outcome.resume!.afterMs);
      state = again.outcome.state;
    }
    expect(waits).toEqual([120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
    fake.override(new RegExp(`since_id=${cursor}`), '{"ok":1,"data":{"cards":[{"card_ty');
    await expect(drive(adapterWith(), { ...jobFor(uid), state }, fake.ctx)).rejects.toMatchObject({ code: 'E_PARSE_JSON', kind: 'retryable' });
  });

  it('reads a data body with a top-level url and no ok as data, not as a captcha', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[busyUser(fake.world)]!.uid;
    const m = { id: '4806111732961615', created_at: 'Wed Aug 24 22:03:13 +0800 2022', text: 'x', user: { id: uid } };
    fake.override(/containerid=230413/, JSON.stringify({ url: `https://m.weibo.cn/u/${uid}`, cards: [{ card_type: 9, mblog: m }] }));
    const { emitted } = await drive(adapterWith(), jobFor(uid), fake.ctx);
    // Read as page 1 (then paging goes on from `page=2`, as for any page without a cursor).
    expect(emitted.filter((e) => e.kind === 'doc' && e.doc.index === 'posts').map((e) => (e as { doc: Doc }).doc.body['id'])[0]).toBe('4806111732961615');
  });

  it('takes HTTP 432 for a soft block (throttled), not a permanent failure', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[busyUser(fake.world)]!.uid;
    const ctx: VisitContext = { ...fake.ctx, fetchText: async (url) => {
      throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', 'HTTP 432', { url, status: 432 });
    } };
    await expect(drive(adapterWith(), jobFor(uid), ctx)).rejects.toMatchObject({ code: 'E_RATE_LIMITED_BODY', kind: 'throttled', fields: { soft_block: 'client_rejected' } });
  });

  it('counts a deleted-post stub in a timeline as a drop and never indexes its text', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[busyUser(fake.world)]!.uid;
    const stub = { id: '4828873286749194', mid: '4828873286749194', text: '抱歉，此微博已被删除。查看帮助：<a href="http://t.cn/8sYl7Qb">网页链接</a>', state: 5, deleted: '1', user: null, created_at: 'Wed Oct 26 17:29:30 +0800 2022' };
    fake.override(/containerid=230413/, JSON.stringify({ ok: 1, data: { cardlistInfo: {}, cards: [{ card_type: 9, mblog: stub }] } }));
    const { emitted } = await drive(adapterWith(), jobFor(uid), fake.ctx);
    expect(emitted.some((e) => e.kind === 'doc' && e.doc.body['id'] === '4828873286749194')).toBe(false);
    expect(emitted.filter((e) => e.kind === 'dropped').map((e) => (e as { reason: string }).reason)).toEqual(['post_deleted']);
  });

  it('classifies a redirect to the login page (the final URL) without parsing its HTML', async () => {
    const fake = fakeWeibo('modern2022');
    const ctx = { ...fake.ctx, fetchText: async () => ({ url: 'http://sim.test/signin/welcome?entry=mweibo&r=x', status: 200, text: '<html>登录</html>', fetchedAtMs: 0 }) };
    await expect(drive(adapterWith(), jobFor(1), ctx)).rejects.toMatchObject({ code: 'E_LOGIN_REQUIRED', kind: 'non_retryable' });
  });

  it('treats ok:0 on a profile as a gone account', async () => {
    const fake = fakeWeibo('modern2022');
    const gone = await drive(adapterWith(), jobFor(42), fake.ctx);
    expect(gone.outcome.state.status).toBe('gone');
    expect(gone.outcome.requests).toBe(1);
  });
});
