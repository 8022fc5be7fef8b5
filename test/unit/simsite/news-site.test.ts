import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import { ManualClock } from '../../../src/core/clock';
import { createWorld, parseNewsSpec, startSimsite, type SimsiteHandle } from '../../../src/simsite';

interface Version { version: number; modifiedMs: number; title: string; text: string }
interface ArticleRow {
  id: number; url: string | null; originalUrl: string; status: 'live' | 'moved' | 'deleted'; goneStatus?: number;
  deletedMs?: number; movedMs?: number; publishedMs: number; section: string; versions: Version[];
}

const HOUR = 3_600_000;

async function get(site: SimsiteHandle, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer }> {
  const r = await fetch(`${site.url}${path}`, { headers: { 'x-client-id': 'test', ...headers }, redirect: 'manual' });
  const bytes = Buffer.from(await r.arrayBuffer());
  return { status: r.status, headers: r.headers, text: bytes.toString('utf8'), bytes };
}

async function rows<T>(site: SimsiteHandle, path: string): Promise<T[]> {
  return (await (await fetch(`${site.url}${path}`)).json()) as T[];
}

const mainText = (html: string): string => {
  const $ = cheerio.load(html);
  const main = $('#artibody').length > 0 ? $('#artibody') : $('.entry-content');
  return main.find('p').map((_, p) => $(p).text()).get().join('\n\n');
};

describe('simsite news site: plain by default', () => {
  let site: SimsiteHandle;
  beforeAll(async () => {
    const world = createWorld({ seed: 5, users: 100 });
    site = await startSimsite({ world, clock: new ManualClock(world.startMs) });
  });
  afterAll(() => site.close());

  it('serves feeds and sitemaps, but no validators, Sitemap lines, edits or noisy links', async () => {
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    expect(truth.every((a) => a.status === 'live' && a.versions.length === 1 && a.url === a.originalUrl)).toBe(true);
    const page = await get(site, truth[10]!.url!);
    expect(page.headers.get('etag')).toBeNull();
    expect(page.text).toContain('type="application/rss+xml"');
    expect(page.text).not.toMatch(/utm_|jsessionid|calendar/);
    expect((await get(site, '/robots.txt')).text).not.toContain('Sitemap:');
    expect((await get(site, '/news/rss.xml')).status).toBe(200);
    expect((await get(site, '/news/calendar/')).status).toBe(404);
  });
});

