import { extract } from '../../../src/extractors/text-density';

// A market's home page: a hero slider, an introduction section (a slogan as the one <h1>, a
// paragraph, a row of buttons), then a section of location cards whose panes hold the long text.
const pane = (name: string, text: string): string =>
  `<div class="loc"><h3>${name}</h3><p>${text}</p><p>${text.replace('weekend', 'week')}</p><p>Amenities: indoors with heat, air conditioning, electricity and WiFi for every vendor.</p></div>`;
const page = `<!doctype html><html lang="en"><head><title>Market | Makers and vintage markets</title></head><body>
<nav><ul><li><a href="/sell">Sell</a></li><li><a href="/visit">Visit</a></li></ul></nav>
<div id="main" role="article">
<section class="hero"><div class="slide"></div></section>
<section class="intro"><div class="row"><div class="col"><h1>Local, Curated, Intentional.</h1>
<div class="txt"><p>Since our founding in 2003, our guiding belief has remained the same: to give merchants a platform to turn their personal craft into a business, and to give shoppers the thrill of discovering something original.</p></div></div>
<div class="links"><a href="/apply">Apply To Sell At Our Markets</a><a href="/book">Returning Merchant Booking</a></div></div></section>
<section><div class="container"><h2>Shop With Us</h2>
<div class="cards">${['Williamsburg', 'Chelsea', 'Venice'].map((n) => `<div class="card"><img src="/${n}.jpg" alt="${n}"><h3>${n}</h3><span>70 North 7th Street</span><span>Visit Us</span><p>Sat &amp; Sun 11:00 AM - 7:00 PM</p><a href="/${n}">More Info</a></div>`).join('')}</div>
<div class="slides"><div class="slide"><img src="/a.jpg" alt="Shoppers"></div><div class="slide"><img src="/b.jpg" alt="Shoppers"></div></div>
${pane('Williamsburg', 'Setting up shop at our flagship location means spending the weekend connecting with established creatives and young tastemakers alike who come to discover the latest in fashion, art and design.')}
${pane('Chelsea', 'Situated under the elevated park, one of the most visited attractions in the city, our market location captures the hustle and bustle of the most colorful marketplace in the neighborhood this weekend.')}
</div></section></div>
<footer><p>Copyright 2025 Market. All rights reserved.</p></footer></body></html>`;

describe('withIntroSection: a home page whose introduction is a section of its own', () => {
  it('reads the <h1> section right before the content as its introduction', () => {
    const text = extract(page).text;
    expect(text).toContain('Setting up shop at our flagship location');
    expect(text).toContain('Since our founding in 2003');
    expect(text).toContain('Local, Curated, Intentional.');
    expect(text).not.toContain('Apply To Sell');
  });

});
