import { parseHtml, findAll, textContent } from '../../../src/extractors/dom';
import { dataObjectDates } from '../../../src/extractors/dates';
import { stripHeavyMarkup } from '../../../src/extractors/heavy-markup';
import { extract } from '../../../src/extractors/text-density';

const ARTICLE = '<main><article><h1>The weir</h1><p>The water at the weir rose forty centimetres overnight, and the keepers opened the third gate before dawn.</p><p>Residents downstream were told to move their cars away from the towpath.</p></article></main>';

describe('stripHeavyMarkup', () => {
  it('empties scripts, styles, svg, templates and drops comments, keeping the tags', () => {
    const html = '<html><head><script src="a.js">var a = "<p>not text</p>";</script><style>p { color: red }</style></head>'
      + '<body><!-- note --><p>hi</p><svg viewBox="0 0 1 1"><g><svg/></g><path d="M0 0Z"/><title>icon</title></svg><p>after</p>'
      + '<template><template>x</template>y</template></body></html>';
    expect(stripHeavyMarkup(html)).toBe('<html><head><script src="a.js"></script><style></style></head>'
      + '<body><!----><p>hi</p><svg viewBox="0 0 1 1"></svg><p>after</p><template></template></body></html>');
  });

  it('keeps ld+json scripts whole, even when they hold markup', () => {
    const ld = '<script type="application/ld+json">{"headline":"<svg>","datePublished":"2024-03-01"}</script>';
    expect(stripHeavyMarkup(`<head>${ld}<script>x()</script></head>`)).toBe(`<head>${ld}<script></script></head>`);
  });

  it('reads elements as htmlparser2 does: raw text, quoted `>`, case, false closes', () => {
    expect(stripHeavyMarkup('<textarea><script>z</script></textarea><p title=">"><SCRIPT>x</SCRIPT ><b>ok</b>'))
      .toBe('<textarea><script>z</script></textarea><p title=">"><SCRIPT></SCRIPT ><b>ok</b>');
    expect(stripHeavyMarkup('<script>a</scriptx>b</script>c')).toBe('<script></script>c');
    expect(stripHeavyMarkup('<svg><script>"</svg>"</script><path/></svg><p>x</p>')).toBe('<svg></svg><p>x</p>');
  });

  it('leaves the rest of the page as it is where an element or comment does not end', () => {
    expect(stripHeavyMarkup('<p>a</p><svg><path/><p>rest</p>')).toBe('<p>a</p><svg><path/><p>rest</p>');
    expect(stripHeavyMarkup('<script>x</script><p>a</p><!-- open')).toBe('<script></script><p>a</p><!-- open');
    expect(stripHeavyMarkup('<p>plain</p>')).toBe('<p>plain</p>');
  });

  it('keeps what begins before `from` whole, and short comments as they are', () => {
    const html = '<script>a</script><!-- one --><script>b</script><!----><style>c</style>';
    expect(stripHeavyMarkup(html, { from: 18 })).toBe('<script>a</script><!----><script></script><!----><style></style>');
    expect(stripHeavyMarkup(html, { from: 19 })).toBe('<script>a</script><!-- one --><script></script><!----><style></style>');
  });

  it('reads the ld+json type as htmlparser2 does, character references decoded', () => {
    const ld = '<script type="application/ld&#x2B;json">{"author":"Ana"}</script>';
    expect(stripHeavyMarkup(ld)).toBe(ld);
  });

  it('keeps the first data-object publication date of what it removes, in place (dates.ts reads it from the raw page)', () => {
    const html = '<script>window.s={"x":1,"publishDate":"2025-05-27 13:00:00","publishedAt":"2025-05-28"}</script>'
      + '<svg><desc>datePublished: \'2024-02-21\'</desc></svg><!-- &quot;first_published_at&quot;:&quot;2023-01-02&quot; --><style>a{}</style>';
    const out = stripHeavyMarkup(html);
    expect(out).toBe('<script>"datePublished":"2025-05-27T13:00:00"</script><svg><!--"datePublished":"2024-02-21"--></svg>'
      + '<!--"datePublished":"2023-01-02"--><style></style>');
    expect(dataObjectDates(out)).toEqual(dataObjectDates(html).map((d) => d).filter((d) => d !== '2025-05-28'));
  });

  it('keeps the element names it is told to keep', () => {
    expect(stripHeavyMarkup('<script>x</script><svg><path/></svg>', { keep: new Set(['script']) })).toBe('<script>x</script><svg></svg>');
  });

  it('changes neither the text nor the metadata extracted from an article page', () => {
    const html = '<html lang="en"><head><title>The weir</title><meta name="author" content="Ana Ruiz">'
      + '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-03-01T08:00:00Z","author":{"name":"Ana Ruiz"}}</script>'
      + `<script>window.__STATE__ = ${JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, html: '<p>item</p>' })) })}</script>`
      + '<style>.a { display: none }</style></head><body><!-- nav --><svg><path d="M0 0Z"/></svg>'
      + `${ARTICLE}<noscript><p>Enable scripts</p></noscript></body></html>`;
    const stripped = stripHeavyMarkup(html);
    expect(stripped.length).toBeLessThan(html.length / 2);
    const a = extract(html, { url: 'https://example.org/a' });
    const b = extract(stripped, { url: 'https://example.org/a' });
    expect(b).toEqual(a);
    expect(b.text).toContain('third gate');
    expect(b.published_at).toBe('2024-03-01T08:00:00Z');
    expect(findAll(parseHtml(stripped), (el) => el.name === 'noscript').map(textContent)).toEqual(['Enable scripts']);
  });

  it('takes linear time on a 10 MB page of the heavy shapes', () => {
    const parts: string[] = ['<html><body><script type="application/json">['];
    for (let k = 0; k < 8_000; k++) parts.push(`{"id":${k},"s":"</scr"},`);
    parts.push('0]</script><svg>');
    for (let k = 0; k < 8_000; k++) parts.push(`<path id="i${k}" d="M${k} 0L1 1Z"/><!-- ${k} -->`);
    parts.push('</svg><table>');
    for (let k = 0; k < 8_000; k++) parts.push(`<tr><td><a href="/t/${k}">${k}</a></td></tr><style>.x${k}{}</style>`);
    parts.push(`</table>${ARTICLE}</body></html>`);
    const small = parts.join('');
    const big = small.repeat(Math.ceil(10e6 / small.length));
    expect(big.length).toBeGreaterThan(10e6);
    const time = (s: string): number => {
      const t0 = performance.now();
      stripHeavyMarkup(s);
      return performance.now() - t0;
    };
    time(small);
    // The fastest of three runs of each: a loaded machine only ever adds time.
    const perCharSmall = Math.min(time(small), time(small), time(small)) / small.length;
    const perCharBig = Math.min(time(big), time(big), time(big)) / big.length;
    // Linear: a page ~10× longer costs about the same per character; quadratic would cost ~10× as
    // much per character (4× is a generous margin for a shared machine).
    expect(big.length / small.length).toBeGreaterThan(8);
    expect(perCharBig).toBeLessThan(perCharSmall * 4);
    const out = stripHeavyMarkup(big);
    expect(out.length).toBeLessThan(big.length / 2);
    expect(out).toContain('third gate');
  });
});
