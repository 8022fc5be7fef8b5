import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml, type DomElement } from '../../../src/extractors/dom';
import { DEFAULT_SELECTION, FORUM_SELECTION, keepLine } from '../../../src/extractors/selection';
import { extract } from '../../../src/extractors/text-density';

/** Whether keepLine keeps the one line of a paragraph inside its article. */
function kept(paragraph: string, forum = false): boolean {
  const root = parseHtml(`<article>${paragraph}</article>`);
  const [line] = toBlocks(root);
  const article = root.children[0] as DomElement;
  return keepLine(line!, article, false, { ...DEFAULT_SELECTION, ...(forum ? FORUM_SELECTION : {}) }, new Map());
}

describe('a sentence whose words are mostly links (selection.ts)', () => {
  const pointer = '<p>Read <a href="/learn/updating-objects-in-state">updating objects in state</a> and <a href="/learn/updating-arrays-in-state">updating arrays in state</a> to learn more.</p>';

  it('keeps it: a pointer the text makes in its own words', () => {
    expect(kept(pointer)).toBe(true);
  });

  it('drops a row of linked headlines run together, a link list and a breadcrumb', () => {
    const headlines = '<p>Kristi Lynn Noem<a href="/a">South Dakota governor doubles down on its anti-drug campaign</a>'
      + '<a href="/b">South Dakota drops pipeline protest laws after lawsuit over free speech</a>'
      + '<a href="/c">New South Dakota law requiring a motto sign to hang in every public school.</a></p>';
    expect(kept(headlines)).toBe(false);
    expect(kept('<p><a href="/1">Pricing</a> <a href="/2">Documentation</a> <a href="/3">Customer stories</a> <a href="/4">Careers</a></p>')).toBe(false);
  });

  it('leaves it out on forum threads (a reply quoting a post elsewhere)', () => {
    expect(kept(pointer, true)).toBe(false);
  });

  it('keeps the pointer at the end of a documentation section in the text', () => {
    const para = (i: number): string => `<p>Paragraph ${i}: state updates are queued, and React renders the component again with the next state once the event handler has finished running.</p>`;
    const html = `<html><head><title>useState</title></head><body><nav><a href="/">Home</a> <a href="/learn">Learn</a></nav>
      <article><h1>useState</h1>${[1, 2, 3].map(para).join('')}${pointer}${[4, 5, 6].map(para).join('')}</article></body></html>`;
    expect(extract(html).text).toContain('Read updating objects in state and updating arrays in state to learn more.');
  });
});

describe('a labelled fact in a list of facts (selection.ts)', () => {
  const facts = (first: string, others: string[]): string => `<ul class="stats"><li><strong>${first}</strong></li>${others.map((o) => `<li><strong>${o}</strong></li>`).join('')}</ul>`;
  /** Whether the list's first line stays. */
  const keepsFirst = (html: string): boolean => {
    const root = parseHtml(`<article>${html}</article>`);
    const [line] = toBlocks(root);
    return keepLine(line!, root.children[0] as DomElement, false, DEFAULT_SELECTION, new Map());
  };

  it('keeps "Location:" beside plain facts of a record (a school ranking\'s stats)', () => {
    expect(keepsFirst(facts('Location: Boston, Massachusetts', ['Median GMAT: 740', 'Average GPA: 3.69', 'Class Size: 930']))).toBe(true);
  });

  it('still drops it in a forum poster box, whose other facts are furniture too', () => {
    expect(keepsFirst(facts('Location: Boston, Massachusetts', ['Join Date: Mar 2011', 'Posts: 1,204']))).toBe(false);
    expect(keepsFirst('<p>Location: Boston, Massachusetts</p>')).toBe(false);
  });
});
