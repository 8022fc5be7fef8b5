import * as cheerio from 'cheerio';
import iconv from 'iconv-lite';
import { ManualClock } from '../../../src/core/clock';
import { createWorld, startSimsite, type SimsiteHandle } from '../../../src/simsite';
import { expectGolden, shapeOf } from './helpers';

interface ThreadRow { tid: number; boardId: number; flavour: string; encoding: string; charset: string; posts: number; url: string; title: string }
interface PostRow { pid: number; floor: number; author: string; createdMs: number; text: string; url: string; quotesFloor: number | null }

let site: SimsiteHandle;

beforeAll(async () => {
  const world = createWorld({ seed: 77, users: 300 });
  site = await startSimsite({ world, clock: new ManualClock(world.startMs), sites: { threadsPerBoard: 12 } });
});
afterAll(() => site.close());

async function rows<T>(path: string): Promise<T[]> {
  return (await (await fetch(`${site.url}${path}`)).json()) as T[];
}

async function page(path: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const r = await fetch(`${site.url}${path}`);
  return { status: r.status, contentType: r.headers.get('content-type') ?? '', bytes: Buffer.from(await r.arrayBuffer()) };
}

/** A thread with at least two pages, per board. */
async function threadOf(boardId: number): Promise<ThreadRow> {
  const threads = await rows<ThreadRow>('/_truth/forum/threads');
  const t = threads.filter((x) => x.boardId === boardId).sort((a, b) => b.posts - a.posts)[0];
  if (!t || t.posts <= 10) throw new Error(`board ${boardId} has no multi-page thread`);
  return t;
}

describe('simsite forum pages', () => {
  it('declares charsets per board: header, meta only, or nowhere (GBK bytes)', async () => {
    const boards = await rows<{ id: number; encoding: string; charset: string; flavour: string }>('/_truth/forum/boards');
    expect(new Set(boards.map((b) => `${b.flavour}/${b.encoding}/${b.charset}`)).size).toBe(boards.length);
    for (const b of boards) {
      const t = await threadOf(b.id);
      const p = await page(t.url);
      expect(p.status).toBe(200);
      const latin = p.bytes.toString('latin1');
      if (b.charset === 'header') expect(p.contentType).toBe(`text/html; charset=${b.encoding}`);
      else expect(p.contentType).toBe('text/html');
      expect(/<meta[^>]+charset/i.test(latin)).toBe(b.charset !== 'none');
      if (b.encoding === 'gbk') {
        // Not valid UTF-8, but decodes as GBK to the thread title.
        expect(p.bytes.toString('utf8')).not.toContain(t.title);
        expect(iconv.decode(p.bytes, 'gbk')).toContain(t.title);
      }
    }
  });

  it('Discuz thread: selectors of spec §3.3 yield the truth (author, time, own text), paged by div.pg a.nxt', async () => {
    const boards = await rows<{ id: number; flavour: string; encoding: string }>('/_truth/forum/boards');
    const gbk = boards.find((b) => b.flavour === 'discuz' && b.encoding === 'gbk')!;
    const t = await threadOf(gbk.id);
    const truth = await rows<PostRow>(`/_truth/forum/posts?thread=${t.tid}`);
    const seen: { author: string; text: string; time: string }[] = [];
    let url: string | undefined = t.url;
    let firstHtml = '';
    while (url) {
      const html = iconv.decode((await page(url)).bytes, 'gbk');
      if (!firstHtml) firstHtml = html;
      const $ = cheerio.load(html);
      expect($('#thread_subject').text()).toBe(t.title);
      $('#postlist > div[id^=post_]').each((_, el) => {
        const pid = $(el).attr('id')!.slice(5);
        const msg = $(`#postmessage_${pid}`).clone();
        msg.find('div.quote').remove();
        seen.push({
          author: $(el).find('td.pls div.authi a.xw1').text(),
          text: msg.text().replace(/\r/g, '').trim(),
          time: $(`#authorposton${pid}`).text(),
        });
      });
      url = $('div.pg a.nxt').first().attr('href');
    }
    expect(seen.map((s) => s.author)).toEqual(truth.map((p) => p.author));
    expect(seen.map((s) => s.text)).toEqual(truth.map((p) => p.text));
    for (const s of seen) expect(s.time).toMatch(/^发表于 (\d{4}-\d{1,2}-\d{1,2} \d{2}:\d{2}|.*前)$/);
    expectGolden('discuz-thread-structure', structure(cheerio.load(firstHtml)));
  });

  it('phpBB topic: spec §3.2 selectors yield the truth; start past the end shows the last page', async () => {
    const boards = await rows<{ id: number; flavour: string; encoding: string }>('/_truth/forum/boards');
    const b = boards.find((x) => x.flavour === 'phpbb')!;
    const t = await threadOf(b.id);
    const truth = await rows<PostRow>(`/_truth/forum/posts?thread=${t.tid}`);
    const seen: { author: string; text: string; time: number }[] = [];
    let url: string | undefined = t.url;
    while (url) {
      const $ = cheerio.load((await page(url)).bytes.toString('utf8'));
      $('div.post.has-profile').each((_, el) => {
        const content = $(el).find('div.content').clone();
        content.find('blockquote').remove();
        seen.push({
          author: $(el).find('p.author a.username, p.author a.username-coloured').first().text(),
          text: content.text().trim(),
          time: Date.parse($(el).find('p.author time').attr('datetime')!),
        });
      });
      url = $('div.pagination li.next a').first().attr('href');
    }
    expect(seen.map((s) => s.author)).toEqual(truth.map((p) => p.author));
    expect(seen.map((s) => s.text)).toEqual(truth.map((p) => p.text));
    expect(seen.map((s) => s.time)).toEqual(truth.map((p) => Math.floor(p.createdMs / 1000) * 1000));
    const past = cheerio.load((await page(`/phpbb/viewtopic.php?f=${b.id}&t=${t.tid}&start=99990`)).bytes.toString('utf8'));
    expect(past('div.post').last().attr('id')).toBe(`p${truth[truth.length - 1]!.pid}`);
  });

  it('board index pages link every visible thread', async () => {
    const threads = await rows<ThreadRow>('/_truth/forum/threads');
    const discuzBoard = threads.find((x) => x.flavour === 'discuz' && x.encoding === 'utf-8')!.boardId;
    const $ = cheerio.load((await page(`/forum/forum-${discuzBoard}-1.html`)).bytes.toString('utf8'));
    const linked = $('tbody[id^=normalthread_] a.xst').map((_, a) => $(a).attr('href')).get().sort();
    expect(linked).toEqual(threads.filter((x) => x.boardId === discuzBoard).map((x) => x.url).sort());
  });
});

