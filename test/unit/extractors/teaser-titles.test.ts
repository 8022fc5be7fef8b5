import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a blog's index (stackoverflow.blog): each card a date, its title a heading inside
 * a link, its abstract a plain paragraph. The abstracts score as text; the linked titles, alone,
 * would be dropped as navigation.
 */
const card = (i: number): string => `<article class="post-card"><time>March ${i}, 2026</time>
  <a href="/2026/03/0${i}/post-${i}/" class="fc-white"><h2 class="fs-headline2" itemprop="name">Headline of post ${i} on robots</h2></a>
  <p class="fc-black-200 fs-body2" itemprop="abstract">Abstract ${i}: the CTO of a robotics company chats about self-driving machines, and why simulation becomes essential for training them at scale.</p></article>`;

function blogIndex(): string {
  const menu = '<ul class="menu">' + ['Home', 'Podcast', 'Newsletter', 'Sign in'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('') + '</ul>';
  return `<html><head><title>The Example Blog</title></head><body>${menu}<main><h1>Latest articles</h1>
    <div class="posts">${Array.from({ length: 6 }, (_, i) => card(i + 1)).join('')}</div></main>
    <div class="site-footer"><a href="/about">About</a> <a href="/legal">Legal</a></div></body></html>`;
}

describe('titles of teaser cards (teaser-titles.ts)', () => {
  it('keeps the linked heading before each kept abstract, not the menu', () => {
    const page = extract(blogIndex(), { url: 'https://blog.example.com/' });
    for (let i = 1; i <= 6; i++) {
      expect(page.text).toContain(`Abstract ${i}:`);
      expect(page.text).toContain(`Headline of post ${i} on robots`);
    }
    expect(page.text).not.toContain('Sign in');
  });
});
