import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '../../../../src/core/envelope';
import { commentDocs, parseCommentsShow, parseHotflow } from '../../../../src/parsers/weibo/comments';
import { readCount } from '../../../../src/parsers/weibo/counts';
import { metricsDoc, postDoc, userDoc } from '../../../../src/parsers/weibo/docs';
import { stubStatus } from '../../../../src/parsers/weibo/post-status';
import { mblogsOf, parseEnvelope, type Envelope, type Mblog } from '../../../../src/parsers/weibo/shapes';
import { unmappedFields } from '../../../helpers/mapping-check';

/** Real responses (provenance: test/fixtures/weibo-real/README.md), read at about the time they were captured. */
const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'weibo-real');
const raw = (name: string): string => readFileSync(join(DIR, name), 'utf8');
const env = (name: string): Envelope => parseEnvelope(raw(name), `https://m.weibo.cn/${name}`);
/** 2019-06-16 20:00 China time: the day gottaegbert/weiboAPI committed its captures. */
const JUNE_2019 = Date.UTC(2019, 5, 16, 12, 0, 0);
/** 2019-07-16 11:06 China time: zhangfaliang/koa2's commit. */
const JULY_2019 = Date.UTC(2019, 6, 16, 3, 6, 0);
const NOV_2022 = Date.UTC(2022, 10, 4, 3, 0, 0);

const docs = (e: Envelope, atMs: number, uid = '1'): Doc[] => mblogsOf(e).filter((m) => !stubStatus(m)).map((m) => postDoc(String(m.id), m, m.text ?? '', uid, atMs, 'https://m.weibo.cn', `weibo:user:${uid}`));
const byId = (list: Doc[], id: string): Record<string, unknown> => list.find((d) => d.body['id'] === id)!.body;

describe('2019 timeline (107603, page 2): month-day dates, "100万+" floors, videos, a repost', () => {
  const e = env('2019-06-timeline-107603-page2.json');
  const list = docs(e, JUNE_2019, '1669879400');

  it('reads all ten posts with "06-14"-style dates in China time, this year', () => {
    expect(list).toHaveLength(10);
    expect(byId(list, '4383183661430868')['created_at']).toBe('2019-06-13T16:00:00.000Z');
    expect(byId(list, '4378514142544199')['created_at']).toBe('2019-05-31T16:00:00.000Z');
  });

  it('keeps the "at least" of "100万+" counts and exact ints as they are', () => {
    const p = byId(list, '4379188905591760');
    expect(p['counts']).toEqual({ reposts: 1_000_000, comments: 1_000_000, likes: 1_049_077 });
    expect(p['counts_lower_bound']).toEqual(['reposts', 'comments']);
    expect(byId(list, '4383183661430868')['counts_lower_bound']).toBeUndefined();
    const m = metricsDoc('4381207217392722', mblogsOf(e)[4]!, JUNE_2019);
    expect(m.body).toMatchObject({ reposts: 1_000_000, lower_bound: ['reposts'] });
  });

  it('keeps the video of a video post: stream URL, duration, cover, page', () => {
    const v = (byId(list, '4382054705416396')['media'] as { video: Record<string, unknown> }).video;
    expect(v['url']).toMatch(/^http:\/\/f\.us\.sinaimg\.cn\/000eJ3z2lx07uzlTDjGg010412007bg70E010\.mp4\?label=mp4_hd/);
    expect(v['duration_secs']).toBe(14);
    expect(v['cover_url']).toBe('https://wx4.sinaimg.cn/orj480/63885668ly1g3xd3vpctvj21hc0u0ne3.jpg');
    expect(v['page_url']).toMatch(/containerid=2304444382054524348434/);
  });

  it('links a repost to its original, and posts without media carry none', () => {
    expect(byId(list, '4383180406740606')['repost_of']).toBe('4383031864995274');
    // A link card (page_info type webpage) is no media; the repost itself carries none either.
    expect(byId(list, '4378893399854472')['media']).toBeUndefined();
    expect(byId(list, '4383180406740606')['media']).toBeUndefined();
    expect((byId(list, '4383183661430868')['media'] as { picture_count: number }).picture_count).toBe(3);
  });
});