describe('simsite article pages', () => {
  it('wrap the main text in navigation, sidebars and comments; the truth has the main text', async () => {
    const arts = await rows<{ id: number; url: string; title: string; text: string; layout: string }>('/_truth/articles');
    expect(arts.length).toBeGreaterThan(100);
    for (const layout of ['portal', 'blog']) {
      const a = arts.find((x) => x.layout === layout)!;
      const $ = cheerio.load((await page(a.url)).bytes.toString('utf8'));
      const main = layout === 'portal' ? $('#artibody') : $('.entry-content');
      expect(main.find('p').map((_, p) => $(p).text()).get().join('\n\n')).toBe(a.text);
      expect($('nav.top-nav a').length).toBeGreaterThan(3);
      expect($('aside').length).toBe(2);
      expect($('section.comments').length).toBe(1);
      expect($('h1').text()).toBe(a.title);
    }
    const index = cheerio.load((await page('/news/')).bytes.toString('utf8'));
    expect(index('ul.news-list a').first().attr('href')).toBe(arts[arts.length - 1]!.url);
  });
});

describe('simsite Q&A API (spec §2)', () => {
  it('pages followees with offset/limit until paging.is_end, next always present', async () => {
    const users = await rows<{ urlToken: string; followCount: number }>('/_truth/users');
    const u = users.find((x) => x.followCount > 45)!;
    const include = 'data%5B*%5D.answer_count%2Carticles_count%2Cgender%2Cfollower_count%2Cis_followed%2Cis_following';
    let next: string | null = `${site.url}/api/v4/members/${u.urlToken}/followees?include=${include}&offset=0&limit=20`;
    const ids: string[] = [];
    let first: unknown;
    let last: { paging: { is_end: boolean; next: string; totals: number } } | undefined;
    for (let guard = 0; next && guard < 20; guard++) {
      const body = (await (await fetch(next)).json()) as { paging: { is_end: boolean; next: string; totals: number }; data: { id: string; follower_count: number }[] };
      first ??= body;
      for (const d of body.data) {
        expect(typeof d.follower_count).toBe('number');
        ids.push(d.id);
      }
      last = body;
      next = body.paging.is_end ? null : body.paging.next;
    }
    expectGolden('qa-followees', shapeOf(first));
    expect(ids).toHaveLength(u.followCount);
    expect(new Set(ids).size).toBe(ids.length);
    expect(last!.paging.totals).toBe(u.followCount);
    expect(last!.paging.next).toContain(`offset=${Math.ceil(u.followCount / 20) * 20}`);
    const member = (await (await fetch(`${site.url}/api/v4/members/${u.urlToken}`)).json()) as Record<string, unknown>;
    expectGolden('qa-member', shapeOf(member));
    expect((await fetch(`${site.url}/api/v4/members/no-such-user/followees`)).status).toBe(404);
  });
});

describe('simsite Q&A quirks', () => {
  it('can keep is_end false on the last page with next pointing at the same offset', async () => {
    const stuck = await startSimsite({ world: site.world, clock: site.clock, sites: { qa: { isEndStuck: true } } });
    try {
      const u = site.world.users.find((x) => site.world.followeesOf(x.index).length > 0 && site.world.followeesOf(x.index).length < 20)!;
      const body = (await (await fetch(`${stuck.url}/api/v4/members/${u.urlToken}/followees?offset=0&limit=20`)).json()) as { paging: { is_end: boolean; next: string } };
      expect(body.paging.is_end).toBe(false);
      expect(body.paging.next).toContain('offset=0');
    } finally {
      await stuck.close();
    }
  });
});

/** Tag/class skeleton of the Discuz page around the posts, to pin the markup scrapers rely on. */
function structure($: cheerio.CheerioAPI): Record<string, number> {
  const sel = ['#thread_subject', '#postlist > div[id^=post_]', 'td.pls div.authi a.xw1', 'em[id^=authorposton]', 'td.t_f[id^=postmessage_]', 'div.pg', 'div.sign', '#hd', '#ft'];
  return Object.fromEntries(sel.map((s) => [s, Math.min($(s).length, 1)]));
}
