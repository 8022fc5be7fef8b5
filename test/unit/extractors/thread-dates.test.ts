import { extract } from '../../../src/extractors/text-density';

/**
 * Shapes of real pages (WCXB dev, tune part): a forum engine's thread whose header shows when the
 * thread was last posted to, and a first post whose `<time>` text the server rendered in UTC.
 */
const post = '<p>My old projector finally died last week and I am looking for a replacement that handles a dark room and a long throw distance well.</p>'.repeat(3);

function thread(lastPost: string, firstPost: string): string {
  return `<html lang="en"><head><title>Replacement projector recommendations</title></head><body>
    <h1>Replacement projector recommendations</h1>
    <div class="thread-meta"><span>last post by&nbsp;<a href="/members/ggery.1/">ggery</a> ${lastPost}</span></div>
    <article class="message"><div class="user">JosephF</div><div class="attribution">#1 · ${firstPost}</div>${post}</article>
  </body></html>`;
}

describe('published_at of a thread without metadata', () => {
  it('takes the first post\'s date over the "last post by" date of the thread header', () => {
    const page = extract(thread('<time datetime="2024-09-26T01:50:27-0400">Sep 26, 2024</time>', '<time datetime="2024-01-03T11:23:42-0500">Jan 3, 2024</time>'));
    expect(page.published_at?.slice(0, 10)).toBe('2024-01-03');
  });

  it('reads the day a <time> states on the site\'s clock where its text shows the day after (rendered in UTC)', () => {
    const page = extract(thread('<time datetime="2024-01-18T13:35:10-0500">Jan 18, 2024</time>', '<time datetime="2024-01-14T21:50:50-0500">Jan 15, 2024</time>'));
    expect(page.published_at?.slice(0, 10)).toBe('2024-01-14');
  });

  it('keeps the text\'s day where the <time> is written in UTC: the text is on the site\'s clock', () => {
    const page = extract(thread('<time datetime="2024-04-20T02:00:00Z">Apr 20, 2024</time>', '<time datetime="2024-04-17T21:13:04Z">Apr 18, 2024</time>'));
    expect(page.published_at?.slice(0, 10)).toBe('2024-04-18');
  });
});

describe('published_at from a relative time whose tooltip keeps the moment', () => {
  it('reads the first ISO timestamp a tooltip holds, where the script shows "2 days ago" and no metadata dates the thread', () => {
    const html = `<html lang="en"><head><title>Display a saved route</title></head><body><h1>Display a saved route</h1>
      <div class="x1"><a href="/user/luizjr4">luizjr4</a> wrote <span class="x2" title="2026-01-13T00:29:24.807Z"></span></div>${post}
      <div class="x1"><a href="/user/ivo">ivo</a> wrote <span class="x2" title="2026-01-14T08:00:18.032Z"></span></div>${post}</body></html>`;
    expect(extract(html, { url: 'https://community.example.com/topic/43227/display-a-saved-route' }).published_at?.slice(0, 10)).toBe('2026-01-13');
  });
});
