import { extract } from '../../../src/extractors/text-density';

// A shop's product page: the description, then what buyers wrote, in a block its template calls
// `product-reviews` (no "comment" word anywhere).
const description = [
  'The Arrival T-Shirt is your admission to a new, purposeful approach to training, built for sessions that ask more of you.',
  'A lightweight, sweat-wicking fabric keeps you cool, and flatlock seams follow the body so nothing rubs during a long workout.',
].map((p) => `<p>${p}</p>`).join('\n');

const review = (name: string, text: string): string =>
  `<div class="review-card"><div class="review-card__header"><span>${name}</span><span>Verified buyer</span></div><p class="reviewText">${text}</p></div>`;

const reviews = [
  review('Anonymous', 'I bought this two weeks ago and my order was not even close to what it was supposed to be. I got training pants instead of a shirt, though I believe the quality is good.'),
  review('AE', 'Incredibly small neck and an extra long length. The material feels cheap and it is like getting strangled in a dress, so I sent it back the same week I got it.'),
  review('Sam', 'Fits well across the shoulders and the fabric dries quickly after a run. I ordered a second one in another colour and would buy it again for the gym and for running.'),
  review('Jo', 'Washed it ten times now and the logo has not peeled at all. The sizing runs a little small, so order one size up if you like your shirts loose around the waist.'),
].join('\n');

const page = (ogType: string): string => `<!doctype html><html lang="en"><head><title>Arrival T-Shirt</title>
<meta property="og:type" content="${ogType}"></head><body><main>
<div class="product"><h1>Arrival T-Shirt</h1>${description}<p>$22</p></div>
<section class="product-reviews"><h2>Reviews</h2>${reviews}</section></main></body></html>`;

describe('customers\' reviews on a product page', () => {
  it('leaves out the reviews under a product, as comments under a story', () => {
    const text = extract(page('product')).text;
    expect(text).toContain('purposeful approach to training');
    for (const s of ['training pants', 'strangled', 'logo has not peeled']) expect(text).not.toContain(s);
  });

  it('keeps a review article\'s own text, whatever its class says', () => {
    const text = extract(page('article')).text;
    expect(text).toContain('logo has not peeled');
  });
});

describe('a box that only says it shows a rating', () => {
  it('reads the product names of a grid whose title boxes carry a with-reviews modifier', () => {
    // Gymshark-shaped card: the name sits in `title-container--with-reviews` beside its star rating.
    const card = (i: number): string => `<article class="product-card"><div class="product-card_info">
      <div class="product-card_title-container product-card_title-container--with-reviews"><span class="stars">4.${i}</span>
      <a href="/p/${i}"><h4 class="product-card_title">Geo Seamless T-Shirt ${i}</h4></a></div>
      <div>slim fit</div><div>Storm Blue / Stealth Blue</div><div>$3${i}</div></div></article>`;
    const html = `<html><head><title>T-Shirts &amp; Tops</title><meta property="og:type" content="website"></head><body>
      <h1>T-Shirts &amp; Tops</h1><div class="grid">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</div></body></html>`;
    const text = extract(html).text;
    for (let i = 1; i <= 8; i++) expect(text).toContain(`Geo Seamless T-Shirt ${i}`);
  });
});
