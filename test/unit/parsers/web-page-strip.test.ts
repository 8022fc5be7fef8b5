import { FORUM_SCAN_CHARS } from '../../../src/extractors/page-kind';
import { takeParsedHtml } from '../../../src/extractors/parsed-html';
import { pageReading, readPage } from '../../../src/parsers/web-page-read';
import { webPagesConfigSchema } from '../../../src/parsers/web-pages';

const state = `<script id="__STATE__" type="application/json">{"items":[${Array.from({ length: 40_000 }, (_, k) => `{"id":${k},"slug":"item-${k}"}`).join(',')}]}</script>`;
const icons = `<svg>${Array.from({ length: 10_000 }, (_, k) => `<path id="i${k}" d="M${k} 0L1 1Z"/>`).join('')}</svg>`;
const article = '<article><h1>The weir</h1><p>The keepers opened the third gate before dawn.</p><a href="/news/2.html">next story</a></article>';
const links = `<nav><table>${'<tr><td><a href="/t/1">1</a></td></tr>'.repeat(12_000)}</table></nav>`;
const bigPage = `<html><head><script type="application/ld+json">{"datePublished":"2024-03-01"}</script></head><body>${links}${state}${icons}${article}</body></html>`;
const url = 'https://n.example/news/1.html';

const configWith = (extra: object) => webPagesConfigSchema.parse({
  type: 'web_pages',
  rules: [{ name: 'news', match: { prefix: ['https://n.example/'] }, page_document: true, links: { selector: 'a[href]' } }],
  ...extra,
});

const html = (c: ReturnType<typeof configWith>, text: string): string => {
  const read = readPage(pageReading(c), { url, status: 200, text, fetchedAtMs: 0 }, 'web:page:x', undefined);
  expect(read.links).toEqual(['https://n.example/t/1', 'https://n.example/news/2.html']);
  const doc = read.docs[0]!;
  const h = doc.body.html as string;
  expect(takeParsedHtml(doc, h)).toBeDefined();
  return h;
};

describe('web_pages: heavy markup of huge pages', () => {
  it('is removed before a page above strip_heavy_markup_above_bytes is parsed (ld+json and text kept)', () => {
    expect(bigPage.length).toBeGreaterThan(1024 * 1024);
    const parsed = html(configWith({}), bigPage);
    expect(parsed.length).toBeLessThan(bigPage.length / 2);
    // The page's opening as sent is kept whole (the forum markers are read there).
    expect(links.length).toBeGreaterThan(FORUM_SCAN_CHARS);
    expect(parsed.startsWith(bigPage.slice(0, FORUM_SCAN_CHARS))).toBe(true);
    expect(parsed).toContain('{"datePublished":"2024-03-01"}');
    expect(parsed).toContain(article);
    expect(parsed).not.toContain('item-1');
  });

  it('is kept on pages under the limit, when the limit is 0, and where the rule set reads it', () => {
    expect(html(configWith({ strip_heavy_markup_above_bytes: 2 * bigPage.length }), bigPage)).toBe(bigPage);
    expect(html(configWith({ strip_heavy_markup_above_bytes: 0 }), bigPage)).toBe(bigPage);
    const readsScripts = configWith({});
    readsScripts.rules[0]!.links = { ...readsScripts.rules[0]!.links!, selector: 'a[href], script[src]' };
    const parsed = html(readsScripts, bigPage);
    expect(parsed).toContain('item-1');
    expect(parsed).not.toContain('<path');
  });

  it('is a validated size', () => {
    expect(() => configWith({ strip_heavy_markup_above_bytes: -1 })).toThrow();
    expect(() => configWith({ strip_heavy_markup_above_bytes: '1MB' })).toThrow();
    expect(configWith({}).strip_heavy_markup_above_bytes).toBe(1024 * 1024);
  });
});

describe('web_pages: a page handed over to its reader', () => {
  it('lets go of the text of a big page once it is parsed, and only when owned', () => {
    const owned = { url, status: 200, text: bigPage, fetchedAtMs: 0 };
    const read = readPage(pageReading(configWith({})), owned, 'web:page:x', undefined, true);
    expect(owned.text).toBe('');
    expect(read.links).toContain('https://n.example/news/2.html');
    expect(read.docs[0]!.body.html).toContain(article);
    const lent = { url, status: 200, text: bigPage, fetchedAtMs: 0 };
    readPage(pageReading(configWith({})), lent, 'web:page:x', undefined);
    expect(lent.text).toBe(bigPage);
    // A page parsed as sent (under the limit) is the document's html itself: nothing to let go.
    const small = { url, status: 200, text: `<html><body>${article}</body></html>`, fetchedAtMs: 0 };
    readPage(pageReading(configWith({})), small, 'web:page:x', undefined, true);
    expect(small.text).toContain(article);
  });
});
