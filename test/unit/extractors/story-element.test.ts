import { extract } from '../../../src/extractors/text-density';

// A news page whose story is the page's <main>, followed by the site's footer: a disclaimer
// heading and legal sentences that read like prose. Classes say nothing (a template's hashes).
const para = (n: number): string =>
  `<p>The couple had planned the trip for a year, and the husband booked the flights and the hotel himself, as he always did, said the letter, part ${n}.</p>`;
const page = `<!doctype html><html><head><title>Husband springs for business class, leaves wife in economy</title></head><body>
<div class="x1"><a href="/">Home</a> <a href="/advice">Advice</a></div>
<main class="x2"><article class="x3"><h1 class="x4">Husband springs for business class, leaves wife in economy</h1>
<div class="x5">${[1, 2, 3, 4, 5, 6].map(para).join('')}</div></article></main>
<div class="x6"><div class="x7"><h2 class="x8">Disclaimer</h2>
<p>Registration on or use of this site constitutes acceptance of our User Agreement and Privacy Policy and our Cookie Statement.</p>
<p>The material on this site may not be reproduced, distributed, transmitted, cached or otherwise used, except with the prior written permission of the publisher.</p>
<p>Community Rules apply to all content you upload or otherwise submit to this site, and you agree to them.</p></div></div>
</body></html>`;

describe('cutAfterStory: the story ends where the element around its headline ends', () => {
  it('leaves out the site footer\'s legal lines after the story\'s element', () => {
    const text = extract(page).text;
    expect(text).toContain('part 6');
    expect(text).not.toContain('Disclaimer');
    expect(text).not.toContain('Registration on or use of this site');
    expect(text).not.toContain('Community Rules');
  });

  it('reads the story\'s end off plain <div> wrappers too', () => {
    const divs = page.replace('<main class="x2"><article class="x3">', '<div class="x2"><div class="x3">').replace('</article></main>', '</div></div>');
    const text = extract(divs).text;
    expect(text).toContain('part 6');
    expect(text).not.toContain('Registration on or use of this site');
  });
});
