import { toBlocks } from '../../../src/extractors/blocks';
import { withCardModules } from '../../../src/extractors/card-modules';
import { parseHtml } from '../../../src/extractors/dom';
import { DEFAULT_SELECTION } from '../../../src/extractors/selection';

describe('a list of stories split over sibling modules (card-modules.ts)', () => {
  const card = (m: string, i: number, titled = true): string => `<div class="story-card"><h3>${titled ? `<a href="/${m}/${i}">` : ''}${m} story number ${i} about the city council budget${titled ? '</a>' : ''}</h3>
    <p class="teaser">The council met on Tuesday evening to vote on the budget for the coming year, story ${i} of ${m}.</p><p class="byline">Jane Doe, Mar ${i}</p></div>`;
  const module = (m: string, n: number, titled = true): string => `<section class="module"><h2>${m}</h2><div class="cards">${Array.from({ length: n }, (_, i) => card(m, i + 1, titled)).join('')}</div></section>`;
  /** The lines read when the line model chose the first module's cards. */
  const read = (html: string): string[] => {
    const blocks = toBlocks(parseHtml(html), true, false, true);
    const next = blocks.findIndex((b) => b.text === 'Latest');
    const chosen = blocks.slice(1, next);
    return withCardModules(blocks, chosen, DEFAULT_SELECTION).map((b) => b.text);
  };

  it('reads the cards of the same template in the other modules too', () => {
    const text = read(`<html><body>${module('Top', 4)}${module('Latest', 5)}</body></html>`);
    expect(text).toContain('Latest story number 5 about the city council budget');
    expect(text).toContain('The council met on Tuesday evening to vote on the budget for the coming year, story 3 of Latest.');
    expect(text).toContain('Top story number 1 about the city council budget');
  });

  it('leaves out boxes of the template that no link titles (sections of a text, not teasers)', () => {
    const text = read(`<html><body>${module('Top', 4)}${module('Latest', 5, false)}</body></html>`);
    expect(text.some((t) => t.includes('Latest'))).toBe(false);
  });
});
