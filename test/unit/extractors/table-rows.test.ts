import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { withWholeTables } from '../../../src/extractors/table-rows';

// A toolkit's product page (as an accordion of description and specifications): scoring took the
// description and the table's first row, then ran out where the short cells sum below zero.
const page = `<div class="prose"><p>Our most economical do-everything toolkit. The Essential Electronics Toolkit is what you need for the most essential electronics repairs.</p></div>
<h3><button>Specifications</button></h3><div><table class="specifications"><tbody>
<tr><th>Driver Material</th><td>Polymer</td></tr><tr><th>Foam</th><td>EVA</td></tr><tr><th>Bit Metal</th><td>S2 Steel</td></tr>
<tr><th>Case Material</th><td>ABS</td></tr><tr><th>iFixit Part Number</th><td>IF145-348-5</td></tr>
<tr><th>Manual</th><td><a href="/guide/toolkit-manual-download">Download the toolkit manual</a></td></tr></tbody></table></div>
<div class="grid"><p>Flathead</p><p>Pentalobe</p></div>`;

describe('withWholeTables: a table the content enters is read whole', () => {
  const blocks = toBlocks(parseHtml(page));
  const at = (s: string): number => blocks.findIndex((b) => b.text === s);

  it('takes back the rows of a specifications table cut after its first row', () => {
    const chosen = blocks.slice(0, at('Polymer') + 1);
    const text = withWholeTables(blocks, chosen).map((b) => b.text);
    expect(text).toEqual(expect.arrayContaining(['Foam', 'EVA', 'Case Material', 'ABS', 'IF145-348-5']));
    // Lines stay in page order; a link cell and what follows the table stay out.
    expect(text.indexOf('Foam')).toBeLessThan(text.indexOf('ABS'));
    expect(text).not.toContain('Download the toolkit manual');
    expect(text).not.toContain('Flathead');
  });

  it('leaves a layout table alone: its short cells are a breadcrumb and a notice, not rows', () => {
    const story = 'Cold weather and the flu season bring more sneezing around us, and many readers ask how to keep their resistance up through the winter months. A clinic deputy director names the usual causes: chronic illness, too little sleep and an unbalanced diet.';
    const layout = toBlocks(parseHtml(`<table><tr><td>Health news &gt; Latest</td></tr><tr><td><p>${story}</p></td></tr><tr><td>Advertisement</td></tr></table>`));
    const chosen = layout.filter((b) => b.text === story);
    expect(withWholeTables(layout, chosen)).toEqual(chosen);
  });

  it('adds nothing where the content enters no table', () => {
    const chosen = blocks.slice(0, 1);
    expect(withWholeTables(blocks, chosen)).toEqual(chosen);
  });
});

// An article's data series (constructioncoverage.com's shape): a two-column table of a date and a
// change under its heading row, folded in a <details> between paragraphs. Its cells are figures
// alone, which read as datelines or counters anywhere else.
const series = (cols: number): string => `<p>Home sale prices rose through most of the decade, then cooled as mortgage rates climbed to their highest level in twenty years.</p>
<details><summary>Data: U.S. Home Sale Price Time Series</summary><table><thead><tr><th>Date</th>${'<th>Percentage change in median home sale price (YoY)</th>'.repeat(cols - 1)}</tr></thead><tbody>
${['1/1/2013', '2/1/2013', '3/1/2013'].map((d, i) => `<tr><td>${d}</td>${`<td>+1${i}.1%</td>`.repeat(cols - 1)}</tr>`).join('')}</tbody></table></details>
<p>Sales volume tells a different story: fewer homes changed hands in 2024 than in any year since the data series began.</p>`;

describe('withWholeTables: the figures of a data series in the flow of the text', () => {
  const chosenOf = (html: string): { blocks: ReturnType<typeof toBlocks>; chosen: ReturnType<typeof toBlocks> } => {
    const blocks = toBlocks(parseHtml(html));
    return { blocks, chosen: blocks.filter((b) => b.text.length > 30 || b.text === 'Date') };
  };

  it('takes back the cells of figures alone ("1/1/2013", "+11.1%")', () => {
    const { blocks, chosen } = chosenOf(series(2));
    const texts = withWholeTables(blocks, chosen).map((b) => b.text);
    for (const s of ['1/1/2013', '+11.1%', '3/1/2013']) expect(texts).toContain(s);
  });

  it('leaves the figures of a wide grid (a board of tallies) out', () => {
    const { blocks, chosen } = chosenOf(series(9));
    expect(withWholeTables(blocks, chosen).map((b) => b.text)).not.toContain('+11.1%');
  });
});
