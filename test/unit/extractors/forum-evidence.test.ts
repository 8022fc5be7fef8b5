import { forumEvidence } from '../../../src/extractors/page-kind';
import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a magazine's "forum" page (finewoodworking.com/forum/…): a question laid out as an
 * article (h1, byline, div#article-body) and the answers in a blog's comment widget
 * (div.comments > ol.comments__list > li.comments__list-item). No forum engine names itself.
 */
function questionPage(engineMarkup: boolean): string {
  const reply = (i: number): string => `<li class="comments__list-item" id="comment-${i}">
    <div class="comments__list-item__copy"><span class="comments__list-item__comment-info"><a class="author" href="/profile/u${i}">user${i}</a>
    <time class="comments__date">Feb 24, 2006 0${i % 10}:35am</time></span>
    <div class="comments__list-item__text"><p>Reply ${i}: I started with a small bookcase and a borrowed router, then built a workbench the next winter from construction lumber.</p>
    <p>Pick something you would really like to have and give it a shot, the mistakes teach you the most.</p></div></div></li>`;
  return `<html><head><title>Beginning woodworking</title>${engineMarkup ? '<meta name="generator" content="XenForo 2.2">' : ''}</head><body>
    <nav><a href="/">Home</a> <a href="/forum">Forum</a> <a href="/magazine">Magazine</a></nav>
    <main><div class="question"><h1 class="question__title">Beginning woodworking</h1>
    <div class="question__info"><a class="author" href="/profile/Fitzg">Fitzg</a> | Posted in General Discussion on <time>February 24, 2006 02:01am</time></div>
    <div class="question__body" id="article-body"><p>I'm interested to know how people get into woodworking as a hobby. I have done a lot of home improvement work such as crown molding and building a deck, so I have some tools.</p>
    <p>What got you started as a woodworker? Any advice you could share about how you got started would be appreciated. Also, what is a good first project?</p></div></div>
    <div class="comments question__replies"><h3 class="comments__heading">Replies</h3><ol class="comments__list">${Array.from({ length: 12 }, (_, i) => reply(i + 1)).join('')}</ol></div></main>
    </body></html>`;
}

const URL = 'https://www.example-magazine.com/forum/beginning-woodworking';

describe('forum by URL alone (page-kind.ts, content.ts)', () => {
  it('tells markup evidence from a URL alone', () => {
    expect(forumEvidence(questionPage(false), URL)).toBe('url');
    expect(forumEvidence(questionPage(true), URL)).toBe('markup');
    expect(forumEvidence(questionPage(false), 'https://www.example-magazine.com/2006/02/beginning-woodworking')).toBeUndefined();
  });

  it('reads a question whose answers are a comment widget as an article: the question, not the comments', () => {
    const page = extract(questionPage(false), { url: URL });
    expect(page.text).toContain("I'm interested to know how people get into woodworking");
    expect(page.text).toContain('what is a good first project?');
    expect(page.text).not.toContain('Reply 3:');
  });

  it('finds the comment widget by its shape where no class word names it (hashed classes)', () => {
    // Every class and id replaced by an opaque token, as a build step that hashes them does.
    const hashed = questionPage(false).replace(/\s(class|id)="([^"]*)"/g, (_m, attr: string, v: string) =>
      ` ${attr}="${v.split(/\s+/).map((w) => `x${Buffer.from(w).toString('hex').slice(-8)}`).join(' ')}"`);
    expect(hashed).not.toContain('comments');
    const page = extract(hashed, { url: URL });
    expect(page.text).toContain("I'm interested to know how people get into woodworking");
    expect(page.text).toContain('what is a good first project?');
    expect(page.text).not.toContain('Reply 3:');
  });

  it('keeps every reply where a forum engine marks the page', () => {
    const page = extract(questionPage(true), { url: URL });
    expect(page.text).toContain("I'm interested to know how people get into woodworking");
    for (const i of [1, 6, 12]) expect(page.text).toContain(`Reply ${i}:`);
  });
});
