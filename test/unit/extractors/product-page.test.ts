import { extract } from '../../../src/extractors/text-density';
import { isProductPage } from '../../../src/extractors/product-page';

/** A shop's product page whose feature section is printed twice, once per breakpoint, with a single line between the copies. */
function shopPage(head: string): string {
  const feature = `<div class="feature"><h3>Built to last</h3>
    <p>The frame is machined from one block of aluminium, so it keeps its shape after years in a front pocket.</p></div>`;
  return `<html><head><title>Slim Wallet</title>${head}</head><body><main><h1>Slim Wallet</h1>
    <p>A slim front-pocket wallet that holds up to twelve cards and expands as you add them, without a bulge.</p>
    <div class="desktop-only">${feature}</div><p>Free returns within ninety days of delivery, no questions asked at all.</p>
    <div class="mobile-only">${feature}</div>
    <p>Each wallet ships with a cash strap and a money clip, both of which attach without any tools at all.</p></main></body></html>`;
}

const count = (text: string, s: string): number => text.split(s).length - 1;

describe('product pages read their repeated sections once (product-page.ts)', () => {
  it('knows a product page by og:type or a top-level JSON-LD Product', () => {
    expect(isProductPage(new Map([['og:type', 'product.item']]), [])).toBe(true);
    expect(isProductPage(new Map(), [{ '@type': ['Product', 'Thing'] }])).toBe(true);
    expect(isProductPage(new Map(), [{ '@type': 'https://schema.org/ProductGroup' }])).toBe(true);
    expect(isProductPage(new Map([['og:type', 'article']]), [{ '@type': 'NewsArticle' }, { '@type': 'ItemList' }])).toBe(false);
  });

  it('keeps one copy of a section printed once per breakpoint on a product page', () => {
    const page = extract(shopPage('<meta property="og:type" content="product">'));
    expect(count(page.text, 'machined from one block of aluminium')).toBe(1);
    expect(page.text).toContain('holds up to twelve cards');
  });

  it('leaves repeated lines of other pages as they are', () => {
    const page = extract(shopPage('<meta property="og:type" content="website">'));
    expect(count(page.text, 'machined from one block of aluminium')).toBe(2);
  });
});
