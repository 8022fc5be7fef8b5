import * as cheerio from 'cheerio';
import { ManualClock } from '../../../src/core/clock';
import { createWorld, startSimsite, type SimsiteHandle } from '../../../src/simsite';

interface ThreadRow { tid: number; boardId: number; flavour: string; encoding: string; posts: number; replies: number; pages: number; lastPostMs: number; url: string }

const HOUR = 3_600_000;
let site: SimsiteHandle;
let clock: ManualClock;

beforeAll(async () => {
  const world = createWorld({ seed: 21, users: 200 });
  clock = new ManualClock(world.startMs);
  site = await startSimsite({ world, clock, sites: { threadsPerBoard: 15, news: { validators: true } } });
});
afterAll(() => site.close());

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${site.url}${path}`, { headers, redirect: 'manual' });
  return { status: r.status, headers: r.headers, text: Buffer.from(await r.arrayBuffer()).toString('utf8') };
}
const threads = async (): Promise<ThreadRow[]> => (await (await fetch(`${site.url}/_truth/forum/threads`)).json()) as ThreadRow[];

describe('simsite forum boards for incremental monitoring', () => {
  it('Discuz and phpBB thread lists show each thread\'s replies, last reply time and last page', async () => {
    const all = await threads();
    const discuz = all.find((t) => t.flavour === 'discuz' && t.encoding === 'utf-8')!.boardId;
    const $ = cheerio.load((await get(`/forum/forum-${discuz}-1.html`)).text);
    for (const t of all.filter((x) => x.boardId === discuz)) {
      const row = $(`#normalthread_${t.tid}`);
      expect(Number(row.find('td.num a').text())).toBe(t.replies);
      const last = row.find('td.by').last().find('em span').attr('title') ?? row.find('td.by').last().find('em a').text();
      // China time, to the second when relative (title), to the minute otherwise.
      const ms = Date.parse(`${last.replace(/^(\d+)-(\d+)-(\d+)/, (_m, y: string, mo: string, d: string) => `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`).replace(' ', 'T')}+08:00`);
      expect(Math.abs(ms - t.lastPostMs)).toBeLessThan(60_000);
      if (t.pages > 1) expect(row.find('span.tps a').last().attr('href')).toBe(`/forum/thread-${t.tid}-${t.pages}-1.html`);
    }
    const phpbb = all.find((t) => t.flavour === 'phpbb')!.boardId;
    const p = cheerio.load((await get(`/phpbb/viewforum.php?f=${phpbb}`)).text);
    p('li.row').each((_, li) => {
      const tid = Number(/t=(\d+)/.exec(p(li).find('a.topictitle').attr('href')!)![1]);
      const t = all.find((x) => x.tid === tid)!;
      expect(Date.parse(p(li).find('dd.lastpost time').attr('datetime')!)).toBe(t.lastPostMs);
      expect(Number(p(li).find('dd.posts').text().split(' ')[0])).toBe(t.replies);
    });
  });

  it('the last-post links lead to the thread\'s last page', async () => {
    const t = (await threads()).find((x) => x.flavour === 'discuz' && x.pages > 1)!;
    const r = await get(`/forum.php?mod=redirect&tid=${t.tid}&goto=lastpost`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`/forum/thread-${t.tid}-${t.pages}-1.html`);
    const pb = (await threads()).find((x) => x.flavour === 'phpbb' && x.pages > 1)!;
    const lastPid = pb.tid * 1000 + pb.posts;
    const page = cheerio.load((await get(`/phpbb/viewtopic.php?p=${lastPid}`)).text);
    expect(page(`#p${lastPid}`).length).toBe(1);
  });

  it('thread pages revalidate with 304 until a reply lands on them; earlier pages stay 304', async () => {
    clock.advanceMs(12 * HOUR);
    const mid = await threads();
    const tags = new Map<number, { first: string; last: string }>();
    for (const t of mid.filter((x) => x.pages > 1)) {
      const last = await get(t.flavour === 'discuz' ? `/forum/thread-${t.tid}-${t.pages}-1.html` : `/phpbb/viewtopic.php?f=${t.boardId}&t=${t.tid}&start=${(t.pages - 1) * 10}`);
      tags.set(t.tid, { first: (await get(t.url)).headers.get('etag')!, last: last.headers.get('etag')! });
    }
    clock.advanceMs(24 * HOUR);
    const after = new Map((await threads()).map((t) => [t.tid, t]));
    let grown = 0;
    let still = 0;
    for (const t of mid.filter((x) => x.pages > 1)) {
      const now = after.get(t.tid)!;
      const lastUrl = t.flavour === 'discuz' ? `/forum/thread-${t.tid}-${t.pages}-1.html` : `/phpbb/viewtopic.php?f=${t.boardId}&t=${t.tid}&start=${(t.pages - 1) * 10}`;
      const r = await get(lastUrl, { 'if-none-match': tags.get(t.tid)!.last });
      expect((await get(t.url, { 'if-none-match': tags.get(t.tid)!.first })).status).toBe(now.pages === t.pages ? 304 : 200);
      if (now.posts > t.posts) {
        grown += 1;
        expect(r.status).toBe(200);
      } else {
        still += 1;
        expect(r.status).toBe(304);
      }
    }
    expect(grown).toBeGreaterThan(0);
    expect(still).toBeGreaterThan(0);
  });
});
