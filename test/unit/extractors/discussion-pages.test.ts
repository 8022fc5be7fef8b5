import { looksLikeForum } from '../../../src/extractors/page-kind';
import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of an old.reddit.com link post: a one-line submission, a side column of community
 * rules, then the comments, each with an upvote/downvote pair, a tagline and its text. No forum
 * engine names itself in the markup and the URL is no thread URL of one.
 */
function linkPost(comments: number): string {
  const comment = (i: number): string => `<div class=" thing id-t1_${i} comment " data-type="comment" data-author="user${i}">
    <div class="midcol unvoted"><div class="arrow up" data-event-action="upvote" aria-label="upvote"></div><div class="arrow down" data-event-action="downvote" aria-label="downvote"></div></div>
    <div class="entry unvoted"><p class="tagline"><a class="author" href="/user/user${i}">user${i}</a> <span class="score unvoted">${i} points</span></p>
    <form class="usertext"><div class="usertext-body"><div class="md"><p>Comment ${i}: hair cells of the inner ear are not hair, so this says little about tinnitus yet.</p></div></div></form>
    <ul class="flat-list buttons"><li><a href="/p/${i}">permalink</a></li><li><a href="#">reply</a></li></ul></div></div>`;
  const rules = Array.from({ length: 12 }, (_, i) => `<li>Rule ${i + 1}: no editorialized, sensationalized or biased titles, and no off-topic comments, memes or jokes.</li>`).join('');
  return `<html><head><title>Fully functional hair follicles grown in the lab : science</title></head><body>
    <div class="side"><div class="md"><h3>Submission rules</h3><ol>${rules}</ol></div></div>
    <div class="content" role="main"><div class="sitetable linklisting"><div class="thing link"><p class="title"><a href="https://example.org/study">Fully functional hair follicles grown in the lab</a></p>
    <p class="tagline">submitted by <a class="author" href="/user/op">op</a></p></div></div>
    <div class="commentarea"><div class="sitetable nestedlisting">${Array.from({ length: comments }, (_, i) => comment(i + 1)).join('')}</div></div></div>
    </body></html>`;
}

describe('discussion pages without a forum engine (page-kind.ts)', () => {
  it('reads a page with vote buttons on every comment as a thread', () => {
    expect(looksLikeForum(linkPost(25), 'https://old.reddit.com/r/science/x/fully_functional/')).toBe(true);
    // A handful of vote buttons (an article's comment widget) says nothing.
    expect(looksLikeForum(linkPost(3), 'https://example.org/2024/05/article')).toBe(false);
  });

  it('keeps the comments of such a page as its text, not the rules in its side column', () => {
    const page = extract(linkPost(25), { url: 'https://old.reddit.com/r/science/x/fully_functional/' });
    for (const i of [1, 12, 25]) expect(page.text).toContain(`Comment ${i}:`);
    expect(page.text).not.toContain('Rule 3:');
  });
});