describe('simsite news site: feeds, sitemaps, validators, edits, deletions, moves', () => {
  let site: SimsiteHandle;
  let clock: ManualClock;
  beforeAll(async () => {
    const world = createWorld({ seed: 9, users: 100 });
    clock = new ManualClock(world.startMs);
    site = await startSimsite({
      world, clock, sites: { news: { editShare: 0.3, deleteShare: 0.1, moveShare: 0.1, validators: true, announceSitemaps: true } },
    });
  });
  afterAll(() => site.close());

  it('robots.txt names the sitemaps; the index lists gzipped monthly sitemaps holding every live article at its URL, with lastmod', async () => {
    const robots = (await get(site, '/robots.txt')).text;
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap-news.xml`);
    const index = cheerio.load((await get(site, '/sitemap.xml')).text, { xml: true });
    const children = index('sitemap > loc').map((_, e) => index(e).text()).get();
    const monthly = children.filter((c) => c.endsWith('.xml.gz'));
    expect(monthly.length).toBeGreaterThanOrEqual(2);
    const listed = new Map<string, string>();
    for (const c of monthly) {
      const r = await get(site, c.slice(site.url.length));
      expect(r.headers.get('content-type')).toBe('application/x-gzip');
      const $ = cheerio.load(gunzipSync(r.bytes).toString('utf8'), { xml: true });
      $('url').each((_, u) => void listed.set($(u).find('loc').text().slice(site.url.length), $(u).find('lastmod').text()));
    }
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    const live = truth.filter((a) => a.status !== 'deleted');
    expect([...listed.keys()].sort()).toEqual(live.map((a) => a.url!).sort());
    for (const a of live) expect(Date.parse(listed.get(a.url!)!)).toBe(a.versions[a.versions.length - 1]!.modifiedMs);
    expect(truth.some((a) => a.status === 'moved')).toBe(true);
    expect(truth.some((a) => a.status === 'deleted')).toBe(true);
  });

  it('the news sitemap lists the articles of the last two days; RSS, Atom and JSON Feed the newest twenty', async () => {
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    const now = clock.nowMs();
    const recent = truth.filter((a) => a.status !== 'deleted' && a.publishedMs > now - 48 * HOUR).map((a) => a.url).sort();
    const ns = cheerio.load((await get(site, '/sitemap-news.xml')).text, { xml: true });
    expect(ns('url > loc').map((_, e) => ns(e).text().slice(site.url.length)).get().sort()).toEqual(recent);
    expect(ns('news\\:publication_date').length).toBe(recent.length);
    const newest = truth.filter((a) => a.status !== 'deleted').sort((a, b) => b.publishedMs - a.publishedMs).slice(0, 20);
    const rss = cheerio.load((await get(site, '/news/rss.xml')).text, { xml: true });
    expect(rss('item > link').map((_, e) => rss(e).text().slice(site.url.length)).get()).toEqual(newest.map((a) => a.url));
    expect(rss('item > pubDate').map((_, e) => Date.parse(rss(e).text())).get()).toEqual(newest.map((a) => a.publishedMs));
    const atom = cheerio.load((await get(site, '/news/atom.xml')).text, { xml: true });
    expect(atom('entry > updated').map((_, e) => Date.parse(atom(e).text())).get()).toEqual(newest.map((a) => a.versions[a.versions.length - 1]!.modifiedMs));
    const json = JSON.parse((await get(site, '/news/feed.json')).text) as { items: { url: string }[] };
    expect(json.items.map((i) => i.url.slice(site.url.length))).toEqual(newest.map((a) => a.url));
  });

  it('answers a conditional GET (If-None-Match or If-Modified-Since) with 304 and no body', async () => {
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    // An article with an edit still to come.
    const now = clock.nowMs();
    const a = truth.find((x) => x.status === 'live' && x.publishedMs > now - 6 * HOUR && x.publishedMs < now - HOUR) ?? truth.find((x) => x.status === 'live')!;
    const first = await get(site, a.url!);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^".+"$/);
    expect(Date.parse(lastModified)).toBeGreaterThanOrEqual(Math.floor(a.versions[a.versions.length - 1]!.modifiedMs / 1000) * 1000);
    const byTag = await get(site, a.url!, { 'if-none-match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.bytes.length).toBe(0);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect((await get(site, a.url!, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get(site, a.url!, { 'if-none-match': '"other"' })).status).toBe(200);
    expect(mainText(first.text)).toBe(a.versions[a.versions.length - 1]!.text);
  });

  it('edits appear at their times with a modified time; the truth keeps every version', async () => {
    const before = await rows<ArticleRow>(site, '/_truth/news/articles');
    const recent = before.filter((a) => a.status === 'live').slice(-40);
    const tags = new Map<number, string>();
    for (const a of recent) tags.set(a.id, (await get(site, a.url!)).headers.get('etag')!);
    clock.advanceMs(48 * HOUR);
    const after = await rows<ArticleRow>(site, '/_truth/news/articles');
    const versions = (rs: ArticleRow[]): number => rs.reduce((n, a) => n + a.versions.length, 0);
    expect(versions(after.slice(0, before.length))).toBeGreaterThan(versions(before));
    const edited = after.filter((a) => a.status !== 'deleted' && a.versions.length > 1);
    const a = edited[edited.length - 1]!;
    const v = a.versions[a.versions.length - 1]!;
    expect(v.text).not.toBe(a.versions[0]!.text);
    const page = await get(site, a.url!);
    expect(mainText(page.text)).toBe(v.text);
    // Revalidating: an edited article never answers 304; some unchanged ones do.
    const byId = new Map(after.map((x) => [x.id, x]));
    let editedSeen = 0;
    let notModified = 0;
    for (const b of recent) {
      const now = byId.get(b.id)!;
      if (now.status !== 'live') continue;
      const r = await get(site, now.url!, { 'if-none-match': tags.get(b.id)! });
      if (now.versions.length > b.versions.length) {
        editedSeen += 1;
        expect(r.status).toBe(200);
        expect(mainText(r.text)).toBe(now.versions[now.versions.length - 1]!.text);
      } else if (r.status === 304) notModified += 1;
    }
    expect(editedSeen).toBeGreaterThan(0);
    expect(notModified).toBeGreaterThan(0);
    expect(cheerio.load(page.text)('meta[property="article:modified_time"]').attr('content')).toBe(new Date(v.modifiedMs).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect(cheerio.load(page.text)('h1').text()).toBe(v.title);
  });

  it('deleted articles answer 404 or 410; moved ones 301 to their dated URL, which names itself canonical', async () => {
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    const gone = truth.filter((a) => a.status === 'deleted');
    expect(new Set(gone.map((a) => a.goneStatus))).toEqual(new Set([404, 410]));
    for (const a of gone.slice(0, 6)) expect((await get(site, a.originalUrl)).status).toBe(a.goneStatus);
    const moved = truth.filter((a) => a.status === 'moved');
    for (const a of moved.slice(0, 4)) {
      const r = await get(site, a.originalUrl);
      expect(r.status).toBe(301);
      expect(r.headers.get('location')).toBe(`${site.url}${a.url}`);
      expect(a.url).toMatch(/^\/news\/\d{4}\/\d{2}\/\d+\.html$/);
      const page = await get(site, a.url!);
      expect(page.status).toBe(200);
      expect(cheerio.load(page.text)('link[rel=canonical]').attr('href')).toBe(a.url);
    }
    // A live article has no dated URL yet.
    const live = truth.find((a) => a.status === 'live')!;
    expect((await get(site, live.url!.replace(/\/(\d+)\.html$/, '/2026/11/$1.html'))).status).toBe(404);
  });
});

describe('simsite news site: noisy links and traps', () => {
  let site: SimsiteHandle;
  beforeAll(async () => {
    const world = createWorld({ seed: 3, users: 100 });
    site = await startSimsite({ world, clock: new ManualClock(world.startMs), sites: { news: { trackingLinks: true, sessionIds: 'path', traps: true } } });
  });
  afterAll(() => site.close());

  it('article links carry tracking parameters, session ids, AMP and dot-segment forms; every variant shows the article and names the one canonical URL', async () => {
    const truth = await rows<ArticleRow>(site, '/_truth/news/articles');
    const page = await get(site, truth[200]!.url!);
    const $ = cheerio.load(page.text);
    const hrefs = $('a[href^="/news/"]').map((_, a) => $(a).attr('href')).get().filter((h) => /\d+\.html/.test(h));
    expect(hrefs.some((h) => /[?&]utm_source=/.test(h))).toBe(true);
    expect(hrefs.some((h) => /[?&]spm=/.test(h))).toBe(true);
    expect(hrefs.some((h) => /\/amp\//.test(h))).toBe(true);
    expect(hrefs.some((h) => /\/\.\//.test(h))).toBe(true);
    // All but the two hard-coded links of the ranking box.
    expect(hrefs.filter((h) => !/;jsessionid=[0-9A-F]{32}/.test(h)).every((h) => /^\/news\/[12]\.html$/.test(h))).toBe(true);
    const byId = new Map(truth.map((a) => [a.id, a]));
    for (const h of hrefs.slice(0, 12)) {
      const id = Number(/(\d+)\.html/.exec(h)![1]);
      const r = await get(site, new URL(h, site.url).pathname + new URL(h, site.url).search);
      expect(r.status).toBe(200);
      expect(cheerio.load(r.text)('link[rel=canonical]').attr('href')).toBe(byId.get(id)!.url);
      expect(mainText(r.text)).toBe(byId.get(id)!.versions[0]!.text);
    }
  });

  it('the calendar pages on forever, facets multiply query strings, and a relative link repeats the path', async () => {
    let path = '/news/calendar/';
    for (let i = 0; i < 30; i++) {
      const r = await get(site, path);
      expect(r.status).toBe(200);
      path = cheerio.load(r.text)('a.next').attr('href')!;
    }
    expect(path).toMatch(/^\/news\/calendar\/202[89]\/\d{2}\/$/);
    const index = cheerio.load((await get(site, '/news/')).text);
    const facets = index('.facets a').map((_, a) => index(a).attr('href')).get();
    expect(facets.length).toBe(14);
    const facetPage = cheerio.load((await get(site, facets[0]!)).text);
    const deeper = facetPage('.facets a').map((_, a) => facetPage(a).attr('href')).get();
    expect(deeper.some((h) => /section=tech&sort=new/.test(h))).toBe(true);
    expect((await get(site, '/news/news/news/news/')).status).toBe(200);
    const pages = await rows<{ url: string; kind: string }>(site, '/_truth/news/pages');
    const live = (await rows<ArticleRow>(site, '/_truth/news/articles')).filter((a) => a.status !== 'deleted');
    expect(pages.filter((p) => p.kind === 'article').map((p) => p.url).sort()).toEqual(live.map((a) => a.url).sort());
    expect(pages.some((p) => /calendar|sort=|view=|period=|news\/news/.test(p.url))).toBe(false);
    // Section lists are real pages: each lists the live articles of its section.
    const sections = pages.filter((p) => p.kind === 'section' && !p.url.includes('page='));
    expect(sections.length).toBeGreaterThan(6);
    const s = sections.find((p) => !/tech|life|travel|finance|sports|ent/.test(p.url))!;
    const name = decodeURIComponent(s.url.split('=')[1]!);
    const list = cheerio.load((await get(site, s.url)).text)('ul.news-list a').length;
    expect(list).toBe(Math.min(20, live.filter((a) => a.section === name).length));
  });
});

describe('simsite --news', () => {
  it('reads the parts a user names, `monitor` for all, and says what it does not know', () => {
    expect(parseNewsSpec('none')).toEqual({});
    expect(parseNewsSpec('validators,sitemaps,edits=0.5,sessions=query')).toEqual({ validators: true, announceSitemaps: true, editShare: 0.5, sessionIds: 'query' });
    expect(parseNewsSpec('monitor')).toMatchObject({ validators: true, traps: true, trackingLinks: true, sessionIds: 'path' });
    expect(() => parseNewsSpec('edits=2')).toThrow('--news edits: a share between 0 and 1, got "2"');
    expect(() => parseNewsSpec('sessions=cookie')).toThrow('--news sessions: path or query');
    expect(() => parseNewsSpec('feeds')).toThrow(/unknown part "feeds"/);
    expect(() => parseNewsSpec('deletes=0.7,moves=0.5')).toThrow(/more than 1/);
  });
});
