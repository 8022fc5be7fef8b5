import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { findItemLines } from '../../../src/extractors/items';
import { extract } from '../../../src/extractors/text-density';

const card = (i: number): string => `<div class="result-card"><a href="/s/${i}" class="source">example${i}.com</a>
  <a href="/story/${i}"><h3 class="title">Story number ${i} about online learning programs</h3>
  <p class="snippet">In 2025 the pace of change in online learning is unlike anything before, and story ${i} explains why schools are investing in it.</p></a>
  <span class="age">${i}d</span></div>`;

describe('pages made of repeated items (items.ts)', () => {
  it('reads every card of a listing whose titles and snippets are links, and not the menu', () => {
    const menu = '<ul class="menu">' + ['Home', 'News', 'Videos', 'Comments', 'Sign in'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('') + '</ul>';
    const page = extract(`<html><head><title>Results for online learning programs</title></head><body>${menu}
      <h1>Results for online learning programs</h1><section class="results">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</section>
      <div class="copyright">© 2025 Example Inc. All rights reserved.</div></body></html>`);
    for (let i = 1; i <= 8; i++) {
      expect(page.text).toContain(`Story number ${i} about online learning programs`);
      expect(page.text).toContain(`story ${i} explains why`);
    }
    expect(page.text).not.toContain('Sign in');
  });

  it('leaves an article alone whose sidebar holds boxes of many links', () => {
    const box = (k: number): string => `<div class="mod-right"><h3>Box ${k}</h3><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/r/${k}/${i}">Related headline ${k}-${i} about something else entirely today</a></li>`).join('')}</ul></div>`;
    const page = extract(`<html><head><title>City approves river park</title></head><body><div class="main"><h1>City approves river park</h1>
      <p>The city council voted seven to two on Tuesday to approve the river park, ending a debate that lasted two years.</p>
      <p>Construction will begin in spring, the mayor said, and the first section should open to the public next summer.</p></div>
      <div class="side">${[1, 2, 3, 4].map(box).join('')}</div></body></html>`);
    expect(page.text).toContain('The city council voted seven to two');
    expect(page.text).not.toContain('Related headline');
  });

  it('keeps the parts of a product card that carry furniture words of their own (a Bootstrap caption)', () => {
    const product = (i: number): string => `<div class="col-md-4 category-product"><a class="thumbnail" href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a>
      <div class="caption"><a class="product-name" href="/p/${i}">Laser Projector Model ${i} with 4K resolution and 5100 lumens</a>
      <div>Manufacturer: Brand ${i}</div><div class="product-sku">Item Number: LP-${i}00</div><div>Price: $${i},899.00</div></div></div>`;
    const page = extract(`<html><head><title>Native 4K Projectors</title></head><body><h1>Native 4K Projectors</h1>
      <div class="product-list row">${Array.from({ length: 9 }, (_, i) => product(i + 1)).join('')}</div></body></html>`);
    for (let i = 1; i <= 9; i++) {
      expect(page.text).toContain(`Laser Projector Model ${i} with 4K resolution`);
      expect(page.text).toContain(`Item Number: LP-${i}00`);
    }
  });
  it('reads a product grid whose cards are short lines with little link text (name, price, rating, specs)', () => {
    // REI-shaped category page: the product name is the only link; prices, ratings and specs are plain short lines.
    const kayak = (i: number): string => `<li class="VcGDfKKy_dvNbxUqmK"><div class="product-card"><a href="/product/${i}" class="link"><h2>Sandpiper ${i}0 Kayak</h2></a>
      <div class="price">$${i}99.95</div><div class="rating">${i} reviews with an average rating of 4.${i} out of 5 stars</div>
      <ul class="specs"><li>Length: ${i} feet</li><li>Weight Capacity: ${i}90 lbs.</li><li>Hull Construction: ABS Plastic</li><li>Weight: ${i}9 lbs.</li></ul></div></li>`;
    const page = extract(`<html><head><title>Kayaks | REI Co-op</title></head><body>
      <div class="promo-banner"><p>$30 in card rewards are yours when approved for the Co-op Mastercard by Mar 9. Plus, you can earn a $100 gift card after your first purchase. Terms apply.</p></div>
      <nav><ul>${['Camp', 'Climb', 'Cycle', 'Paddle', 'Run'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <h1>Kayaks</h1><ul class="cdr-grid">${Array.from({ length: 9 }, (_, i) => kayak(i + 1)).join('')}</ul></body></html>`);
    for (let i = 1; i <= 9; i++) {
      expect(page.text).toContain(`Sandpiper ${i}0 Kayak`);
      expect(page.text).toContain(`Weight Capacity: ${i}90 lbs.`);
    }
  });

  it("keeps a card's price, discount and age, which are boilerplate only on their own, and still drops its \"Read More\"", () => {
    const product = (i: number): string => `<div class="product-card"><a href="/p/${i}"><h3>Standing desk frame number ${i} with memory keypad and cable tray</h3>
      <p class="blurb">A dual-motor frame for desktops up to 80 inches, ${i} colours, assembled in under an hour with the included tools.</p></a>
      <div class="price">$${i}49.99</div><div class="save">-${i}0%</div><div class="age">${i} weeks ago</div><p><a class="more" href="/p/${i}">Read More</a></p></div>`;
    const page = extract(`<html><head><title>Standing desk frames</title></head><body><h1>Standing desk frames</h1>
      <div class="grid">${Array.from({ length: 6 }, (_, i) => product(i + 1)).join('')}</div></body></html>`);
    for (let i = 1; i <= 6; i++) {
      expect(page.text).toContain(`Standing desk frame number ${i}`);
      expect(page.text).toContain(`$${i}49.99`);
      expect(page.text).toContain(`\n-${i}0%\n`);
      expect(page.text).toContain(`${i} weeks ago`);
    }
    expect(page.text).not.toContain('Read More');
  });
  it('reads a grid of picture cards that name each item in a few words, and not the menu beside it', () => {
    // A recipe collection: each card is a link holding a picture and a short title, as short as menu entries.
    const recipe = (i: number): string => `<a class="card" href="/recipe-${i}"><div class="card__top"><img src="/r/${i}.jpg" alt="A bowl of dish ${i}"></div>
      <div class="card__content"><span class="card__title">Roman-style spaghetti alla carrettiera with tuna, number ${i}</span></div></a>`;
    const menu = '<ul class="menu">' + ['Recipes', 'Techniques', 'Equipment', 'Ingredients', 'About us', 'Newsletter'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('') + '</ul>';
    const page = extract(`<html><head><title>Tomato sauce recipes</title></head><body>${menu}<h1>Tomato sauce recipes</h1>
      <p>Our collection of tomato sauce recipes has something for every dish, whether you want pasta or a vegetable tian.</p>
      <div class="list">${Array.from({ length: 12 }, (_, i) => recipe(i + 1)).join('')}</div></body></html>`);
    for (let i = 1; i <= 12; i++) expect(page.text).toContain(`Roman-style spaghetti alla carrettiera with tuna, number ${i}`);
    expect(page.text).not.toContain('Techniques');
  });
  it('reads news cards whose teaser sentence is a link, though each also carries a hover box of category links', () => {
    // Trade-news list shape: type label, linked title and teaser, then a popup menu of "More in this category" links.
    const story = (i: number): string => `<article class="list-item"><div class="list-details"><a href="/news/${i}"><img data-src="/p/${i}.jpg" alt="Resort ${i}"></a><div class="type"><a href="/t/${i}">Press Release</a></div>
      <h1 class="title"><a href="/news/${i}">Hotel group ${i} opens a new resort by the sea</a></h1>
      <p><a href="/news/${i}">The group announced on Monday that resort number ${i} will welcome its first guests in spring, with two hundred rooms, three restaurants and a spa (the first of its kind in the region, built on the site of an old...</a></p>
      <div class="show-on-load"><popmenu class="float-right"><div class="feature"><div><header><a href="/p/${i}">Jane Doe ${i}</a></header><div>Vice President of Sales, Group ${i}</div></div></div>${['Leisure Travel', 'Lodging Industry', 'Openings'].map((c) => `<a class="with-title" href="/c/${c}"><div>More in this category</div><div>${c}</div></a>`).join('')}</popmenu></div>
      <div class="footer"><a href="/a/${i}">by Staff Writer</a> 19 December 2025</div></div></article>`;
    const html = `<html><head><title>All Latest News</title></head><body>
      <nav><ul>${['Home', 'News', 'Events', 'Jobs', 'Contact'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <h1>All Latest News</h1><list>${Array.from({ length: 8 }, (_, i) => story(i + 1)).join('')}</list><div class="intersection"><div class="intersection-header"><div>Recent Appointments</div></div><div class="intersection-grid">${Array.from({ length: 6 }, (_, i) => `<div><div><a href="/ap/${i}">Person ${i} has been appointed Director of Marketing at a resort in the mountains</a></div></div>`).join('')}</div></div>
      <div class="copyright">© 2025 Example Media. All rights reserved.</div></body></html>`;
    const page = extract(html);
    for (let i = 1; i <= 8; i++) expect(page.text).toContain(`resort number ${i} will welcome its first guests`);
    expect(page.text).not.toContain('All rights reserved');
    // The cards are found as items (not left to the paragraph fallback), their ten link lines each notwithstanding.
    const items = findItemLines(toBlocks(parseHtml(html), true, false, true));
    expect(new Set(items?.values()).size).toBe(8);
  });
  it('reads an A-Z directory of linked category names after a short intro, and not the menu', () => {
    // Catalog-directory shape: each section is a letter and a box of linked names.
    const sections: Record<string, string[]> = {
      A: ['Adapters', 'Adjusters', 'Aligners', 'Anchors'], B: ['Bands', 'Belt Keepers', 'Binders', 'Bolts', 'Braces', 'Buckles'],
      C: ['Caps', 'Catches', 'Chairs', 'Clamps', 'Clasps', 'Clevises', 'Clips', 'Closures'], E: ['Ends', 'Escutcheons', 'Eyes'],
      F: ['Fasteners', 'Fastening Devices', 'Fastening Systems', 'Ferrules'], H: ['Hangers', 'Hardware', 'Hasps', 'Heads', 'Holders', 'Hook and Loop Fasteners', 'Hooks'],
      L: ['Lacing', 'Lanyards', 'Latches', 'Levelers', 'Locks', 'Loopers'], N: ['Nails and Brads', 'Nuts (Fasteners)'], R: ['Releases', 'Retainers', 'Rings', 'Rivets'],
      S: ['Screws', 'Shackles', 'Sleeves', 'Sockets', 'Spikes', 'Standoffs and Spacers', 'Staples', 'Straps', 'Studs', 'Swivels'],
      T: ['Tacking Equipment', 'Tacks', 'Terminals and Lugs', 'Tethers', 'Threaded Components', 'Ties', 'Turnbuckles'], W: ['Washers (Fastener & Hardware)'],
    };
    const dir = Object.entries(sections).map(([letter, names]) => `<div class="vert_cats"><div class="letter">${letter}</div><div class="vert_cats_wrap">${names.map((n) => `<a href="/c/${n}">${n}</a>`).join(' ')}</div></div>`).join('');
    const page = extract(`<html><head><title>Fasteners Catalogs</title></head><body>
      <nav><ul>${['Home', 'Suppliers', 'Products', 'News', 'Sign in'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <div class="pagetitle"><h1>Manufacturer and Distributor Catalog Collection</h1>Find Item Details, Images, Downloadable Spec Sheets, Schematics, 3-D CAD Models and more.</div>
      <div class="browsebody"><h2>Fasteners &amp; Hardware Categories</h2><div class="browsewrap">${dir}</div></div>
      <footer><p class="signup">Stay up to date on industry news and trends, product announcements and the latest innovations.</p></footer></body></html>`);
    for (const name of ['Clamps', 'Hook and Loop Fasteners', 'Standoffs and Spacers', 'Terminals and Lugs']) expect(page.text).toContain(name);
    expect(page.text).not.toContain('Sign in');
  });
  it('reads a category page whose headline tops the first of its sections of linked tiles', () => {
    // Store category shape: the <h1> and its sub-category links open the first section; the others are headed tile rows.
    const tiles = (names: string[]): string => `<ul class="row">${names.map((n) => `<li class="tile"><a href="/c/${n}"><img src="/i/${n}.jpg" alt=""><div class="title">${n}</div></a></li>`).join('')}</ul>`;
    const rows: [string, string[]][] = [
      ['Shop favorite franchises', ['Super Mario', 'Pokemon', 'Minecraft', 'Call of Duty', 'Final Fantasy']],
      ['Browse by video game genre', ['Adventure', 'Role playing', 'Action', 'Shooter', 'Racing', 'Sports']],
      ['Browse age-appropriate video games', ['E for Everyone', '10 and Up', 'T for Teen', 'M for Mature']],
      ['Explore more of what is going on right now', ['Easter Basket Ideas', 'Health and Wellness', 'Game Day Hosting', 'Gift Ideas']],
      ['Shop by platform', ['Nintendo Switch', 'PlayStation 4', 'Xbox One', 'PC Gaming', 'Retro Consoles']],
      ['Popular searches', ['Wireless controller', 'Gaming headset', 'Charging dock', 'Memory card']],
    ];
    const page = extract(`<html><head><title>Video Games : Target</title></head><body>
      <nav><ul>${['Categories', 'Deals', 'New Arrivals', 'Registry', 'Sign in'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <main><div class="container-fixed"><div><h1>Video Games</h1>${tiles(['Video Game Deals', 'Nintendo Switch 2', 'PlayStation 5', 'Xbox Series X', 'Virtual Reality'])}</div>
      ${rows.map(([h, names]) => `<div><h2>${h}</h2>${tiles(names)}</div>`).join('')}</div></main>
      <footer><a href="/help">Help</a> <a href="/privacy">Privacy</a></footer></body></html>`);
    for (const name of ['Nintendo Switch 2', 'Call of Duty', 'Role playing', 'T for Teen', 'Game Day Hosting']) expect(page.text).toContain(name);
    expect(page.text).not.toContain('Sign in');
  });

  it('reads several sliders of product cards of one shape as one list, though each alone holds too little of the page', () => {
    // Store home shape: three carousels, each in a section of its own, of linked product cards, then notes on shipping.
    const products = ['Explorer 1000 Plus Portable Power Station with LiFePO4 battery', 'Explorer 300 Plus compact camping power station for travel',
      'SolarSaga 100W foldable solar panel with kickstand and USB ports', 'Explorer 2000 Plus home backup power station, expandable to 12kWh',
      'Explorer 500 portable generator for weekend trips and tailgating', 'SolarSaga 200W bifacial solar panel for off-grid cabins',
      'Explorer 240 lightweight power station for phones and laptops', 'Home backup kit with transfer switch and two battery packs',
      'Explorer 1500 Pro fast-charging power station for RV living'];
    const slider = (title: string, names: string[]): string => `<section class="${title.toLowerCase().replace(/ /g, '-')}"><div class="product-slider"><h2>${title}</h2><ul class="slider-track">${names.map((n, i) => `<li class="product-card"><a href="/p/${encodeURIComponent(n)}"><img src="/i/${i}.jpg" alt=""><span class="name">Jackery ${n}</span></a><span class="price">$${199 + i * 100}.00</span></li>`).join('')}</ul></div></section>`;
    const notes = Array.from({ length: 5 }, (_, i) => `<p>Note ${i}: Orders ship within two business days from our warehouse; returns are accepted within thirty days of delivery for a full refund.</p>`).join('');
    const html = `<html><head><title>Portable Power Stations</title></head><body>
      <nav><ul>${['Home', 'Shop', 'Support', 'Blog', 'Account'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <main><h1>Portable Power Stations</h1>${slider('Best sellers', products.slice(0, 3))}${slider('New arrivals', products.slice(3, 6))}${slider('Bundles', products.slice(6, 9))}<div class="shipping">${notes}</div></main></body></html>`;
    const items = findItemLines(toBlocks(parseHtml(html), true, false, true));
    expect(new Set(items?.values()).size).toBe(9);
    const page = extract(html);
    for (const n of products) expect(page.text).toContain(n);
  });
});

describe('deeply nested item lists (items.ts)', () => {
  it('finds cards whose lines sit ten levels below the repeated list entry (a best-seller list)', () => {
    // Amazon-shaped: li > span > div > div > span > div > div > div > a > span > div > text.
    const wrap = (depth: number, inner: string): string => (depth === 0 ? inner : `<div class="w${depth % 3 === 0 ? ' a-section' : ''}">${wrap(depth - 1, inner)}</div>`);
    const entry = (i: number): string => `<li class="zg-item">${wrap(9, `<span class="rank">#${i}</span>
      <a href="/dp/${i}"><div class="line-clamp">A Court of Thorns and Roses volume ${i}: A Novel</div></a>
      <a href="/author/${i}"><div>Sarah J. Maas</div></a><div>Hardcover</div><div>3 formats available</div><a href="/offers/${i}"><span>$2${i}.40</span></a>`)}</li>`;
    const side = ['Arts & Photography', 'Biographies', 'Business', 'Calendars', 'Comics', 'Cookbooks', 'Education', 'History', 'Humor', 'Law', 'Medical']
      .map((c) => `<li><a href="/c/${c}">${c}</a></li>`).join('');
    const page = extract(`<html><head><title>Amazon Best Sellers</title></head><body><div class="side"><ul>${side}</ul></div>
      <h1>Best Sellers in Books</h1><ol class="grid">${Array.from({ length: 12 }, (_, i) => entry(i + 1)).join('')}</ol></body></html>`);
    for (let i = 1; i <= 12; i++) expect(page.text).toContain(`A Court of Thorns and Roses volume ${i}`);
  });
});
