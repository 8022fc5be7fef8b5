import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of an old-Reddit comment page: each comment a div.thing.comment whose tagline holds
 * the author's link and three score spans (`score dislikes`, `score unvoted`, `score likes`),
 * one per vote state, of which the style sheet shows the middle one.
 */
function oldRedditThread(): string {
  const comment = (i: number, name: string, score: number): string => `<div class="thing comment" id="thing_t1_${i}" data-author="${name}" data-type="comment">
    <div class="entry unvoted"><p class="tagline"><a href="javascript:void(0)" class="expand">[–]</a><a href="/user/${name}" class="author">${name}</a>
    <span class="score dislikes" title="${score - 1}">${score - 1} points</span><span class="score unvoted" title="${score}">${score} point${score === 1 ? '' : 's'}</span><span class="score likes" title="${score + 1}">${score + 1} points</span>
    <time datetime="2026-03-04T12:00:00+00:00">${i} hours ago</time></p>
    <form class="usertext"><div class="usertext-body"><div class="md"><p>Comment ${i}: growing the follicles is one thing, getting them to cycle like real hair for years is the hard part of this study.</p></div></div></form>
    <ul class="flat-list buttons"><li><a href="/permalink/${i}">permalink</a></li><li><a href="#">embed</a></li></ul></div></div>`;
  return `<html><head><title>Fully functional hair follicles have been grown : science</title></head><body>
    <div class="content" role="main"><div class="sitetable nestedlisting">${[comment(1, 'Ragnar_Dragonfyre', 189), comment(2, 'ripp667', 1), comment(3, 'Zissoo', 27), comment(4, 'surlier', 19)].join('')}</div></div>
    </body></html>`;
}

describe('vote states (vote-states.ts)', () => {
  it('reads a vote widget prerendered once per state as the count shown', () => {
    const text = extract(oldRedditThread(), { url: 'https://old.reddit.com/r/science/comments/1rku5x9/fully_functional/', forum: true }).text;
    expect(text).toContain('Ragnar_Dragonfyre 189 points');
    expect(text).toContain('ripp667 1 point');
    expect(text).not.toContain('188 points');
    expect(text).not.toContain('points190');
    expect(text).toContain('Comment 3:');
  });
});
