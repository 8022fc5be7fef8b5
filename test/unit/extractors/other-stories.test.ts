import { extract } from '../../../src/extractors/text-density';

const description = [
  'This floral tie neck blouse is cut from a soft woven fabric with a relaxed fit and long sleeves gathered at the cuff.',
  'The olive green print with off white flowers is in very good condition, worn only a few times and washed with care.',
  'Measurements taken flat: pit to pit 21 inches, length from shoulder 25 inches, sleeve 23 inches from the shoulder seam.',
  'It pairs easily with jeans or a pencil skirt for the office, and the tie at the neck can be worn as a bow or left loose.',
  'Please look at all the photos, they form part of the description, and ask any questions you have before you buy.',
  'The fabric is a light viscose blend that drapes well and does not crease much, so it travels well in a suitcase.',
  'Posted within one working day of payment from a smoke free and pet free home, wrapped in recycled tissue paper.',
].map((p) => `<p>${p}</p>`).join('\n');

const card = (name: string, price: string): string =>
  `<li class="card"><a href="/itm/${name.length}"><img src="/i/${name.length}.jpg" alt=""></a><div class="card-title">${name}, in very good condition, from a smoke free home.</div><div class="card-price">${price}</div><div>Pre-owned · Private</div></li>`;

const page = (heading: string, cards: string): string => `<!doctype html><html lang="en"><head><title>Ladies floral blouse size 10</title></head><body>
<main><div class="item-main"><h1>Ladies floral blouse size 10</h1>
<div class="item-description">${description}</div>
<section class="carousel"><h2>${heading}</h2><ul>${cards}</ul></section>
<div class="item-specifics">${description.replace(/<p>/g, '<p>Seller notes: ')}</div>
</div></main></body></html>`;

describe('cutOtherStories: carousels of other products after a product', () => {
  it('cuts a carousel of priced product cards under an "also viewed" heading', () => {
    const cards = [card('Next Blouse Top Size 18 Womens Green Black White Casual Long Sleeve', '$22.69 + $23.51 delivery'),
      card('Next Tunic Top Size 12 Blue Green Black White Stripe Print Cotton', '$18.00 + $23.46 delivery'),
      card('Ladies 3 Pack Seamless Stretch V Neck Vest Wide Strap Black White', '$12.49 + $18.47 delivery')].join('');
    const text = extract(page('People who viewed this item also viewed', cards)).text;
    expect(text).toContain('Measurements taken flat');
    for (const s of ['also viewed', 'Next Tunic Top', 'Seamless Stretch', 'delivery']) expect(text).not.toContain(s);
  });

  it('keeps related products that carry no price (a vendor listing its own offers)', () => {
    const cards = [card('Serverless containers for modern apps and microservices', 'Deploy modern apps using serverless containers.'),
      card('Managed Kubernetes service for your container workloads', 'Deploy and scale containers on managed Kubernetes.'),
      card('Intelligent cloud databases for AI-ready applications', 'Build AI-ready apps with intelligent cloud databases.')].join('');
    const text = extract(page('Related products', cards)).text;
    expect(text).toContain('Deploy and scale containers on managed Kubernetes');
  });

  it("cuts a shop's shipping and returns terms after the product text", () => {
    const terms = '<p>Orders ship within two business days from our warehouse, and tracking details are emailed once your parcel leaves us.</p><p>Unworn items can be returned within thirty days for a full refund; the buyer pays return postage unless the item is faulty.</p>';
    const html = page('Details', '').replace('<section class="carousel">', `<section class="policy"><h2>Shipping &amp; Returns</h2>${terms}</section><section class="carousel">`);
    const text = extract(html).text;
    expect(text).toContain('Measurements taken flat');
    expect(text).toContain('Seller notes: Measurements taken flat');
    for (const s of ['Shipping & Returns', 'Orders ship within two business days', 'full refund']) expect(text).not.toContain(s);
  });
});

