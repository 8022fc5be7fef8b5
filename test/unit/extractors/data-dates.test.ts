import { ambiguousDay, dataObjectDates } from '../../../src/extractors/dates';
import { extract } from '../../../src/extractors/text-density';

const body = '<h1>Creating a cost model for legal work</h1>'
  + '<p>Legal departments are asked to show what every matter costs, and a cost model makes that possible for the first time in many firms.</p>'
  + '<p>Start from the matters you handled last year, group them by type, and note the hours and fees each type took on average.</p>';

describe('publication dates outside the metadata', () => {
  it('reads datePublished from a script data object that is not JSON-LD', () => {
    const html = `<html><head><title>Cost model</title><script>window.dataLayer=[{"pageType":"article","createDate":"2019-09-12","publishDate":"2025-05-27","documentAge":"2290"}];</script></head><body>${body}</body></html>`;
    expect(extract(html).published_at).toBe('2025-05-27');
  });

  it('reads HTML-escaped JSON kept in an attribute', () => {
    expect(dataObjectDates('<div data-props="{&quot;dateModified&quot;:&quot;2025-11-17T09:00:00-05:00&quot;,&quot;datePublished&quot;:&quot;2025-11-16T09:00:00-05:00&quot;}">'))
      .toEqual(['2025-11-16T09:00:00-05:00']);
  });

  it('reads a malformed JSON-LD block by its datePublished', () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting","text":"line one\n\tline two","datePublished": "2024-02-21 13:00:00"}</script></head><body>${body}</body></html>`;
    expect(extract(html).published_at?.slice(0, 10)).toBe('2024-02-21');
  });

  it("takes a site's own meta date name and leaves its modified date to modified_at", () => {
    const html = `<html><head><meta name="w-published-date" content="2025-05-27T06:03:43Z"><meta name="w-modified-date" content="2025-06-01T00:00:00Z"></head><body>${body}</body></html>`;
    expect(extract(html).published_at?.slice(0, 10)).toBe('2025-05-27');
  });

  it('falls back to the modification date of a page that states no other', () => {
    const html = `<html><head><meta property="article:modified_time" content="2023-03-22T17:52:04+00:00"></head><body>${body}</body></html>`;
    const page = extract(html);
    expect(page.published_at?.slice(0, 10)).toBe('2023-03-22');
    expect(page.modified_at?.slice(0, 10)).toBe('2023-03-22');
  });

  it('reads an ambiguous numeric <time datetime> the way another <time> of the page states it', () => {
    const html = `<html><head><title>Reflections</title></head><body><article><h1>Reflections on building a pixel-perfect UI</h1><time datetime="02-12-2025">02-12-2025</time>${body}</article>`
      + '<aside><h2>Archive</h2><ul><li><time datetime="2025-12-02">December 02, 2025</time> Reflections</li><li><time datetime="2024-12-11">December 11, 2024</time> Older post</li></ul></aside></body></html>';
    expect(extract(html).published_at?.slice(0, 10)).toBe('2025-12-02');
  });

  it('gives both readings of an ambiguous numeric date and none of an unambiguous one', () => {
    expect(ambiguousDay('02-12-2025')).toEqual(['2025-02-12', '2025-12-02']);
    expect(ambiguousDay('25-12-2025')).toBeUndefined();
    expect(ambiguousDay('2025-12-02')).toBeUndefined();
  });

  it("reads a post element's creation-time attribute (a custom element that renders its post client-side)", () => {
    const html = `<html lang="en-US"><head><title>Best laptop for college to buy in 2026 : r/BuyItForLife</title></head><body>
      <shreddit-post comment-count="16" created-timestamp="2026-03-03T09:47:05.754000+0000" post-title="Best laptop for college to buy in 2026"><h1 slot="title">Best laptop for college to buy in 2026</h1>
      <faceplate-timeago ts="2026-03-03T09:47:05.754000+0000" format="narrow"></faceplate-timeago>${body}</shreddit-post></body></html>`;
    expect(extract(html).published_at?.slice(0, 10)).toBe('2026-03-03');
    expect(dataObjectDates('<article data-published-at="2025-11-26 18:00:04 +0800">')).toEqual(['2025-11-26T18:00:04']);
  });

  it('takes a "Last updated" line at the foot of a page that states no other date as its publication date as well', () => {
    const html = `<html lang="en"><head><title>Webcams - Yosemite National Park</title></head><body><h1>Webcams</h1>${body.repeat(12)}
      <div class="row"><p style="text-align:right;">Last updated: November 13, 2025</p></div><footer><p>National Park Service</p></footer></body></html>`;
    const page = extract(html);
    expect(page.published_at).toBe('2025-11-13');
    expect(page.modified_at).toBe('2025-11-13');
  });

  it("reads the dateline of an element named for the date where the line cutting leaves it out (an article's own <footer>)", () => {
    const html = `<html lang="en"><head><title>Remote work: 5 tips to maximize productivity</title></head><body><main>
      <h1 class="published page-title"><span>Remote work: 5 tips to maximize productivity</span></h1>
      <article class="node node--type-article"><footer class="author__meta"><div class="author__list">By <a href="/user/tariqul-ayan">Tariqul Ayan</a></div>
      <span class="author__meta-date">March 30, 2023 <span class="author__date-pipe">|</span></span></footer>
      <div id="article_content">${body.repeat(12)}</div></article>
      <div class="comments"><span class="comment-date">April 2, 2023</span></div></main></body></html>`;
    expect(extract(html).published_at).toBe('2023-03-30');
    // Not an "Updated" element: that dates the last change.
    expect(extract(html.replace('March 30, 2023', 'Last updated March 30, 2023')).published_at).toBeUndefined();
  });
});
