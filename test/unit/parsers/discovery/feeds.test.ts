import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverFeeds } from '../../../../src/parsers/discovery/feed-links';
import { FeedError, parseFeed } from '../../../../src/parsers/discovery/feeds';
import { parseFeedDate } from '../../../../src/parsers/discovery/xml';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../../fixtures/discovery', name), 'utf8');

describe('feed dates', () => {
  it('reads RFC 822 and ISO 8601 as feeds write them, and zone-less CMS times at the assumed offset', () => {
    expect(parseFeedDate('Fri, 20 Nov 2026 09:12:41 +0000')).toBe(Date.UTC(2026, 10, 20, 9, 12, 41));
    expect(parseFeedDate('Thu, 19 Nov 2026 16:00:00 GMT')).toBe(Date.UTC(2026, 10, 19, 16));
    expect(parseFeedDate('20 Nov 26 08:00 +0800')).toBe(Date.UTC(2026, 10, 20, 0));
    expect(parseFeedDate('Sat, 21 Nov 2026 08:00:00 EST')).toBe(Date.UTC(2026, 10, 21, 13));
    expect(parseFeedDate('2026-11-20T10:30:00+01:00')).toBe(Date.UTC(2026, 10, 20, 9, 30));
    expect(parseFeedDate('2026-11-20T07:45-05:00')).toBe(Date.UTC(2026, 10, 20, 12, 45));
    expect(parseFeedDate('2026-11-20T07:45:00.250Z')).toBe(Date.UTC(2026, 10, 20, 7, 45, 0, 250));
    expect(parseFeedDate('2026-11-20')).toBe(Date.UTC(2026, 10, 20));
    expect(parseFeedDate('2026-11')).toBe(Date.UTC(2026, 10, 1));
    expect(parseFeedDate('2026-11-20 08:15:00', 480)).toBe(Date.UTC(2026, 10, 20, 0, 15));
    expect(parseFeedDate('yesterday')).toBeUndefined();
    expect(parseFeedDate('')).toBeUndefined();
  });
});

