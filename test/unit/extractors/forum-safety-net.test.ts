import { extract } from '../../../src/extractors/text-density';

/**
 * A page a forum engine serves that is no thread (its board rules): the forum model finds no post
 * list, and the page's text must not come back empty where a paragraph container holds it.
 */
const rule = (i: number): string => `<p>Rule ${i}: members keep threads on topic, cite their sources, and report spam rather than answering it in the thread, so moderators can act on it.</p>`;
const rulesPage = `<html id="XF"><head><title>Board rules</title></head><body>
  <div class="p-nav"><ul><li><a href="/">Forums</a></li><li><a href="/whats-new">What's new</a></li><li><a href="/members">Members</a></li></ul></div>
  <div class="p-body"><h1>Board rules</h1><div class="block-body">${Array.from({ length: 6 }, (_, i) => rule(i + 1)).join('')}</div></div>
  <div class="p-footer"><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></div></body></html>`;

const post = (i: number, words: string): string => `<article class="message" data-author="user${i}"><div class="message-user"><a href="/members/user${i}">user${i}</a></div>
  <div class="message-main"><time>Mar ${i}, 2024 at 10:1${i} AM</time><div class="message-body"><div class="bbWrapper">${words}</div></div></div></article>`;

describe('forum safety net (text-density.ts)', () => {
  it('gives a forum page the paragraph container where the forum model found next to nothing', () => {
    // A line bar no line can reach stands in for the pages where every line falls below it.
    const page = extract(rulesPage, { url: 'https://forum.example.com/help/rules/', scoring: { threshold: 10_000 } });
    expect(page.text).toContain('Rule 1: members keep threads on topic');
    expect(page.text).toContain('Rule 6:');
    expect(page.text).not.toContain("What's new");
  });

  it('leaves a thread that reads well as it is: every post, not the one longest post', () => {
    const long = 'I measured the range on my board over a month, and the figures, taken on the same hill, in the same weather, came out lower than the seller claimed. '.repeat(6);
    const html = `<html id="XF"><head><title>Range</title></head><body><h1>What's your range?</h1><div class="block-body">
      ${post(1, long)}${post(2, 'About twelve miles for me on a full charge.')}${post(3, 'Closer to fifteen with the bigger battery pack.')}</div></body></html>`;
    const page = extract(html, { url: 'https://forum.example.com/threads/range.1/' });
    expect(page.text).toContain('I measured the range');
    expect(page.text).toContain('About twelve miles');
    expect(page.text).toContain('Closer to fifteen');
  });
});
