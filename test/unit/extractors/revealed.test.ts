import { extract } from '../../../src/extractors/text-density';

/**
 * eBay's shape (WCXB dev, tune part): the page body is a shell, and every module waits in a
 * `<div style="display:none">` that a script moves into place once the page has loaded.
 */
function shell(modules: string): string {
  return `<html lang="en"><head><title>Collectibles &amp; Art | eBay</title></head><body class="no-touch">
    <header><a href="/">eBay</a></header>
    ${modules}
    <script>$afbrwweb(35)</script></body></html>`;
}

const hiddenModule = (i: number): string => `<div id="afbrwweb${i}" style="display:none"><section class="b-module">
  <h2>Shop by category ${i}</h2>
  <p>Original paintings, prints and sculpture from independent artists, with free returns on most items and buyer protection on every order.</p>
  <p>Vintage posters, antique frames and art supplies from sellers in more than forty countries, sorted by price, condition and distance.</p>
  </section></div>`;

describe('pages that show nothing until a script reveals their parts (text-density.ts)', () => {
  it('reads the display:none modules of a page that shows next to nothing', () => {
    const page = extract(shell(Array.from({ length: 12 }, (_, i) => hiddenModule(i + 1)).join('')));
    expect(page.text).toContain('Original paintings, prints and sculpture');
    expect(page.text).toContain('Shop by category 12');
  });

  it('reads the aria-hidden parts of such a page as well', () => {
    const modules = Array.from({ length: 12 }, (_, i) => hiddenModule(i + 1)).join('');
    const page = extract(shell(`${modules}<div aria-hidden="true"><p>Related searches: antique frames, vintage posters and art supplies near you, updated daily.</p></div>`));
    expect(page.text).toContain('Related searches: antique frames');
  });

  it('leaves a hidden block out of a page that shows its own text', () => {
    const article = '<p>The exhibition brings together sixty works from the museum collection, many shown for the first time since the building reopened in the spring.</p>'.repeat(6);
    const page = extract(shell(`<main><h1>Collectibles</h1>${article}</main><div style="display:none"><p>A hidden newsletter form, with a long promise of weekly deals and offers for every reader.</p></div>`));
    expect(page.text).toContain('The exhibition brings together');
    expect(page.text).not.toContain('hidden newsletter');
  });
});
