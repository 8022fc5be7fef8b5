import { ManualClock } from '../../../src/core/clock';
import { mediaOf } from '../../../src/parsers/weibo/media';
import { goneStatusOfText, stubStatus } from '../../../src/parsers/weibo/post-status';
import { parseEnvelope, mblogsOf, type Mblog } from '../../../src/parsers/weibo/shapes';
import { postDoc } from '../../../src/parsers/weibo/docs';
import {
  createWorld, DEFAULT_WEIBO_OPTIONS, startSimsite, truthDeletions, truthEdits, truthMedia, truthPostsOf,
  type LifecycleOptions, type World,
} from '../../../src/simsite';
import { faultResponse } from '../../../src/simsite/fault-responses';
import type { SimResponse } from '../../../src/simsite/http-types';
import { eraFormat } from '../../../src/simsite/weibo/era';
import { WeiboSite, type WeiboOptions } from '../../../src/simsite/weibo/routes';

const DAY = 86_400_000;
const LIFE: LifecycleOptions = { deletedShare: 0.1, removedShare: 0.05, restrictedShare: 0.05, editedShare: 0.2, videoShare: 0.3, meanLifetimeMs: DAY };

function site(lifecycle: LifecycleOptions | null, weibo: Partial<WeiboOptions> = {}, seed = 3): { world: World; get(path: string, nowMs: number): SimResponse } {
  const world = createWorld({ seed, users: 40, historyDays: 10, lifecycle });
  const w = new WeiboSite(world, { ...DEFAULT_WEIBO_OPTIONS, era: 'modern2022', responseCacheMs: 0, ...weibo });
  return {
    world,
    get(path, nowMs) {
      const u = new URL(`http://sim${path}`);
      const r = w.handle({ method: 'GET', pathname: u.pathname, url: path, query: u.searchParams, headers: {}, host: 'sim', client: 't', nowMs, realMs: 0, body: '' });
      if (!r) throw new Error(`no route ${path}`);
      return r;
    },
  };
}

const text = (r: SimResponse): string => String(r.body);
/** Every post id a user's timeline shows at nowMs, all pages. */
function timelineIds(s: ReturnType<typeof site>, uid: number, nowMs: number): string[] {
  const ids: string[] = [];
  for (let page = 1; page < 100; page++) {
    const env = parseEnvelope(text(s.get(`/api/container/getIndex?containerid=230413${uid}&page=${page}`, nowMs)), 'x');
    const posts = env.ok === 1 ? mblogsOf(env) : [];
    if (posts.length === 0) break;
    ids.push(...posts.map((m) => String(m.id)));
  }
  return ids;
}

describe('simsite lifecycle (off by default)', () => {
  it('changes nothing without the option: same pages, no truth rows', () => {
    const a = site(null);
    const b = site(null);
    const now = a.world.startMs;
    const uid = a.world.users[1]!.uid;
    expect(text(a.get(`/api/container/getIndex?containerid=230413${uid}&page=1`, now))).toBe(text(b.get(`/api/container/getIndex?containerid=230413${uid}&page=1`, now)));
    expect([...truthDeletions(a.world, now)]).toEqual([]);
    expect([...truthEdits(a.world, now)]).toEqual([]);
  });

  it('is deterministic: the same seed gives the same deletions and edits', () => {
    const a = site(LIFE).world;
    const b = site(LIFE).world;
    const now = a.startMs;
    expect([...truthDeletions(a, now)]).toEqual([...truthDeletions(b, now)]);
    expect([...truthEdits(a, now)].length).toBeGreaterThan(0);
    expect([...truthEdits(a, now)]).toEqual([...truthEdits(b, now)]);
  });
});

