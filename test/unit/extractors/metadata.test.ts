import { parseHtml } from '../../../src/extractors/dom';
import { findAuthor, findLang, findTitle, jsonLd, metaMap, normalizeDate } from '../../../src/extractors/metadata';
import { looksLikeForum } from '../../../src/extractors/page-kind';

describe('page metadata', () => {
  it('takes the <h1> that agrees with <title>, else the longest part of <title>', () => {
    const withH1 = parseHtml('<title>Storm closes schools - Daily Post</title><body><h1>Menu</h1><h1>Storm closes schools</h1></body>');
    expect(findTitle(withH1, metaMap(withH1))).toBe('Storm closes schools');
    const noH1 = parseHtml('<title>Daily Post | Storm closes schools across the county</title>');
    expect(findTitle(noH1, metaMap(noH1))).toBe('Storm closes schools across the county');
  });

  it('reads the author from JSON-LD before meta tags', () => {
    const root = parseHtml('<head><meta name="author" content="Desk"><script type="application/ld+json">'
      + '{"@graph":[{"@type":"NewsArticle","author":[{"@type":"Person","name":"Ana Ruiz"}]}]}</script></head>');
    expect(findAuthor(root, metaMap(root), jsonLd(root))).toBe('Ana Ruiz');
  });

  it('normalises ISO, Chinese and English dates', () => {
    expect(normalizeDate('2024-05-14 09:30')).toBe('2024-05-14T09:30');
    expect(normalizeDate('2012年1月9日 8:05')).toBe('2012-01-09T08:05:00');
    expect(normalizeDate('Nov 19, 2019')).toMatch(/^2019-11-1[89]T/);
    expect(normalizeDate('not a date')).toBeUndefined();
  });

  it('detects the language from the script of the text when <html lang> is missing', () => {
    const root = parseHtml('<body></body>');
    expect(findLang(root, '本报讯 市交管部门决定对长江大桥实施交通管制')).toBe('zh');
    expect(findLang(parseHtml('<html lang="de-DE"><body></body></html>'), 'Hallo Welt')).toBe('de');
  });

  it('recognises forum threads by engine markup or thread URL', () => {
    expect(looksLikeForum('<meta name="generator" content="Discuz! X3.4">')).toBe(true);
    expect(looksLikeForum('<html id="XF" lang="en">')).toBe(true);
    expect(looksLikeForum('<p>An article about forum software such as phpBB.</p>')).toBe(false);
    expect(looksLikeForum('<p></p>', 'https://example.com/threads/new-tank.123/')).toBe(true);
  });
});
