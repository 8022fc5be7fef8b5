import { ManualClock } from '../../../src/core/clock';
import { createWorld, startSimsite, type SimsiteHandle, type TruthPost, type World } from '../../../src/simsite';
import { expectGolden, getJson, shapeOf } from './helpers';

const ABSOLUTE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0800 \d{4}$/;
const RELATIVE = /^(刚刚|\d+分钟前|\d+小时前|今天 \d{2}:\d{2}|昨天 \d{2}:\d{2}|\d{2}-\d{2}|\d{4}-\d{2}-\d{2})$/;
const OK0 = { ok: 0, msg: '这里还没有内容', data: { cards: [] } };

type Card = { card_type: number; mblog: Record<string, unknown> };
type Page = { ok: number; data: { cardlistInfo: Record<string, unknown>; cards: Card[] } };

let world: World;
let modern: SimsiteHandle;
let classic: SimsiteHandle;
let clock: ManualClock;
let uid: number;

/** A user with a pinned post, fans beyond one page and a few pages of posts. */
function pickUser(w: World): number {
  const u = w.users.find((x) => w.pinnedIndex(x.index) >= 0 && w.fanCount(x.index) > 45 && w.postCountAt(x.index, w.startMs) > 25);
  if (!u) throw new Error('no suitable user in the test world');
  return u.uid;
}

beforeAll(async () => {
  world = createWorld({ seed: 20261121, users: 600 });
  clock = new ManualClock(world.startMs);
  modern = await startSimsite({ world, clock, weibo: { era: 'modern2022', fansCapItems: 40 } });
  classic = await startSimsite({ world, clock, weibo: { era: 'classic2019' } });
  uid = pickUser(world);
});

afterAll(async () => {
  await modern.close();
  await classic.close();
});

/** The union of the shapes of page 1 of many users' timelines: every optional field shows up somewhere. */
async function manyPagesShape(h: SimsiteHandle): Promise<unknown> {
  const users = world.users.filter((u) => world.postCountAt(u.index, clock.nowMs()) > 0).slice(0, 60);
  const bodies = await Promise.all(users.map(async (u) => (await getJson(`${h.url}/api/container/getIndex?type=uid&value=${u.uid}&containerid=107603${u.uid}&page=1`)).body));
  return shapeOf(bodies);
}

const timeline = (h: SimsiteHandle, q: string): Promise<{ status: number; body: Record<string, unknown> }> =>
  getJson(`${h.url}/api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}&${q}`);

async function truthPosts(h: SimsiteHandle): Promise<TruthPost[]> {
  const res = await fetch(`${h.url}/_truth/posts?user=${uid}`);
  return (await res.json()) as TruthPost[];
}