describe('deleted, removed and restricted posts', () => {
  const s = site(LIFE);
  const now = s.world.startMs;
  const gone = [...truthDeletions(s.world, now)];

  it('has all three kinds, each gone at a time after publication', () => {
    for (const k of ['deleted', 'removed', 'restricted'] as const) expect(gone.some((g) => g.status === k)).toBe(true);
    for (const g of gone) expect(g.goneAtMs).toBeGreaterThan(g.createdMs);
  });

  it('shows a post on the timeline until it goes, and not after', () => {
    for (const g of gone.slice(0, 12)) {
      expect(timelineIds(s, g.uid, g.goneAtMs - 1)).toContain(g.id);
      expect(timelineIds(s, g.uid, g.goneAtMs)).not.toContain(g.id);
    }
  });

  it('answers the single-post endpoints with the reason, which the parser classifies as the truth says', () => {
    for (const g of gone) {
      const show = JSON.parse(text(s.get(`/statuses/show?id=${g.id}`, now))) as { ok: number; msg: string };
      expect(show.ok).toBe(0);
      expect([g.id, goneStatusOfText(show.msg)]).toEqual([g.id, g.status]);
      expect(goneStatusOfText(text(s.get(`/detail/${g.id}`, now)))).toBe(g.status);
      // Before it went, the same endpoint serves the post.
      expect(JSON.parse(text(s.get(`/statuses/show?id=${g.id}`, g.goneAtMs - 1))).ok).toBe(1);
    }
  });

  it('keeps statuses_count to the posts others can see', () => {
    const g = gone[0]!;
    const u = s.world.userByUid(g.uid)!;
    const profile = (at: number) => (parseEnvelope(text(s.get(`/api/container/getIndex?type=uid&value=${g.uid}&containerid=100505${g.uid}`, at)), 'x').data!.userInfo!.statuses_count as number);
    const goneBy = (at: number) => [...truthDeletions(s.world, at, g.uid)].length;
    expect(profile(now)).toBe(s.world.postCountAt(u.index, now) - goneBy(now));
  });

  it('serves a repost whose original went as a stub without author, which the parser recognises', () => {
    const ids = new Set(gone.map((g) => g.id));
    let checked = 0;
    for (const u of s.world.users) {
      for (const t of truthPostsOf(s.world, u.index, s.world.historyStartMs, now)) {
        if (!t.repostOf || !ids.has(t.repostOf) || t.originalDeleted) continue;
        if (gone.some((g) => g.id === t.id)) continue;
        const m = (JSON.parse(text(s.get(`/statuses/show?id=${t.id}`, now))) as { data: Mblog }).data;
        expect(m.retweeted_status?.user).toBeNull();
        expect(stubStatus(m.retweeted_status!)).toBe(gone.find((g) => g.id === t.repostOf)!.status);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('edits', () => {
  const s = site(LIFE);
  const now = s.world.startMs;

  it('serves each version with edit_count and edit_at between edits; the parser reads them as the truth says', () => {
    const edits = [...truthEdits(s.world, now)];
    expect(edits.length).toBeGreaterThan(3);
    for (const e of edits.slice(0, 10)) {
      if ([...truthDeletions(s.world, now, e.uid)].some((g) => g.id === e.id)) continue;
      e.versions.forEach((v, i) => {
        const at = v.atMs + 1000;
        const m = (JSON.parse(text(s.get(`/statuses/show?id=${e.id}`, at))) as { data: Mblog }).data;
        const doc = postDoc(e.id, m, m.text ?? '', String(e.uid), at, 'http://sim', 's');
        expect(doc.body['text']).toBe(v.text.trim());
        expect(doc.body['edit_count']).toBe(i === 0 ? undefined : i);
        expect(doc.body['edited_at']).toBe(i === 0 ? undefined : new Date(Math.floor(v.atMs / 1000) * 1000).toISOString());
      });
    }
  });
});

describe('media', () => {
  it('serves pictures and videos the parser reads back as /_truth/media says', () => {
    const s = site(LIFE);
    const now = s.world.startMs;
    const media = [...truthMedia(s.world, now)];
    const gone = new Set([...truthDeletions(s.world, now)].map((g) => g.id));
    expect(media.some((m) => m.video)).toBe(true);
    expect(media.some((m) => m.pictures.length > 0)).toBe(true);
    for (const t of media.filter((m) => !gone.has(m.id)).slice(0, 40)) {
      const m = (JSON.parse(text(s.get(`/statuses/show?id=${t.id}`, now))) as { data: Mblog }).data;
      const parsed = mediaOf(m);
      expect(parsed.picture_count).toBe(t.pictureCount);
      expect(parsed.pictures.map((p) => p.url).sort()).toEqual(t.pictures.map((p) => p.url).sort());
      if (t.video) {
        expect(parsed.video).toMatchObject({ url: t.video.url, duration_secs: t.video.durationSecs });
        // The modern site prints plays as "43.4万次播放": one decimal of 万, truncated.
        const expected = t.video.playCount >= 10_000 ? Math.floor(t.video.playCount / 1000) * 1000 : t.video.playCount;
        expect(parsed.video!.play_count).toBe(expected);
      } else {
        expect(parsed.video).toBeUndefined();
      }
    }
  });

  it('prints counts of a million or more as "100万+" with countFloors, in every era', () => {
    for (const era of ['legacy2017', 'classic2019', 'modern2022'] as const) {
      expect(eraFormat(era, { countFloors: true }).count(1_234_567)).toBe('100万+');
      expect(eraFormat(era, { countFloors: true }).count(999_999)).toBe(eraFormat(era).count(999_999));
    }
    expect(eraFormat('modern2022').count(1_234_567)).toBe('123.4万');
  });
});

describe('accounts that go away', () => {
  it('answers profile and timeline with ok:0 and single posts with the account notice', () => {
    const s = site({ ...LIFE, accountGoneShare: 1, meanAccountLifetimeMs: DAY });
    const now = s.world.startMs + 30 * DAY;
    const row = [...truthDeletions(s.world, now)].find((g) => g.status === 'account_gone')!;
    expect(row).toBeDefined();
    expect(JSON.parse(text(s.get(`/api/container/getIndex?type=uid&value=${row.uid}&containerid=100505${row.uid}`, now))).ok).toBe(0);
    expect(timelineIds(s, row.uid, now)).toEqual([]);
    expect(goneStatusOfText(JSON.parse(text(s.get(`/statuses/show?id=${row.id}`, now))).msg)).toBe('account_gone');
  });
});

describe('soft-block faults', () => {
  it('answers http432, captcha_limit and captcha_html in the shapes the parser classifies as soft blocks', () => {
    const r432 = faultResponse({ kind: 'softError', soft: 'http432' }, '/api/container/getIndex', '/api/container/getIndex?x=1')!;
    expect([r432.status, r432.body]).toEqual([432, '']);
    const limit = faultResponse({ kind: 'softError', soft: 'captcha_limit' }, '/api/container/getIndex', '/x')!;
    expect(() => parseEnvelope(String(limit.body), 'x')).toThrow(expect.objectContaining({ kind: 'throttled', code: 'E_CAPTCHA' }) as Error);
    const html = faultResponse({ kind: 'softError', soft: 'captcha_html' }, '/api/container/getIndex', '/x')!;
    expect(html.status).toBe(200);
    expect(() => parseEnvelope(String(html.body), 'x')).toThrow(expect.objectContaining({ kind: 'throttled', code: 'E_CAPTCHA' }) as Error);
  });
});

describe('truth endpoints over HTTP', () => {
  it('serves /_truth/deletions, /_truth/edits and /_truth/media for a world with a lifecycle', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21));
    const h = await startSimsite({ worldOptions: { seed: 3, users: 40, historyDays: 10 }, lifecycle: LIFE, clock });
    try {
      for (const p of ['deletions', 'edits', 'media']) {
        const rows = (await (await fetch(`${h.url}/_truth/${p}`)).json()) as unknown[];
        expect([p, rows.length > 0]).toEqual([p, true]);
      }
      const one = (await (await fetch(`${h.url}/_truth/deletions`)).json()) as { uid: number }[];
      const mine = (await (await fetch(`${h.url}/_truth/deletions?uid=${one[0]!.uid}`)).json()) as { uid: number }[];
      expect(mine.every((r) => r.uid === one[0]!.uid)).toBe(true);
    } finally {
      await h.close();
    }
  });
});
