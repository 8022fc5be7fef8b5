import { extract } from '../../../src/extractors/text-density';

const para = (i: number): string => `<p>Paragraph ${i}: the rankings weigh peer assessment, recruiter opinion, placement success and student selectivity, and this year's list holds few surprises.</p>`;

describe('titles of link lists (list-titles.ts)', () => {
  it('leaves out the heading of a table of contents whose links the selection left out, and keeps a heading over text', () => {
    const toc = `<div class="toc-box"><h2>Table of Contents</h2><ul>${[1, 2, 3, 4].map((i) => `<li><a href="#s${i}">Section ${i} of the guide</a></li>`).join('')}</ul></div>`;
    const page = extract(`<html><head><title>MBA rankings</title></head><body><nav><a href="/">Home</a></nav><article><h1>MBA rankings</h1>
      ${toc}<h2>How the list is made</h2>${[1, 2, 3, 4, 5, 6].map(para).join('')}</article></body></html>`);
    expect(page.text).toContain('Paragraph 6:');
    expect(page.paragraphs).toContain('How the list is made');
    expect(page.paragraphs).not.toContain('Table of Contents');
    expect(page.text).not.toContain('Section 1 of the guide');
  });
});