describe('simsite microblog API shapes (spec §1)', () => {
  it('profile: userInfo and tabsInfo, modern counts', async () => {
    const { status, body } = await getJson(`${modern.url}/api/container/getIndex?type=uid&value=${uid}`);
    expect(status).toBe(200);
    expectGolden('profile-modern2022', shapeOf(body));
    const info = (body.data as Record<string, Record<string, unknown>>).userInfo!;
    expect(info.id).toBe(uid);
    const tabs = ((body.data as Record<string, Record<string, unknown>>).tabsInfo!.tabs as { tabKey: string; containerid: string }[]);
    expect(tabs.find((t) => t.tabKey === 'weibo')?.containerid).toBe(`230413${uid}`);
    // Same profile through the containerid form.
    const again = await getJson(`${modern.url}/api/container/getIndex?containerid=100505${uid}`);
    expect(again.body).toEqual(body);
  });

  it('profile in the classic era', async () => {
    const { body } = await getJson(`${classic.url}/api/container/getIndex?type=uid&value=${uid}`);
    expectGolden('profile-classic2019', shapeOf(body));
  });

  it('basic info cards', async () => {
    const { body } = await getJson(`${modern.url}/api/container/getIndex?containerid=230283${uid}_-_INFO`);
    expectGolden('info', shapeOf(body));
  });

  it('timeline page 1: 10 cards, pinned first, 16-digit string ids, absolute dates (modern)', async () => {
    const { body } = await timeline(modern, 'page=1');
    expectGolden('timeline-modern2022', await manyPagesShape(modern));
    const page = body as unknown as Page;
    expect(page.data.cards).toHaveLength(10);
    expect(page.data.cards[0]!.mblog.mblogtype).toBe(2);
    for (const c of page.data.cards) {
      expect(c.card_type).toBe(9);
      expect(c.mblog.id).toMatch(/^\d{16}$/);
      expect(c.mblog.mid).toBe(c.mblog.id);
      expect(c.mblog.created_at).toMatch(ABSOLUTE);
    }
    expect(typeof page.data.cardlistInfo.since_id).toBe('number');
    expect(page.data.cardlistInfo.total).toBeUndefined();
  });

  it('timeline in the classic era: relative dates, total and next page', async () => {
    const { body } = await timeline(classic, 'page=1');
    expectGolden('timeline-classic2019', await manyPagesShape(classic));
    const page = body as unknown as Page;
    for (const c of page.data.cards) expect(c.mblog.created_at).toMatch(RELATIVE);
    expect(page.data.cardlistInfo.page).toBe(2);
    expect(page.data.cardlistInfo.total).toBe(world.postCountAt(world.userByUid(uid)!.index, clock.nowMs()));
  });

  it('page paging and since_id paging each list every published post exactly once', async () => {
    const truth = await truthPosts(modern);
    const expected = truth.map((p) => p.id).sort();
    const byPage: string[] = [];
    for (let page = 1; ; page++) {
      const { body } = await timeline(modern, `page=${page}`);
      if (body.ok === 0) {
        expect(body).toEqual(OK0);
        break;
      }
      for (const c of (body as unknown as Page).data.cards) byPage.push(c.mblog.id as string);
    }
    expect([...byPage].sort()).toEqual(expected);
    const bySince: string[] = [];
    let since = '';
    for (;;) {
      const { body } = await timeline(modern, `since_id=${since}`);
      const page = body as unknown as Page;
      for (const c of page.data.cards) bySince.push(c.mblog.id as string);
      const next = page.data.cardlistInfo.since_id;
      if (next === undefined) break;
      since = String(next);
    }
    expect([...bySince].sort()).toEqual(expected);
  });

  it('agrees with the truth field by field: parsed created_at, text without markup, counts', async () => {
    const truth = new Map((await truthPosts(modern)).map((p) => [p.id, p]));
    const page = (await timeline(modern, 'page=1')).body as unknown as Page;
    for (const c of page.data.cards) {
      const m = c.mblog;
      const t = truth.get(m.id as string)!;
      expect(Date.parse((m.created_at as string).replace(/^\w+ (\w+) (\d+) ([\d:]+) \+0800 (\d+)$/, '$1 $2 $4 $3 GMT+0800'))).toBe(t.createdMs);
      expect(m.source).toBe(t.source);
      expect(m.region_name).toBe(t.regionName);
      expect(m.pic_num).toBe(t.picNum);
      if (!m.isLongText) {
        const plain = (m.text as string).replace(/<br \/>/g, '\n').replace(/<img[^>]*alt="([^"]+)"[^>]*>/g, '$1').replace(/<[^>]+>/g, '')
          .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
        expect(plain).toBe(t.text);
      }
    }
  });

  it('shows posts only once published, and since_id paging stays stable when new posts arrive', async () => {
    const before = (await truthPosts(modern)).length;
    const first = (await timeline(modern, 'since_id=')).body as unknown as Page;
    const cursor = String(first.data.cardlistInfo.since_id);
    const second = (await timeline(modern, `since_id=${cursor}`)).body as unknown as Page;
    clock.advanceMs(3 * 86_400_000);
    const after = (await truthPosts(modern)).length;
    expect(after).toBeGreaterThan(before);
    const secondAgain = (await timeline(modern, `since_id=${cursor}`)).body as unknown as Page;
    expect(secondAgain.data.cards.map((c) => c.mblog.id)).toEqual(second.data.cards.map((c) => c.mblog.id));
    const newest = (await timeline(modern, 'page=1')).body as unknown as Page;
    expect(newest.data.cards[1]!.mblog.id).not.toBe(first.data.cards[1]!.mblog.id);
  });

  it('truncates long posts and serves the full text on the long-text endpoint', async () => {
    const long = world.users
      .flatMap((u) => (world.postCountAt(u.index, clock.nowMs()) > 0 ? [world.post(u.index, world.postCountAt(u.index, clock.nowMs()) - 1)] : []))
      .find((p) => p.isLong && !p.repostOf);
    expect(long).toBeDefined();
    const show = await getJson(`${modern.url}/statuses/show?id=${long!.bid}`);
    expect((show.body.data as Record<string, unknown>).id).toBe(long!.id);
    const user = world.users[long!.userIndex]!;
    const page = (await getJson(`${modern.url}/api/container/getIndex?containerid=107603${user.uid}&page=1`)).body as unknown as Page;
    const card = page.data.cards.find((c) => c.mblog.id === long!.id)!;
    expect(card.mblog.isLongText).toBe(true);
    expect(card.mblog.text).toMatch(new RegExp(`\\.\\.\\.<a href="/status/${long!.id}">全文</a>$`));
    const ext = await getJson(`${modern.url}/statuses/extend?id=${long!.id}`);
    expectGolden('extend', shapeOf(ext.body));
    const full = (ext.body.data as Record<string, string>).longTextContent!;
    expect(full.length).toBeGreaterThan((card.mblog.text as string).length);
  });

  it('fans: 20 per page in the last card, string cursor, silent cap, ok:0 at the end', async () => {
    const fans = (q: string): Promise<{ body: Record<string, unknown> }> =>
      getJson(`${modern.url}/api/container/getIndex?containerid=231051_-_fans_-_${uid}&${q}`);
    const p1 = (await fans('since_id=1')).body;
    expectGolden('fans-modern2022', shapeOf(p1));
    const cards = (p1.data as { cards: { card_group: { user: { id: number } }[] }[]; cardlistInfo: { since_id: unknown } });
    expect(cards.cards[cards.cards.length - 1]!.card_group).toHaveLength(20);
    expect(cards.cardlistInfo.since_id).toBe('2');
    const p2 = (await fans('since_id=2')).body;
    const group2 = (p2.data as { cards: { card_group: unknown[] }[]; cardlistInfo: Record<string, unknown> });
    // The cap is 40 in this server: page 2 is the last and carries no cursor, page 3 is the ok:0 body.
    expect(group2.cards[0]!.card_group).toHaveLength(20);
    expect(group2.cardlistInfo.since_id).toBeUndefined();
    expect((await fans('since_id=3')).body).toEqual(OK0);
    expect((await fans('page=2')).body).toEqual(p2);
  });

  it('fans in the classic era use an int cursor', async () => {
    const { body } = await getJson(`${classic.url}/api/container/getIndex?containerid=231051_-_fans_-_${uid}&since_id=1`);
    expectGolden('fans-classic2019', shapeOf(body));
    expect((body.data as { cardlistInfo: { since_id: unknown } }).cardlistInfo.since_id).toBe(2);
  });

  it('comments: hot flow with a max_id cursor that ends at 0', async () => {
    const post = world.users
      .flatMap((u) => { const n = world.postCountAt(u.index, world.startMs); return n > 0 ? [world.post(u.index, n - 1)] : []; })
      .find((p) => p.commentsCount > 25 && p.createdMs < clock.nowMs() - 86_400_000);
    expect(post).toBeDefined();
    const first = await getJson(`${modern.url}/comments/hotflow?id=${post!.id}&mid=${post!.id}&max_id_type=0`);
    expectGolden('hotflow', shapeOf(first.body));
    let data = first.body.data as { data: { id: number }[]; max_id: number };
    const seen = new Set<number>();
    for (let guard = 0; guard < 50; guard++) {
      for (const c of data.data) {
        expect(seen.has(c.id)).toBe(false);
        seen.add(c.id);
      }
      if (data.max_id === 0) break;
      data = (await getJson(`${modern.url}/comments/hotflow?id=${post!.id}&mid=${post!.id}&max_id=${data.max_id}&max_id_type=0`)).body.data as typeof data;
    }
    expect(data.max_id).toBe(0);
    const truth = (await (await fetch(`${modern.url}/_truth/comments?post=${post!.id}`)).json()) as { rootId: number; id: number }[];
    expect(seen.size).toBe(truth.filter((c) => c.rootId === c.id).length);
  });

  it('comments in the classic era: relative dates; the legacy paged endpoint with data.max', async () => {
    const post = world.users
      .flatMap((u) => { const n = world.postCountAt(u.index, world.startMs); return n > 0 ? [world.post(u.index, n - 1)] : []; })
      .find((p) => p.commentsCount > 25 && p.createdMs < clock.nowMs() - 86_400_000)!;
    const hot = await getJson(`${classic.url}/comments/hotflow?id=${post.id}&mid=${post.id}&max_id_type=0`);
    expectGolden('hotflow-classic2019', shapeOf(hot.body));
    for (const c of (hot.body.data as { data: { created_at: string }[] }).data) expect(c.created_at).toMatch(RELATIVE);
    const legacy = await getJson(`${classic.url}/api/comments/show?id=${post.id}&page=1`);
    expectGolden('comments-show-classic2019', shapeOf(legacy.body));
    const max = (legacy.body.data as { max: number }).max;
    expect(max).toBeGreaterThan(0);
    expect((await getJson(`${classic.url}/api/comments/show?id=${post.id}&page=${max + 1}`)).body).toEqual(OK0);
  });

  it('writes big follower counts as 万 strings in the modern era and ints in the classic era', async () => {
    const big = world.users.find((u) => world.followersCount(u.index) >= 10_000);
    expect(big).toBeDefined();
    const m = (await getJson(`${modern.url}/api/container/getIndex?type=uid&value=${big!.uid}`)).body;
    const mi = (m.data as { userInfo: Record<string, unknown> }).userInfo;
    expect(mi.followers_count).toMatch(/^\d+(\.\d)?万$/);
    expect(mi.followers_count_str).toBe(mi.followers_count);
    const c = (await getJson(`${classic.url}/api/container/getIndex?type=uid&value=${big!.uid}`)).body;
    expect((c.data as { userInfo: Record<string, unknown> }).userInfo.followers_count).toBe(world.followersCount(big!.index));
  });

  it('serves reposts with the original nested in retweeted_status', async () => {
    const reposts = world.users
      .flatMap((u) => { const n = world.postCountAt(u.index, world.startMs); return n > 0 ? [world.post(u.index, n - 1)] : []; })
      .filter((p) => p.repostOf && !p.originalDeleted);
    expect(reposts.length).toBeGreaterThan(10);
    const repost = reposts[0];
    const bodies = await Promise.all(reposts.slice(0, 40).map(async (p) => (await getJson(`${modern.url}/statuses/show?id=${p.id}`)).body));
    const body = bodies[0]!;
    // The union over many reposts, so optional fields (pictures, edit_count) are all pinned.
    expectGolden('show-repost-modern2022', shapeOf(bodies));
    const data = body.data as { retweeted_status: { id: string; user: { id: number } } };
    expect(data.retweeted_status.id).toBe(repost!.repostOf!.id);
    expect(data.retweeted_status.user.id).toBe(world.users[repost!.repostOf!.userIndex]!.uid);
  });

  it('serves the status HTML page with $render_data holding the full post', async () => {
    const page = (await timeline(modern, 'page=1')).body as unknown as Page;
    const id = page.data.cards[1]!.mblog.id as string;
    const html = await (await fetch(`${modern.url}/detail/${id}`)).text();
    const json = html.slice(html.indexOf('"status":') + '"status":'.length, html.lastIndexOf(',"hotScheme"'));
    const status = JSON.parse(json) as Record<string, unknown>;
    expect(status.id).toBe(id);
    expect(status.isLongText === false || !(status.text as string).endsWith('全文</a>')).toBe(true);
  });

  it('answers unknown users and containers with the ok:0 body', async () => {
    expect((await getJson(`${modern.url}/api/container/getIndex?type=uid&value=12345`)).body).toEqual(OK0);
    expect((await timeline(modern, 'page=9999')).body).toEqual(OK0);
  });

  it('hands out visitor cookies, and can refuse old hot-flow comments to clients without one', async () => {
    const strict = await startSimsite({ world, clock, weibo: { hotflowCookieAfterDays: 1 } });
    try {
      const v = await fetch(`${strict.url}/visitor/genvisitor2`, { method: 'POST', body: 'cb=visitor_callback&from=weibo' });
      const js = await v.text();
      const sub = /"sub":"([^"]+)"/.exec(js)![1]!;
      expect(js).toMatch(/^window\.visitor_callback && visitor_callback\(\{"retcode":20000000/);
      expect(v.headers.get('set-cookie')).toContain(`SUB=${sub}`);
      const old = world.users
        .flatMap((u) => (world.postCountAt(u.index, world.startMs) > 0 ? [world.post(u.index, 0)] : []))
        .find((p) => p.commentsCount > 0 && p.createdMs < clock.nowMs() - 2 * 86_400_000)!;
      const url = `${strict.url}/comments/hotflow?id=${old.id}&mid=${old.id}&max_id_type=0`;
      expect((await fetch(url)).status).toBe(403);
      const withCookie = await fetch(url, { headers: { cookie: `SUB=${sub}` } });
      expect(withCookie.status).toBe(200);
      const log = (await (await fetch(`${strict.url}/_truth/requests?client=SUB:${sub}`)).json()) as unknown[];
      expect(log).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });

  it('legacy era has no data wrapper', async () => {
    const legacy = await startSimsite({ world, clock, weibo: { era: 'legacy2017' } });
    try {
      const { body } = await getJson(`${legacy.url}/api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}&page=1`);
      expect(body.ok).toBe(1);
      expect(body.data).toBeUndefined();
      expect(Array.isArray(body.cards)).toBe(true);
    } finally {
      await legacy.close();
    }
  });
});
