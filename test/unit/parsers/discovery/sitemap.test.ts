import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { changedSince, parseSitemap, SitemapError, sitemapText } from '../../../../src/parsers/discovery/sitemap';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../../fixtures/discovery', name), 'utf8');
const BASE = 'https://www.harbourdaily.example.com/sitemap_index.xml';

describe('sitemaps', () => {
  it('reads an index with a stylesheet instruction, date-only and missing lastmods, and skips what is not http(s)', () => {
    const s = parseSitemap(fixture('sitemap-index.xml'), BASE);
    expect(s).toEqual({
      kind: 'index', skipped: 1,
      sitemaps: [
        { url: 'https://www.harbourdaily.example.com/post-sitemap.xml', lastmodMs: Date.UTC(2026, 10, 20, 9, 14, 3) },
        { url: 'https://www.harbourdaily.example.com/post-sitemap2.xml.gz', lastmodMs: Date.UTC(2026, 10, 2) },
        { url: 'https://www.harbourdaily.example.com/page-sitemap.xml' },
      ],
    });
  });

  it('reads a urlset with image extensions, changefreq and priority', () => {
    const s = parseSitemap(fixture('post-sitemap.xml'), BASE);
    if (s.kind !== 'urlset') throw new Error('expected a urlset');
    expect(s.urls).toEqual([
      { url: 'https://www.harbourdaily.example.com/', changefreq: 'hourly', priority: 1 },
      { url: 'https://www.harbourdaily.example.com/2026/11/20/ferry-timetable-changes/', lastmodMs: Date.UTC(2026, 10, 20, 9, 14, 3) },
      { url: 'https://www.harbourdaily.example.com/2026/11/19/harbour-dredging-starts/', lastmodMs: Date.UTC(2026, 10, 19, 17, 40, 55), changefreq: 'weekly', priority: 0.6 },
    ]);
    // Changed since the 19th at noon: the two without or with a later time.
    expect(changedSince(s.urls, Date.UTC(2026, 10, 19, 18)).map((u) => u.url)).toEqual([s.urls[0]!.url, s.urls[1]!.url]);
  });

  it('reads a news sitemap under any prefix', () => {
    const s = parseSitemap(fixture('news-sitemap-prefix.xml'), 'http://www.coastradio.example.org/news-sitemap.xml');
    if (s.kind !== 'urlset') throw new Error('expected a urlset');
    expect(s.urls.map((u) => u.news)).toEqual([
      { publishedMs: Date.UTC(2026, 10, 20, 9, 30), title: 'Council votes to rebuild the sea wall', language: 'en', publication: 'Coast Radio' },
      { publishedMs: Date.UTC(2026, 10, 20), title: 'Storm warning for the weekend', language: 'en', publication: 'Coast Radio' },
    ]);
  });

  it('inflates gzip by its magic bytes, bounded, and reads plain-text sitemaps', () => {
    const xml = fixture('post-sitemap.xml');
    expect(sitemapText(gzipSync(xml))).toBe(xml);
    expect(sitemapText(Buffer.from(xml))).toBe(xml);
    expect(() => sitemapText(gzipSync('x'.repeat(10_000)), 1000)).toThrow(SitemapError);
    expect(() => sitemapText(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toThrow(/does not gunzip/);
    expect(parseSitemap('https://e.com/a\n\n/b\r\nftp://e.com/c\n', 'https://e.com/sitemap.txt')).toEqual({
      kind: 'urlset', skipped: 1, urls: [{ url: 'https://e.com/a' }, { url: 'https://e.com/b' }],
    });
  });

  it('caps entries per file and refuses what is no sitemap', () => {
    const many = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 5 }, (_, i) => `<url><loc>https://e.com/${i}</loc></url>`).join('')}</urlset>`;
    const s = parseSitemap(many, 'https://e.com/s.xml', 3);
    expect(s.kind === 'urlset' && s.urls.length).toBe(3);
    expect(s.skipped).toBe(2);
    expect(() => parseSitemap('<html><body>Not found</body></html>', 'https://e.com/sitemap.xml')).toThrow(/not a sitemap/);
  });
});
