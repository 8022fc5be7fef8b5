import { extract } from '../../../src/extractors/text-density';

/** Shapes of real pages (WCXB dev, tune part): Thomson Reuters, The Columbia Star, ASU Online, Celoxis, Zalaris. */
const para = '<p>Choosing the right software comes down to the size of the practice, the returns it files and the support it needs in the busy season.</p>'.repeat(4);

describe('author: the person the page names, not its publisher', () => {
  it('puts a byline naming the site itself after the person a meta tag names', () => {
    const page = extract(`<html lang="en"><head><title>The best tax software for tax preparers</title>
      <meta name="author" content="Abby Colson"><meta property="og:site_name" content="Tax &amp; Accounting Blog Posts by Thomson Reuters"></head>
      <body><header class="article-hero"><h1 class="article-hero__title">The best tax software for tax preparers</h1>
      <p class="article-hero__author">Thomson Reuters Tax &amp; Accounting</p><time>August 11, 2025</time></header>${para}</body></html>`,
    { url: 'https://tax.thomsonreuters.com/blog/the-best-tax-software-for-tax-preparers-a-buyers-guide/' });
    expect(page.author).toBe('Abby Colson');
  });

  it('takes no mailbox for the author where a person is named, and drops a "By" inside JSON-LD', () => {
    const page = extract(`<html lang="en"><head><title>Green gifts for gardeners</title>
      <meta name="author" content="ops@our-hometown.com">
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"NewsArticle","headline":"Green gifts for gardeners","author":"ops@our-hometown.com"},
        {"@type":"Article","author":[{"@type":"Person","name":"By Arlene Marturano"}]}]}</script></head>
      <body><h1>Green gifts for gardeners</h1>${para}</body></html>`);
    expect(page.author).toBe('Arlene Marturano');
  });

  it('keeps a mailbox when it is all the page names', () => {
    const page = extract(`<html lang="en"><head><title>Designing the future</title><meta name="author" content="beatriz.pinto@hommes.studio"></head>
      <body><h1>Designing the future</h1>${para}</body></html>`);
    expect(page.author).toBe('beatriz.pinto@hommes.studio');
  });
});

describe('author: bylines written as parts of a dateline', () => {
  it('reads the "By" part of a dateline split by separators', () => {
    const page = extract(`<html lang="en"><head><title>Graphic information technology vs. graphic design</title></head><body>
      <h1>Graphic information technology vs. graphic design</h1><div class="fs-small">March 15, 2022 · 3 min read · By ASU Online</div>${para}</body></html>`);
    expect(page.author).toBe('ASU Online');
  });

  it('reads the name on the line after a date that ends with a separator', () => {
    const page = extract(`<html lang="en"><head><title>Project management software pricing and cost guide</title></head><body>
      <h1>Project management software pricing and cost guide</h1><p>Dec 26, 2025 •</p><p>Mahua Das in Project Management</p>${para}</body></html>`);
    expect(page.author).toBe('Mahua Das');
  });

  it('takes a bare name beside the dateline under the headline, but not a heading or a label there', () => {
    const page = extract(`<html lang="en"><head><title>HR shared services explained</title></head><body>
      <h1>HR shared services explained</h1><p>HR shared services have evolved into a cornerstone of modern HR operating models.</p>
      <p>Elliot Raba</p><p>23.07.2025 · 6 min read</p>${para}</body></html>`);
    expect(page.author).toBe('Elliot Raba');
    const none = extract(`<html lang="en"><head><title>Social shopping explained</title></head><body>
      <h1>Social shopping explained</h1><time>June 26, 2025</time><p>Verified Purchase</p><h4>Table Contents</h4>${para}</body></html>`);
    expect(none.author).toBeUndefined();
  });
});

describe('author: the owner of a personal blog', () => {
  const post = (site: string, copyright: string): string => `<html lang="en"><head><title>Turning a tinybox Green v2 into a Private AI Home Server | ${site}</title>
    <meta property="og:site_name" content="${site}"></head><body><h1>Turning a tinybox Green v2 into a Private AI Home Server</h1>${para}
    <footer><p>${copyright}</p></footer></body></html>`;

  it('is the person the site is named for on a writer\'s own subdomain of a blog platform', () => {
    expect(extract(post('Owain Brennan', 'Made with Bear'), { url: 'https://owain.bearblog.dev/turning-a-tinybox-green-v2' }).author).toBe('Owain Brennan');
  });

  it('is nobody on a business\'s subdomain or a host that merely spells the name', () => {
    expect(extract(post('Flask Documentation', '© 2010 Pallets'), { url: 'https://flask.palletsprojects.com/en/stable/' }).author).toBeUndefined();
    expect(extract(post('Menlo Coaching', '© 2025 Menlo Coaching'), { url: 'https://menlocoaching.com/top-mba-programs/' }).author).toBeUndefined();
  });
});