describe('feeds', () => {
  it('RSS 2.0 from WordPress: self link, CDATA authors, permalinks that are not, HTML descriptions', () => {
    const f = parseFeed(fixture('wordpress-rss.xml'), 'https://rivernotes.example.org/feed/');
    expect(f).toMatchObject({ format: 'rss', title: 'River Notes', homeUrl: 'https://rivernotes.example.org/', selfUrl: 'https://rivernotes.example.org/feed/', updatedMs: Date.UTC(2026, 10, 20, 9, 12, 41) });
    expect(f.items).toHaveLength(2);
    expect(f.items[0]).toMatchObject({
      id: 'https://rivernotes.example.org/?p=2210',
      url: 'https://rivernotes.example.org/2026/11/20/gauging-stations-after-the-autumn-flood/',
      title: 'Gauging stations after the autumn flood', author: 'Mira Holt', publishedMs: Date.UTC(2026, 10, 20, 9, 12, 41),
    });
    expect(f.items[0]!.summary).toMatch(/^Three of the five stations .* float… Read the full article$/);
    expect(f.items[1]!.summary).toBe('Warm rain on early snow & frozen ground: the usual suspects.');
  });

  it('RSS with padded links, tracking parameters and dc:date', () => {
    const f = parseFeed(fixture('infoq-style-rss.xml'), 'https://www.buildweekly.example.com/feed');
    expect(f.items.map((i) => i.url)).toEqual([
      'https://www.buildweekly.example.com/news/2026/11/incremental-monorepo/?utm_campaign=bw_content&utm_source=bw&utm_medium=feed&utm_term=news',
      'https://www.buildweekly.example.com/news/2026/11/test-result-cache/?utm_source=bw&utm_medium=feed',
    ]);
    expect(f.items[0]).toMatchObject({ title: 'Incremental Builds Reach the Monorepo', publishedMs: Date.UTC(2026, 10, 19, 16), author: 'Ana Ruiz' });
    expect(f.items[0]!.summary).toBe('Teams report faster feedback after moving to incremental builds. By Ana Ruiz');
  });

  it('a Chinese CMS feed: zone-less times read as China time, relative links resolved, no guid', () => {
    const f = parseFeed(fixture('chinese-cms-rss.xml'), 'http://news.jiangcheng.example.cn/rss.xml');
    expect(f.title).toBe('江城晚报-滚动新闻');
    expect(f.items.map((i) => [i.url, i.publishedMs])).toEqual([
      ['http://news.jiangcheng.example.cn/a/20261120/1234567.html', Date.UTC(2026, 10, 20, 0, 15)],
      ['http://news.jiangcheng.example.cn/a/20261119/1234501.html', Date.UTC(2026, 10, 19, 13, 40, 12)],
    ]);
    expect(f.items[0]!.id).toBeUndefined();
    expect(parseFeed(fixture('chinese-cms-rss.xml'), 'http://news.jiangcheng.example.cn/rss.xml', { assumeOffsetMinutes: 0 }).items[0]!.publishedMs).toBe(Date.UTC(2026, 10, 20, 8, 15));
  });

  it('Atom with CDATA titles, a link without rel, relative entry links and only updated times', () => {
    const f = parseFeed(fixture('atom-cdata.xml'), 'http://blog.quietcompiler.example.net/atom.xml');
    expect(f).toMatchObject({ format: 'atom', title: 'The Quiet Compiler', homeUrl: 'http://blog.quietcompiler.example.net/', selfUrl: 'http://blog.quietcompiler.example.net/atom.xml' });
    expect(f.items.map((i) => i.title)).toEqual(['Parsing Without Backtracking', 'Small Languages & Big Ideas']);
    expect(f.items[1]).toMatchObject({ url: 'http://blog.quietcompiler.example.net/2026/10/02/SmallLanguages.html', updatedMs: Date.UTC(2026, 9, 2) });
    expect(f.items[1]!.publishedMs).toBeUndefined();
  });

  it('RSS 1.0 (RDF) and JSON Feed 1.1', () => {
    const rdf = parseFeed(fixture('rdf-rss1.xml'), 'https://tech.example.org/index.rss');
    expect(rdf.format).toBe('rdf');
    expect(rdf.items[0]).toMatchObject({ id: 'https://tech.example.org/story/26/11/20/1811/', publishedMs: Date.UTC(2026, 10, 20, 18, 11), author: 'msmith' });
    const json = parseFeed(fixture('jsonfeed.json'), 'https://fieldlog.example.com/feed.json');
    expect(json).toMatchObject({ format: 'json', title: 'Field Log', selfUrl: 'https://fieldlog.example.com/feed.json' });
    expect(json.items[0]).toMatchObject({ publishedMs: Date.UTC(2026, 10, 20, 12, 45), updatedMs: Date.UTC(2026, 10, 20, 14, 2), author: 'J. Lindqvist', summary: 'Thin ice along the north shore this morning.' });
    expect(json.items[1]).toMatchObject({ id: '2026-11-18-boats', url: 'https://fieldlog.example.com/2026/11/18/boats', summary: 'Boats out of the water for the season.' });
  });

  it('says clearly what is not a feed', () => {
    expect(() => parseFeed('<html><body>hi</body></html>', 'https://e.com/')).toThrow(new FeedError('not a feed: root element <html>'));
    expect(() => parseFeed('{"items": []}', 'https://e.com/')).toThrow(/not a JSON Feed/);
    expect(() => parseFeed('{oops', 'https://e.com/')).toThrow(/does not parse/);
    expect(() => parseFeed('<rss version="2.0"></rss>', 'https://e.com/')).toThrow(/without <channel>/);
  });
});

describe('feed discovery', () => {
  it('finds the feeds a head announces, resolved against <base>, each once, nothing from the body', () => {
    expect(discoverFeeds(fixture('article-head.html'), 'https://www.harbourdaily.example.com/2026/11/20/ferry-timetable-changes/')).toEqual([
      { url: 'https://www.harbourdaily.example.com/feed/', type: 'rss', title: 'Harbour Daily » Feed' },
      { url: 'https://www.harbourdaily.example.com/comments/feed/', type: 'rss', title: 'Harbour Daily » Comments Feed' },
      { url: 'https://www.harbourdaily.example.com/feed/atom/', type: 'atom', title: 'Harbour Daily Atom' },
    ]);
    expect(discoverFeeds('<html><head><title>x</title></head><body></body></html>', 'https://e.com/')).toEqual([]);
  });
});