describe('2019 timeline with a pinned repost, relative dates and pictures without pic_ids', () => {
  const e = env('2019-07-timeline-107603-pinned-video.json');
  const list = docs(e, JULY_2019, '5529945701');

  it('reads "15小时前" against the response time and keeps the pinned flag readable', () => {
    expect(byId(list, '4394384827138748')['created_at']).toBe(new Date(JULY_2019 - 15 * 3_600_000).toISOString());
    expect(mblogsOf(e)[0]!.mblogtype).toBe(2);
  });

  it('builds pictures from `pics` (large URL, thumbnail) when `pic_ids` is absent', () => {
    const media = byId(list, '4393264377139656')['media'] as { pictures: { id: string; url: string; thumbnail_url: string }[]; picture_count: number };
    expect(media.picture_count).toBe(4);
    expect(media.pictures[0]).toEqual({
      id: '0062f5uBgy1g4x4gpkl73j30ku112wii',
      url: 'https://wx4.sinaimg.cn/large/0062f5uBgy1g4x4gpkl73j30ku112wii.jpg',
      thumbnail_url: 'https://wx4.sinaimg.cn/orj360/0062f5uBgy1g4x4gpkl73j30ku112wii.jpg',
    });
  });

  it('keeps every video duration', () => {
    const videos = list.map((d) => (d.body['media'] as { video?: { duration_secs?: number } } | undefined)?.video).filter((v) => v);
    expect(videos).toHaveLength(9);
    expect(videos.every((v) => typeof v!.duration_secs === 'number' && v!.duration_secs > 0)).toBe(true);
  });
});

describe('2022 timeline (230413): absolute dates, "43.4万", region, 18 pictures of which 9 listed, an edit', () => {
  const e = env('2022-08-timeline-230413.json');
  const list = docs(e, Date.UTC(2022, 7, 26), '6074526225');

  it('reads the edited post with its edit count and time', () => {
    const p = byId(list, '4806111288362365');
    expect(p['edit_count']).toBe(1);
    expect(p['edited_at']).toBe('2022-08-24T14:01:44.000Z');
    expect(p['created_at']).toBe('2022-08-24T14:01:27.000Z');
    expect(byId(list, '4806111732961615')['edit_count']).toBeUndefined();
  });

  it('counts the pictures the post has, beyond the nine a list shows', () => {
    const original = mblogsOf(e)[1]!.retweeted_status as Mblog;
    const doc = postDoc('4796328754549490', original, original.text ?? '', '6074526225', Date.UTC(2022, 7, 26), 'https://m.weibo.cn', 'weibo:user:6074526225');
    const media = doc.body['media'] as { pictures: unknown[]; picture_count: number };
    expect(media.picture_count).toBe(18);
    expect(media.pictures).toHaveLength(9);
  });

  it('reads followers "43.4万" and the region', () => {
    const p = byId(list, '4806111732961615');
    expect((p['author'] as { followers: number }).followers).toBe(434_000);
    expect(p['region']).toBe('浙江');
  });
});

describe('2022 hot feed excerpt: play counts, and a deleted post in a list', () => {
  const e = env('2022-11-hotfeed-102803-excerpt.json');

  it('keeps the play count of "89万次播放" and a fractional duration', () => {
    const [video] = docs(e, NOV_2022);
    const v = (video!.body['media'] as { video: Record<string, unknown> }).video;
    expect(v['play_count']).toBe(890_000);
    expect(v['play_count_is_lower_bound']).toBeUndefined();
    expect(v['duration_secs']).toBe(12.84);
    expect(v['url']).toMatch(/zRTXOfv9lx0806HoQaGQ010412007kMA0E010\.mp4\?label=mp4_hd/);
  });

  it('recognises the deleted stub (no author, `deleted: "1"`) so it is never indexed as the post', () => {
    const stub = mblogsOf(e)[1]!;
    expect(stubStatus(stub)).toBe('deleted');
    expect(stubStatus(mblogsOf(e)[0]!)).toBeUndefined();
    expect(docs(e, NOV_2022)).toHaveLength(1);
  });
});