describe('cutOtherStories: other stories after a piece', () => {
  const paras = [
    'Outsourcing payroll lets a small company stop worrying about filing deadlines and changing tax tables every single quarter.',
    'A professional employer organisation goes further: it becomes the co-employer and takes over benefits and compliance too.',
    'Recruiting can be outsourced on its own, which suits a startup that hires in bursts rather than all through the year.',
    'Training and development are often left in house, since they shape the culture that a company wants its people to share.',
    'Whatever the mix, write down which tasks move out, who answers questions from staff, and how the results are measured.',
    'Review the arrangement after a year: the needs of a company of twenty people are not those of a company of two hundred.',
  ].map((p) => `<p>${p}</p>`).join('\n');
  const teaser = (t: string): string => `<div class="card"><h3><a href="/blog/${t.length}">${t}</a></h3><p>Every January, companies promise themselves that this year will be different. Paperwork will be...</p></div>`;
  const html = `<!doctype html><html lang="en"><head><title>Six types of HR outsourcing</title></head><body><main><h1>Six types of HR outsourcing</h1>
<div class="entry">${paras}</div>
<section><h2>Tap into the latest insights from experts in your industry</h2>${['The hard 1099 deadline is closer than you think', 'The risks of missing a filing deadline', 'Common hiring mistakes startups make'].map(teaser).join('')}</section>
</main></body></html>`;

  it('cuts the teasers under a heading that invites to read on ("Tap into the latest insights")', () => {
    const text = extract(html).text;
    expect(text).toContain('Review the arrangement after a year');
    for (const s of ['Tap into the latest insights', 'Common hiring mistakes', 'Paperwork will be']) expect(text).not.toContain(s);
  });
});

describe('cutOtherStories: the site\'s other offers after a service page', () => {
  const paras = [
    'We rent commercial gym equipment for film shoots, events and temporary facilities, delivered and installed by our own crews.',
    'Every machine is inspected, cleaned and tested before it leaves the warehouse, and we replace anything that fails on site.',
    'Rental periods run from a single day to several months, and a longer rental lowers the daily rate of every piece you take.',
    'Our catalogue covers treadmills, bikes, rowers, racks, benches and free weights from the brands that gyms trust every day.',
    'Tell us the dates, the address and the equipment you need, and we send a written quote within one business day of asking.',
  ].map((p) => `<p>${p}</p>`).join('\n');
  // A grid of the service's features makes the page a page of repeated items (items.ts).
  const feature = (t: string): string => `<div class="feature"><h3>${t}</h3><p>${t} is included with every rental, at no extra cost to you or your team.</p></div>`;
  const offer = (t: string): string => `<div class="slide"><a href="/services/${t.length}"><h3>${t}</h3><p>Quality new and refurbished equipment for every gym.</p><span>Learn More</span></a></div>`;
  const html = (heading: string): string => `<!doctype html><html lang="en"><head><title>Gym equipment rental</title></head><body><main>
<section><h1>Gym equipment rental</h1>${paras}</section>
<section><div class="features">${['Delivery', 'Installation', 'Pick-up', 'Cleaning', 'Support'].map(feature).join('')}</div></section>
<section><h2>${heading}</h2><p>Explore other services that complement your fitness equipment needs</p>${['Equipment Sales', 'Equipment Repair', 'Gym Detailing'].map(offer).join('')}</section>
</main></body></html>`;

  it('cuts the cards under "Related Services"', () => {
    const text = extract(html('Related Services')).text;
    expect(text).toContain('a written quote within one business day');
    for (const s of ['Related Services', 'Explore other services', 'Equipment Repair']) expect(text).not.toContain(s);
  });

  it('does not cut at a heading that names no related or featured offers', () => {
    // The heading is where the cut would start; how far the run reaches into the section below it
    // is the segment model's (a page without content class words is lifted by its <main>, landmark-weight.ts).
    expect(extract(html('Top 3 services we offer')).text).toContain('Top 3 services we offer');
  });
});
