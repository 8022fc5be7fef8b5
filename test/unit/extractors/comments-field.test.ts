import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';

describe('a "Comments:" field of a listed record (clean.ts isCommentsField)', () => {
  const inComments = (html: string, text: string): boolean | undefined => toBlocks(parseHtml(html)).find((b) => b.text.startsWith(text))?.inComments;

  it('is no comment area: a paper index notes pages and figures in a div named for the label', () => {
    const record = (i: number): string => `<dd><div class="list-title">Title: Agents number ${i}</div><div class="list-authors"><a href="/a/${i}">Jane Doe</a></div>
      <div class="list-comments"><span class="descriptor">Comments:</span> 35 pages, 4 figures</div><div class="list-subjects">Subjects: Artificial Intelligence (cs.AI)</div></dd>`;
    const html = `<html><body><dl>${record(1)}${record(2)}</dl></body></html>`;
    expect(inComments(html, 'Comments: 35 pages')).toBe(false);
  });

  it('leaves readers\' comments as they are, labelled or not', () => {
    expect(inComments('<html><body><div class="comments"><p>Comments: this is the best guide I have read</p><p>Thanks!</p></div></body></html>', 'Comments: this')).toBe(true);
    expect(inComments('<html><body><div class="comment">Great post, I tried it at home and it worked.</div></body></html>', 'Great post')).toBe(true);
  });
});
