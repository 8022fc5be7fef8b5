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

// A service page: a hero band (its template calls it a banner) holds the page's one <h1>, which
// is also the title's headline, a tagline set as a heading and two buttons; a logo bar follows,
// then the sections scoring picks.
const service = (between: string): string => `<!doctype html><html lang="en"><head><title>Data analytics services</title></head><body>
<header><nav><a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact</a></nav></header>
<div class="grid">
<div class="hero-banner"><h1 class="hero__title">Data analytics services</h1>
<h3 class="hero__sub">Leverage the power of data analytics consulting for business-changing insights</h3>
<div class="cta"><a class="btn" href="/contact"><h4>Contact our data analytics team</h4></a></div></div>
${between}
<div class="container"><h2>Consulting services built upon strong data governance and integration</h2>
<p>Information has never been a more valuable commodity, and your data strategy, along with how you draw insights from data, has never been more important to the business.</p>
<p>Effective data analytics yields trusted data that can create a critical connection between your business and your constituents, and shape every one of your business processes.</p>
<p>Successful data analytics is a journey. Whatever the maturity of your data strategy, our experienced advisors have the knowledge and perspective to guide you through its life cycle.</p></div>
</div>
<footer><p>Copyright 2025 Example LLP. All rights reserved.</p></footer></body></html>`;
const logoBar = '<div class="logos"><img src="/a.png" alt="Acme"><span>Trusted by 500 teams</span></div>';

describe('withIntroSection: a service page whose hero band holds its <h1> and tagline', () => {
  it('reads the hero band as the introduction though its <h1> is the headline and its class word a banner', () => {
    const text = extract(service(logoBar)).text;
    expect(text).toContain('Information has never been a more valuable commodity');
    expect(text).toContain('Leverage the power of data analytics consulting for business-changing insights');
    expect(text).not.toContain('Contact our data analytics team');
  });

  it('leaves the hero out when running text of another section stands between it and the content', () => {
    const other = '<div class="promo"><p>We have worked with these advisors for ten years, and every one of their projects has paid for itself within the first year of the work.</p></div>';
    const text = extract(service(other)).text;
    expect(text).toContain('Information has never been a more valuable commodity');
    expect(text).not.toContain('Leverage the power of data analytics consulting');
  });

  it('leaves an article\'s header out', () => {
    const html = service(logoBar).replace('<title>', '<meta property="og:type" content="article"><title>');
    expect(extract(html).text).not.toContain('Leverage the power of data analytics consulting');
  });

  it('reads the hero of a page an SEO plugin calls an og:type article while its JSON-LD calls it a WebPage', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"Data analytics services"},{"@type":"Organization","name":"Example"}]}</script>';
    const html = service(logoBar).replace('<title>', `<meta property="og:type" content="article">${ld}<title>`);
    expect(extract(html).text).toContain('Leverage the power of data analytics consulting');
  });

  it('leaves the header of a page whose JSON-LD calls it a story out when its <h1> is the headline', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Data analytics services"}</script>';
    const html = service(logoBar).replace('<title>', `${ld}<title>`);
    expect(extract(html).text).not.toContain('Leverage the power of data analytics consulting');
  });
});

describe('withIntroSection: a hero whose running text sits in a part named after it', () => {
  const hero = `<div class="hero-banner"><h1>Data analytics services</h1>
<div class="hero-banner__wrapper"><p>Data is the lifeblood of the digital era, and the volume created and consumed keeps growing at a rapid pace with no sign of slowing.</p></div>
<div class="share"><a href="/share">Share this page</a></div></div>`;
  it('keeps the running text of the hero and leaves its share bar out', () => {
    const text = extract(service(logoBar).replace(/<div class="hero-banner">[\s\S]*?<\/a><\/div><\/div>/, hero)).text;
    expect(text).toContain('Data is the lifeblood of the digital era');
    expect(text).not.toContain('Share this page');
  });
});

describe('withIntroSection: a page of repeated items under a hero', () => {
  const card = (t: string): string => `<div class="card"><h3>${t}</h3><p>${t} turns your data into decisions, with a team that has done it for companies of every size and sector.</p><a href="/${t.length}">Learn more</a></div>`;
  const html = `<!doctype html><html lang="en"><head><title>Our services</title></head><body><div class="grid">
<div class="hero"><h1>Our services</h1><p>Whether you are starting up or in the Fortune 500, tap into a broad range of services, each built around the outcomes you care about.</p>
<div class="buttons">${['Contact us', 'Book a call', 'See our work', 'Read our reports', 'Join our team', 'Find an office'].map((t) => `<a href="/${t.length}">${t}</a>`).join(' ')}</div></div>
<div class="menu"><ul>${['Audit', 'Tax', 'Advisory', 'Consulting', 'Risk', 'Deals', 'Cloud', 'Cyber', 'Data', 'People', 'Finance', 'Supply chain', 'Legal', 'ESG', 'Private'].map((t) => `<li><a href="/s/${t}">${t} services overview</a></li>`).join('')}</ul></div>
<div class="cards">${['Strategy', 'Engineering', 'Governance', 'Security', 'Reporting', 'Analytics'].map(card).join('')}</div>
</div></body></html>`;
  it('reads the hero of a service page whose content is a grid of cards', () => {
    const text = extract(html).text;
    expect(text).toContain('Engineering turns your data into decisions');
    expect(text).toContain('tap into a broad range of services');
  });
});
