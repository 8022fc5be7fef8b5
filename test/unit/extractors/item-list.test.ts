import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { withItemList } from '../../../src/extractors/item-list';
import { findItemLines } from '../../../src/extractors/items';
import { DEFAULT_SELECTION } from '../../../src/extractors/selection';

describe('a product grid beside a long category blurb that the line model chose (item-list.ts)', () => {
  const card = (i: number): string => `<div class="product-card_card"><a class="product-card_image" href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a>
    <div class="product-card_details"><a class="product-card_title-link" href="/p/${i}"><h4>Seamless Training T-Shirt ${i}</h4></a>
    <p class="product-card_fit">slim fit</p><p class="product-card_colour">Storm Blue / Stealth Blue</p><div class="product-card_price">$${30 + i}</div></div></div>`;
  const grid = `<main><h1>T-Shirts &amp; Tops</h1><div class="product-grid">${Array.from({ length: 20 }, (_, i) => card(i + 1)).join('')}</div></main>`;
  const blurb = `<section class="seo-copy"><h2>Men's Workout Shirts</h2>${['Which type of shirt is best for the gym?', 'Tight or loose gym t-shirt?', 'Can I wear a normal t-shirt to the gym?']
    .map((q) => `<h3>${q}</h3><p>When it comes to picking out your gym or workout t-shirt, there are a range of things you might want to consider, from the fit and the fabric to how it handles sweat during a long session.</p>`).join('')}</section>`;
  const read = (html: string): string[] => {
    const blocks = toBlocks(parseHtml(html), true, false, true);
    const items = findItemLines(blocks);
    expect(items).toBeDefined();
    // What the line model chose: the blurb's lines only.
    const chosen = blocks.filter((b) => b.text.includes('gym') && !items!.has(b));
    return withItemList(blocks, chosen, items, DEFAULT_SELECTION).map((b) => b.text);
  };

  it('reads the grid above the blurb too', () => {
    const text = read(`<html><body>${grid}${blurb}</body></html>`);
    for (let i = 1; i <= 20; i++) {
      expect(text).toContain(`Seamless Training T-Shirt ${i}`);
      expect(text).toContain(`$${30 + i}`);
    }
    expect(text).toContain('Tight or loose gym t-shirt?');
  });

  it('leaves a grid after the chosen text out (the more stories under an article)', () => {
    const text = read(`<html><body>${blurb}${grid}</body></html>`);
    expect(text).not.toContain('Seamless Training T-Shirt 1');
  });
});

describe('a list whose cards sit in sibling rows of one template (items.ts, item-list.ts)', () => {
  const card = (name: string): string => `<div class="product-card_card"><a class="product-card_image" href="/p/${name}"><img src="/i/${name}.jpg" alt=""></a>
    <div class="product-card_details"><a class="product-card_title-link" href="/p/${name}"><h4>${name} Seamless Training T-Shirt</h4></a>
    <p class="product-card_fit">slim fit</p><p class="product-card_colour">Storm Blue / Stealth Blue</p><div class="product-card_price">$30</div></div></div>`;
  const row = (names: string[]): string => `<div class="product-row">${names.map(card).join('')}</div>`;
  const grid = Array.from({ length: 20 }, (_, i) => `Grid${i + 1}`);
  const html = `<html><body><main><h1>T-Shirts</h1><h2>Featured</h2>${row(['Featured1', 'Featured2', 'Featured3'])}<h2>All</h2>${row(grid)}</main></body></html>`;

  it('reads the featured row above the grid the chosen lines read', () => {
    const blocks = toBlocks(parseHtml(html), true, false, true);
    const items = findItemLines(blocks);
    expect(items).toBeDefined();
    const chosen = blocks.filter((b) => b.text.includes('Grid') || (items!.has(b) && b.index > blocks.findIndex((x) => x.text === 'All')));
    const text = withItemList(blocks, chosen, items, DEFAULT_SELECTION).map((b) => b.text);
    expect(text).toContain('Grid20 Seamless Training T-Shirt');
    expect(text).toContain('Featured1 Seamless Training T-Shirt');
    expect(text).toContain('Featured3 Seamless Training T-Shirt');
  });
});