describe('author: a call to action is no name', () => {
  it('does not read "Get in touch" heading an author card as a byline', () => {
    const page = extract(`<html lang="en"><head><title>Skiplagging in the relocation process</title><meta name="author" content="Chris Pardo"></head><body>
      <time class="localised-date">10/12/2023 7:38:01 PM</time><h1 class="post-view__title">Skiplagging in the relocation process</h1>
      <div class="post-view__author-card"><h4>Get in touch</h4><div class="author-name">Chris Pardo</div><div class="author-role">Vice President of Consulting</div></div>
      ${para}</body></html>`);
    expect(page.author).toBe('Chris Pardo');
  });

  it("takes the author a tag manager's data layer names where the markup names none, and no number for a name", () => {
    const html = (author: string): string => `<html lang="en"><head><title>Language learning apps compared</title>
      <script data-cfasync="false">var dataLayer_content = {"pagePostType":"page","pagePostType2":"single-page","pagePostAuthor":"${author}"}; dataLayer.push(dataLayer_content);</script></head>
      <body><nav><a href="/about-krystyna/">Meet Krystyna</a></nav><h1>Language learning apps compared</h1>${para}</body></html>`;
    expect(extract(html('Krystyna')).author).toBe('Krystyna');
    expect(extract(html('667')).author).toBeUndefined();
  });

  it("names a personal site's owner from its footer's copyright line when the address or the masthead shows the name, not a business's", () => {
    const page = (footer: string, head = ''): string => `<html lang="en"><head><title>The 7 habits of highly ineffective agents</title>${head}</head>
      <body><header>${head ? '' : '<a href="/">Home</a>'}</header><main><article><h1>The 7 habits of highly ineffective agents</h1>${para}</article></main>
      <footer>${footer}<div class="social-links"><a href="/rss.xml">RSS</a></div></footer></body></html>`;
    expect(extract(page('&copy; 2025 Toby Hede. All rights reserved.'), { url: 'https://tobyhede.com/blog/the-7-habits' }).author).toBe('Toby Hede');
    // The masthead shows the name (an <h1> above the post) where the address does not spell it.
    const masthead = page('&copy; 2025 Cassidy Williams.').replace('<header><a href="/">Home</a></header>', '<header><h1>Cassidy Williams</h1><h2>Software Engineer in Chicago</h2></header>');
    expect(extract(masthead, { url: 'https://cassidoo.co/post/dot-github' }).author).toBe('Cassidy Williams');
    // A name the address does not spell and no headline shows, and the site's own name, are no author.
    expect(extract(page('&copy; 2025 Toby Hede. All rights reserved.'), { url: 'https://example.com/blog/the-7-habits' }).author).toBeUndefined();
    expect(extract(page('&copy; 2026 Solo Stove.', '<meta property="og:site_name" content="Solo Stove">'), { url: 'https://www.solostove.com/blog/x' }).author).toBeUndefined();
    expect(extract(page('Copyright &copy; 2026 Site Search 360.'), { url: 'https://www.sitesearch360.com/blog/x' }).author).toBeUndefined();
  });

  it('takes the writer a "Written by" line names over a byline naming only a desk', () => {
    const page = (foot: string): string => `<html lang="en"><head><title>Best practices for query optimization in Postgres</title></head><body><article>
      <h1>Best practices for query optimization in Postgres</h1><a href="/blog/author/team"><img alt="Team Tiger Data" class="rounded-full" src="/logo.png"><p>By Team Tiger Data</p></a>
      ${para.repeat(3)}<p>${foot}</p></article></body></html>`;
    expect(extract(page('Written by <a href="https://pt.w3d.community/paulogio">Paulinho Giovannini</a>')).author).toBe('Paulinho Giovannini');
    expect(extract(page('Thanks for reading.')).author).toBe('Team Tiger Data');
  });

  it("takes no commenter's name box for the author, but the post's author box", () => {
    const html = `<html lang="en"><head><title>The 15 best strategy games of 2025 so far</title></head><body><main>
      <h1>The 15 best strategy games of 2025 so far</h1>${para}
      <ol class="wp-block-comment-template"><li><div class="wp-block-comment-author-name has-small-font-size">fullysecret1dbb6551f4</div>
      <div class="wp-block-comment-content"><p>Great list, though I would have put the new tactics game higher than the city builder this year.</p></div></li></ol></main>
      <aside>${Array.from({ length: 40 }, (_, i) => `<p><a href="/p/${i}">Older post ${i}</a></p>`).join('')}
      <div class="wp-block-post-author"><p class="wp-block-post-author__byline">Written by</p><p class="wp-block-post-author__name"><a href="/author/sw/">Sir Nuno</a></p></div></aside></body></html>`;
    expect(extract(html).author).toBe('Sir Nuno');
  });
});


