import { extract } from '../../../src/extractors/text-density';

describe("a grid's card controls (card-controls.ts)", () => {
  it('drops the button labels and stickers every card repeats, and keeps the cards\' names, fits and prices', () => {
    // Shopify-shaped collection grid: each card carries a badge, a quick-shop opener and a wishlist toggle.
    const card = (i: number): string => `<li class="grid__item"><div class="card"><div class="card__badge"><span>New</span></div>
      <a href="/products/${i}"><h3 class="card__heading">Espresso Roast Coffee No. ${i}</h3></a><div class="price">$1${i}.99</div>
      <div class="card__fit">slim fit, roasted in small batches</div>
      <div class="quick-shop-opener">Quick Shop</div><div class="wishlist-toggle"><span>Add to wishlist</span></div>
      <div class="ratingButtonContainer"><div>1 of 5 stars2 of 5 stars3 of 5 stars4 of 5 stars5 of 5 stars</div></div></div></li>`;
    const page = extract(`<html><head><title>Coffee</title></head><body><h1>Coffee</h1>
      <ul class="product-grid">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</ul></body></html>`);
    for (let i = 1; i <= 8; i++) expect(page.text).toContain(`Espresso Roast Coffee No. ${i}`);
    expect(page.text).toContain('$11.99');
    expect(page.text).toContain('slim fit, roasted in small batches');
    expect(page.text).not.toContain('Quick Shop');
    expect(page.text).not.toContain('Add to wishlist');
    expect(page.text).not.toContain('1 of 5 stars');
    expect(page.paragraphs).not.toContain('New');
  });

  it('keeps a line that merely sits in an action box once (a page\'s own call to apply)', () => {
    const page = extract(`<html><head><title>Apprenticeships</title></head><body><main><h1>Apprenticeships</h1>
      <p>Our apprenticeships combine paid work with study at a partner college, and most of our apprentices stay with us for years after they qualify.</p>
      <p>Applications for the autumn intake are open until the end of June, and interviews are held in July at our main office.</p>
      <div class="cta"><p>Apply by 30 June</p></div></main></body></html>`);
    expect(page.text).toContain('Apply by 30 June');
  });
});
