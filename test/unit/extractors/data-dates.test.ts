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
});