/** Shapes of real pages (WCXB dev, tune part): Global Traveler, Pastore LLC (a WordPress login as the metadata's author). */
describe('author: a labelled byline over a metadata author the page never shows', () => {
  const yoast = (login: string, body: string): string => `<html lang="en"><head><title>What are the top U.S. rental car companies of 2025?</title>
    <meta name="author" content="${login}"><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="${login}">
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article","headline":"What are the top U.S. rental car companies of 2025?",
      "author":{"name":"${login}","@id":"https://example.org/#/schema/person/1"}},{"@type":"Person","@id":"https://example.org/#/schema/person/1","name":"${login}"}]}</script></head>
    <body><h1>What are the top U.S. rental car companies of 2025?</h1>${body}${para}</body></html>`;

  it('takes the name after "by" (in an author link) over a login only the metadata states', () => {
    const page = extract(yoast('KatieS', `<p>by <a href="/authors/aoife-oriordan/" class="author-link"><span>Aoife O'Riordan</span></a></p>
      <span class="date mb-5">Oct 22, 2025</span>`));
    expect(page.author).toBe("Aoife O'Riordan");
  });

  it('takes a "By:" line over a metadata person the page never names', () => {
    const page = extract(yoast('Luke Daigle', '<p>November 3, 2023</p><div class="by-div"><p>By: Paul Fenaroli</p></div>'));
    expect(page.author).toBe('Paul Fenaroli');
  });

  it('keeps the metadata person the page shows (an author box), and one a desk byline stands in for', () => {
    const shown = extract(yoast('Marna van der Merwe', `<p>By Monika Nemcova</p><p>May 5, 2025</p>${para}<div class="bio"><p>Marna van der Merwe leads research.</p></div>`));
    expect(shown.author).toBe('Marna van der Merwe');
    const desk = extract(yoast('Jay Berstein', '<p>By Aidoc Staff</p><p>May 5, 2025</p>'));
    expect(desk.author).toBe('Jay Berstein');
  });

  // Shapes of real pages (WCXB dev, tune part): a remodeler's blog, a fitness app's blog.
  it('takes the site\'s own name a "Written by" line credits, and a desk the author box signs again', () => {
    const site = extract(yoast('Max Mittler', '<p>Written by Model Remodel</p><p>January 30, 2025</p>'), { url: 'https://modelremodel.com/blog/remodel-rebuild-renovate/' });
    expect(site.author).toBe('Model Remodel');
    const box = (foot: string): string => yoast('Thao Dinh', `<div class="everfit-author"><div class="everfit-author-name"><a href="/author/everfit" title="Everfit Team">Everfit Team</a></div>
      <div class="everfit-author-date">November 8, 2025</div></div>${para}${foot}`);
    expect(extract(box('<div class="author-box"><p>Written by Everfit Team</p></div>')).author).toBe('Everfit Team');
    expect(extract(box('')).author).toBe('Thao Dinh');
  });
});

/** Shape of a real page (WCXB dev, tune part): an academic's project page, its maintainer signing its foot. */
describe('author: a dated signature at the foot of the page', () => {
  const page = (signature: string): string => `<html><head><title>The Fold-and-Cut Problem</title></head><body>
    <h1><a href="../">Ana Ruiz</a>'s <a href="../folding/">Folding and Unfolding</a>: The Fold-and-Cut Problem</h1>${para}
    <div class="purplebox"><i>${signature}</i> &mdash; <a href="https://accessibility.example.edu">Accessibility</a></div></body></html>`;

  it('names who keeps the page from "Last updated <date> by <name>."', () => {
    expect(extract(page('Last updated March 3, 2025 by <a href="http://example.org/">Erik Demaine</a>.')).author).toBe('Erik Demaine');
  });

  it('reads no name where the date does not follow the label or no name follows "by"', () => {
    expect(extract(page('Last updated for the new season, March 3, 2025 by <a href="http://example.org/">Erik Demaine</a>.')).author).toBeUndefined();
    expect(extract(page('Last updated March 3, 2025 by the editors.')).author).toBeUndefined();
  });
});
