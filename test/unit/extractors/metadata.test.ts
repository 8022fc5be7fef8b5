import { findAll, findFirst, parseHtml, type DomElement } from '../../../src/extractors/dom';
import { findAuthor, findTitle, jsonLd, metaMap } from '../../../src/extractors/metadata';
import { pageElements } from '../../../src/extractors/page-elements';
import { findLang, langOfScripts } from '../../../src/extractors/page-lang';
import { normalizeDate } from '../../../src/extractors/published';
import { looksLikeForum } from '../../../src/extractors/page-kind';

describe('page metadata', () => {
  it('takes the <h1> that agrees with <title>, else the longest part of <title>', () => {
    const withH1 = parseHtml('<title>Storm closes schools - Daily Post</title><body><h1>Menu</h1><h1>Storm closes schools</h1></body>');
    expect(findTitle(withH1, metaMap(withH1))).toBe('Storm closes schools');
    const noH1 = parseHtml('<title>Daily Post | Storm closes schools across the county</title>');
    expect(findTitle(noH1, metaMap(noH1))).toBe('Storm closes schools across the county');
  });

  it("skips an <h1> that is only the site's part of <title> when og:title is the page's own title", () => {
    // old.reddit.com: the community's name in an <h1> above the side column, the post's title in og:title.
    const root = parseHtml('<head><title>Hair follicles grown in the lab for the first time : science</title>'
      + '<meta property="og:title" content="Hair follicles grown in the lab for the first time"></head>'
      + '<body><div class="side"><h1 class="redditname"><a href="/r/science/">science</a></h1></div>'
      + '<p class="title"><a href="https://example.org/study">Hair follicles grown in the lab for the first time</a></p></body>');
    expect(findTitle(root, metaMap(root))).toBe('Hair follicles grown in the lab for the first time');
    // An <h1> that is the title's own part stays the title.
    const own = parseHtml('<head><title>Storm closes schools : Daily Post</title><meta property="og:title" content="Daily Post"></head><body><h1>Storm closes schools</h1></body>');
    expect(findTitle(own, metaMap(own))).toBe('Storm closes schools');
  });

  it('reads the author from JSON-LD before meta tags', () => {
    const root = parseHtml('<head><meta name="author" content="Desk"><script type="application/ld+json">'
      + '{"@graph":[{"@type":"NewsArticle","author":[{"@type":"Person","name":"Ana Ruiz"}]}]}</script></head>');
    expect(findAuthor(root, metaMap(root), jsonLd(root))).toBe('Ana Ruiz');
  });

  it('takes no sentence, count or bare reporter\'s role for the author: the next source that names a person speaks', () => {
    const author = (head: string, body = ''): string | undefined => {
      const root = parseHtml(`<head>${head}</head><body>${body}</body>`);
      return findAuthor(root, metaMap(root), jsonLd(root));
    };
    expect(author('<meta name="author" content="2804">')).toBeUndefined();
    expect(author('<meta name="author" content="实习记者">', '<span itemprop="author">李楠</span>')).toBe('李楠');
    expect(author('<meta name="author" content="财讯网_提供股票、基金、期货与外汇市场的金融资讯，以及个人理财咨询等服务">')).toBeUndefined();
    // A note in brackets after the name is no sentence of its own.
    expect(author('<meta name="author" content="Steed(微博)(天文爱好者，频道主编)">')).toBe('Steed(微博)(天文爱好者，频道主编)');
  });

  it("drops a Chinese credit's role label and a stray closing bracket from the name, and takes no line holding a date for one", () => {
    const author = (head: string, body = ''): string | undefined => {
      const root = parseHtml(`<head>${head}</head><body>${body}</body>`);
      return findAuthor(root, metaMap(root), jsonLd(root));
    };
    // DAnIEL pages: an editor's credit in the author slot, a reporter's role glued to the name, a template's bracket.
    expect(author('<meta name="author" content="网络编辑:贺燕">')).toBe('贺燕');
    expect(author('<meta name="author" content="责任编辑：易清">')).toBe('易清');
    expect(author('<meta name="author" content="記者汪萬里">')).toBe('汪萬里');
    expect(author('<meta name="author" content="范思鼎]">')).toBe('范思鼎');
    expect(author('<meta name="author" content="[范思鼎]">')).toBe('[范思鼎]');
    expect(author('<meta name="author" content="Page published at 2012-01-12 16:56:29 by loyaa system v4.0">')).toBeUndefined();
    // A name that only starts like a role is kept whole.
    expect(author('<meta name="author" content="Editha Ruiz">')).toBe('Editha Ruiz');
  });

  it('normalises ISO, Chinese and English dates', () => {
    expect(normalizeDate('2024-05-14 09:30')).toBe('2024-05-14T09:30');
    expect(normalizeDate('2012年1月9日 8:05')).toBe('2012-01-09T08:05:00');
    expect(normalizeDate('Nov 19, 2019')).toBe('2019-11-19');
    expect(normalizeDate('not a date')).toBeUndefined();
  });

  it('detects the language from the script of the text when <html lang> is missing', () => {
    const root = parseHtml('<body></body>');
    expect(findLang(root, '本报讯 市交管部门决定对长江大桥实施交通管制')).toBe('zh');
    expect(findLang(parseHtml('<html lang="de-DE"><body></body></html>'), 'Hallo Welt')).toBe('de');
  });

  it('reads the language from the same script counts as the regex definition, on random mixes of scripts', () => {
    // The definition findLang's counting loop replaces: a regex match per script.
    const reference = (declared: string | undefined, text: string): string => {
      const sample = text.slice(0, 2000);
      const count = (re: RegExp) => sample.match(re)?.length ?? 0;
      return langOfScripts({
        han: count(/[\u4e00-\u9fff]/g), kana: count(/[\u3040-\u30ff]/g), hangul: count(/[\uac00-\ud7af]/g),
        cyr: count(/[\u0400-\u04ff]/g), letters: count(/\p{L}/gu),
      }, declared);
    };
    const pieces = ['中文', '，', 'かな', 'カナ', '한국', 'Кир', 'abc', ' ', '1', '😀', '𠀀', '\ud800', '\udc00', 'é', '・', 'ー', '\u9fff', '\u4e00'];
    let seed = 11;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      for (let k = next() % 12; k > 0; k--) text += pieces[next() % pieces.length]!.repeat(1 + (next() % 4));
      if (n % 50 === 0) text = text.repeat(300); // past the 2,000-unit sample, cut inside pairs
      const lang = ['', ' lang="uk"', ' lang="de-DE"'][n % 3]!;
      const root = parseHtml(`<html${lang}><body></body></html>`);
      const declared = lang ? lang.slice(7, 9) : undefined;
      expect([text, findLang(root, text)]).toEqual([text, reference(declared, text)]);
    }
  });

  it('finds in one walk the elements the per-reader searches find', () => {
    const root = parseHtml('<!doctype html><html lang="en"><head><title>T</title><meta name="a" content="1">'
      + '<script type="application/ld+json">{}</script><script>x</script></head><body><svg><title>icon</title></svg>'
      + '<div><h1>One</h1><p><span itemprop="author">Ann</span><a rel="author">Bob</a></p><time>now</time>'
      + '<section><meta property="og:title" content="2"><h1>Two</h1><time datetime="2024-01-02">Jan 2</time>'
      + '<script type="application/ld+json">[]</script></section></div><body><p>late</p></body></body></html>');
    const els = pageElements(root);
    const first = (pred: (el: DomElement) => boolean): DomElement | undefined => findFirst(root, pred);
    expect(els.html).toBe(first((el) => el.name === 'html'));
    expect(els.body).toBe(first((el) => el.name === 'body'));
    expect(els.title).toBe(first((el) => el.name === 'title'));
    expect(els.time).toBe(first((el) => el.name === 'time' && el.attribs.datetime !== undefined));
    expect(els.time?.attribs.datetime).toBe('2024-01-02');
    expect(els.author).toBe(first((el) => el.attribs.rel === 'author' || el.attribs.itemprop === 'author'));
    expect(els.author?.name).toBe('span');
    expect(els.metas).toEqual(findAll(root, (el) => el.name === 'meta'));
    expect(els.metas).toHaveLength(2);
    expect(els.h1s).toEqual(findAll(root, (el) => el.name === 'h1'));
    expect(els.ldScripts).toEqual(findAll(root, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json'));
    expect(els.ldScripts).toHaveLength(2);
    expect(findTitle(els, metaMap(els))).toBe(findTitle(root, metaMap(root)));
  });

  it('recognises forum threads by engine markup or thread URL', () => {
    expect(looksLikeForum('<meta name="generator" content="Discuz! X3.4">')).toBe(true);
    expect(looksLikeForum('<html id="XF" lang="en">')).toBe(true);
    expect(looksLikeForum('<p>An article about forum software such as phpBB.</p>')).toBe(false);
    expect(looksLikeForum('<p></p>', 'https://example.com/threads/new-tank.123/')).toBe(true);
  });
});

describe('authors in the less common meta names', () => {
  const author = (head: string): string | undefined => {
    const root = parseHtml(`<html><head><title>Night trains return</title>${head}</head><body><h1>Night trains return</h1></body></html>`);
    return findAuthor(root, metaMap(root), jsonLd(root));
  };

  it.each(['og:author', 'article_author', 'article-author', 'author.name'])('reads <meta %s>', (key) => {
    expect(author(`<meta name="${key}" content="Ana Ruiz">`)).toBe('Ana Ruiz');
  });

  it('does not take Drupal\'s dcterms.creator, the account that saved the node', () => {
    expect(author('<meta name="dcterms.creator" content="veena">')).toBeUndefined();
  });
});