describe('long text, single post, comments (legacy and hot flow)', () => {
  it('reads longTextContent from statuses/extend', () => {
    expect(env('2019-06-extend.json').data?.longTextContent).toMatch(/^😄😆/);
  });

  it('reads statuses/show (data = the post) with its long original', () => {
    const m = env('2019-06-show-repost.json').data as unknown as Mblog;
    const doc = postDoc(String(m.id), m, m.text ?? '', '5973737418', JUNE_2019, 'https://m.weibo.cn', 'weibo:user:5973737418');
    expect(doc.body).toMatchObject({ id: '4383411844046171', repost_of: '4383404751066167', text: '转发微博', created_at: '2019-06-15T03:44:46.000Z' });
  });

  it('reads the legacy comments page: like_counts, reply_id, and the page count `max` as the cursor', () => {
    const page = parseCommentsShow(env('2019-06-comments-show-legacy.json'), 1);
    expect(page.nextPage).toBe(2);
    expect(page.comments).toHaveLength(2);
    const [first, second] = page.comments.flatMap((c) => commentDocs(c, '4383183661430868', JUNE_2019, 'weibo:user:1669879400'));
    expect(first!.body).toMatchObject({ likes: 0, created_at: new Date(JUNE_2019).toISOString() });
    expect(second!.body['reply_to']).toBe('4383928213171598');
    expect(parseCommentsShow(env('2019-06-comments-show-legacy.json'), 12502).nextPage).toBeUndefined();
  });

  it('reads the hot flow: max_id cursor, replies under comments, like_count', () => {
    const page = parseHotflow(env('2019-06-hotflow.json'));
    expect(page.nextMaxId).toBe('314345666829623');
    expect(page.comments).toHaveLength(20);
    const all = page.comments.flatMap((c) => commentDocs(c, '4383183661430868', JUNE_2019, 's'));
    expect(all.length).toBeGreaterThan(20);
    expect(all[0]!.body['likes']).toBe(6183);
  });
});

describe('soft blocks and look-alikes', () => {
  it('takes ok:-100 with a captcha URL for a soft block (throttled), not a login wall', () => {
    let err: unknown;
    try {
      env('2024-10-captcha-limit.json');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'E_CAPTCHA', kind: 'throttled', fields: { soft_block: 'captcha', redirect: 'https://m.weibo.cn/captcha?scene=limit&referer=/' } });
  });

  it('reads a data body whose card links to a verify page as data', () => {
    const e = env('2025-01-info-with-verify-scheme.json');
    expect(e.data?.cards).toHaveLength(2);
  });
});

describe('every document made from the captures fits the strict mappings', () => {
  it('posts, post-metrics, comments and users', () => {
    const made: Doc[] = [];
    const at = { '2019-06': JUNE_2019, '2019-07': JULY_2019, '2022-08': Date.UTC(2022, 7, 26), '2022-11': NOV_2022 } as Record<string, number>;
    for (const f of ['2019-06-timeline-107603-page2.json', '2019-07-timeline-107603-pinned-video.json', '2022-08-timeline-230413.json', '2022-11-hotfeed-102803-excerpt.json']) {
      const e = env(f);
      const t = at[f.slice(0, 7)]!;
      made.push(...docs(e, t));
      for (const m of mblogsOf(e)) {
        made.push(metricsDoc(String(m.id), m, t));
        if (m.retweeted_status) made.push(postDoc(String(m.retweeted_status.id), m.retweeted_status, m.retweeted_status.text ?? '', '1', t, 'https://m.weibo.cn', 's'));
      }
    }
    for (const c of parseHotflow(env('2019-06-hotflow.json')).comments) made.push(...commentDocs(c, '1', JUNE_2019, 's'));
    for (const c of parseCommentsShow(env('2019-06-comments-show-legacy.json'), 1).comments) made.push(...commentDocs(c, '1', JUNE_2019, 's'));
    for (const f of ['2019-06-profile.json', '2019-07-profile.json']) made.push(userDoc('1', env(f).data!.userInfo!, JUNE_2019, 's'));
    expect(made.length).toBeGreaterThan(60);
    const problems = made.flatMap((d) => unmappedFields(d.index, d.body).map((p) => `${d.index}/${d.id}: ${p}`));
    expect(problems).toEqual([]);
  });
});

describe('readCount', () => {
  it.each([
    ['100万+', { value: 1_000_000, atLeast: true }], ['43.4万', { value: 434_000, atLeast: false }], ['89万次播放', { value: 890_000, atLeast: false }],
    ['100万+次播放', { value: 1_000_000, atLeast: true }], [12, { value: 12, atLeast: false }],
  ])('%p', (input, expected) => expect(readCount(input)).toEqual(expected));
});
