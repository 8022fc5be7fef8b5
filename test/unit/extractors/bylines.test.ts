import { dateInUrl, readDate } from '../../../src/extractors/dates';
import { extract } from '../../../src/extractors/text-density';

describe('dates as pages write them', () => {
  it('reads English, ISO, numeric and Chinese forms to the precision stated, with the offset the page gives', () => {
    expect(readDate('Updated on June 18, 2025 at 12:35 PM EDT')?.iso).toBe('2025-06-18T12:35:00-04:00');
    expect(readDate('Published 5th March 2024')?.iso).toBe('2024-03-05');
    expect(readDate('Dec. 18, 2025 · 6 min read')?.iso).toBe('2025-12-18');
    // Inline markup without spaces glues the date to the name before it.
    expect(readDate('ByKathryn GiuffridaMar 5, 2025 | 6 comments')?.iso).toBe('2025-03-05');
    // …and to the name after it.
    expect(readDate('Dec 17, 2025Julian K. Arni')?.iso).toBe('2025-12-17');
    expect(readDate('发布时间：2024年3月5日 10:20')?.iso).toBe('2024-03-05T10:20:00');
    expect(readDate('2024-03-05T09:30:00Z')?.iso).toBe('2024-03-05T09:30:00Z');
    expect(readDate('Sat Feb 24, 2024 12:41 pm')?.iso).toBe('2024-02-24T12:41:00');
    expect(readDate('Nov 25, 2025 5:00 am PST')?.iso).toBe('2025-11-25T05:00:00-08:00');
  });

  it('reads 12/03/2024 by the page locale, a first number above 12 as the day, and rejects impossible days', () => {
    expect(readDate('12/03/2024')?.iso).toBe('2024-12-03');
    expect(readDate('12/03/2024', true)?.iso).toBe('2024-03-12');
    expect(readDate('25/03/2024')?.iso).toBe('2024-03-25');
    expect(readDate('February 30, 2024')).toBeUndefined();
    expect(readDate('Call 555-0199 before 2024')).toBeUndefined();
  });

  it('finds dates in URL paths', () => {
    expect(dateInUrl('https://x.com/2025/12/18/the-december-comfort-watches/')).toBe('2025-12-18');
    expect(dateInUrl('https://x.com/articles/2025-12-15+Rust+GCC')).toBe('2025-12-15');
    expect(dateInUrl('https://x.com/products/2025')).toBeUndefined();
  });
});

describe('datelines and bylines near the headline', () => {
  const body = '<p>The council met on Tuesday evening and voted, after a long debate, to approve the river park plan.</p>'.repeat(4);

  it('takes the date the page shows under its headline over an older JSON-LD date, made precise by the metadata of that day', () => {
    const page = extract(`<html><head><title>River park approved</title>
      <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-01-29T20:47:55+00:00","dateModified":"2025-08-19T13:25:59+00:00"}</script>
      </head><body><article><h1>River park approved</h1><p class="byline">By Ana Ruiz</p><p class="date">Updated August 19, 2025</p>${body}</article></body></html>`);
    expect(page.published_at).toBe('2025-08-19T13:25:59+00:00');
    expect(page.modified_at).toBe('2025-08-19T13:25:59+00:00');
    expect(page.author).toBe('Ana Ruiz');
  });

  it('reads a "Written by" label with the name on the next line, and an author-named element', () => {
    const labelled = extract(`<html><head><title>Tool choices</title></head><body><main><h1>Tool choices</h1>
      <div><p>Written by</p><p>Edzel Tabing</p></div><p>March 4, 2025</p>${body}</main></body></html>`);
    expect(labelled.author).toBe('Edzel Tabing');
    expect(labelled.published_at).toBe('2025-03-04');
    const named = extract(`<html><head><title>Tool choices</title></head><body><main><h1>Tool choices</h1>
      <div class="post-meta"><span class="author-name">Stephen Jesudunsin</span></div>${body}</main></body></html>`);
    expect(named.author).toBe('Stephen Jesudunsin');
  });

  it('takes the byline over a JSON-LD "person" named like the site (the publisher), and skips label words', () => {
    const page = extract(`<html><head><title>Heart-healthy meals</title><meta property="og:site_name" content="British Heart Foundation">
      <script type="application/ld+json">{"@type":"Article","author":{"@type":"Person","name":"British Heart Foundation"}}</script></head>
      <body><article><h1>Heart-healthy meals</h1><p class="meta">Updated</p><p>By Tracy Parker, Dietitian</p>${body}</article></body></html>`);
    expect(page.author).toBe('Tracy Parker, Dietitian');
  });

  it('reads Chinese source, author and time lines', () => {
    const page = extract(`<html><head><title>长江大桥夜间实施交通管制</title></head><body><div class="article"><h1>长江大桥夜间实施交通管制</h1>
      <div class="info">来源：模拟日报 作者：张三 发布时间：2024年3月5日 10:20</div>
      <p>本报讯 市交管部门决定，自下周一起对长江大桥实施夜间交通管制，每晚十时至次日凌晨五时禁止货车通行，市民出行请提前规划路线，绕行其他过江通道。</p>
      <p>交管部门表示，管制期间将在大桥两端设置提示牌，并安排警力现场疏导，确保施工安全和道路通畅，给市民带来的不便敬请谅解。</p></div></body></html>`);
    expect(page.published_at).toBe('2024-03-05T10:20:00');
    expect(page.author).toBe('张三');
  });

  it('reads no Chinese sentence that mentions 发布 or 时间 before a date it quotes as a labelled dateline', () => {
    const page = extract(`<html><head><title>十年一遇最美月全食明晚登场</title></head><body><h1>十年一遇最美月全食明晚登场</h1>
      <p>http://www.example.cn2011-12-09北京晚报</p>
      <p>摘 要：明天将上演月全食，最精彩的全食时间有51分钟。这是继2001年1月10日之后，我国观测条件最好的一次月全食。</p>
      <p>按照天文台发布的观测方案，此次月全食的全过程到2011年12月10日凌晨结束，市民可在户外空旷处观赏。</p>
      <p>北京天文馆馆长介绍，月全食观测对天气要求相对来说并不苛刻，和赏月差不多，目前估计当晚是晴天，适合观测。</p></body></html>`);
    expect(page.published_at).toBe('2011-12-09');
  });

  it('gives a shown time without a zone the offset of the metadata stamp of the same minute (the day stays the page\'s)', () => {
    const page = extract(`<html><head><title>大桥夜间管制</title><meta property="article:published_time" content="2024-03-04T19:00:00Z"></head>
      <body><h1>大桥夜间管制</h1><div class="article-meta"><span class="pubtime">2024-03-05 03:00</span></div>
      <div class="article-content"><p>本报讯 市交管部门决定，自下周一起对长江大桥实施夜间交通管制，每晚十时至次日凌晨五时禁止货车通行，市民出行请提前规划路线。</p></div></body></html>`);
    expect(page.published_at).toBe('2024-03-05T03:00:00+08:00');
    expect(Date.parse(page.published_at!)).toBe(Date.parse('2024-03-04T19:00:00Z'));
  });

  it('keeps the metadata\'s publication day when the page shows an unlabelled later day (a thread\'s latest post, a re-check)', () => {
    // Each post carries its own microdata stamp (vBulletin), the first the thread's start.
    const post = (stamp: string): string => `<div class="post"><meta itemprop="datePublished" content="${stamp}">${body}</div>`;
    const thread = (stamp: string): string => `<html><head><title>Projector recommendations</title></head><body><h1>Projector recommendations</h1>
      <div class="meta"><span>${stamp}</span></div>${post('2024-01-03T11:23:42-05:00')}${post('2024-09-26T08:10:00-05:00')}</body></html>`;
    expect(extract(thread('Sep 26, 2024')).published_at).toBe('2024-01-03T11:23:42-05:00');
    // Labelled as the update, it is the last change's date all the more.
    const updated = extract(thread('Updated Sep 26, 2024'));
    expect(updated.published_at).toBe('2024-01-03T11:23:42-05:00');
    expect(updated.modified_at).toBe('2024-09-26');
    // A UTC stamp of the evening before is the shown day in Asia: a day apart is not later.
    const asia = extract(`<html><head><title>大桥夜间管制</title><meta property="article:published_time" content="2024-03-04T19:00:00Z"></head>
      <body><h1>大桥夜间管制</h1><div class="article-meta"><span>2024-03-05</span></div>
      <div class="article-content"><p>本报讯 市交管部门决定，自下周一起对长江大桥实施夜间交通管制，每晚十时至次日凌晨五时禁止货车通行，市民出行请提前规划路线。</p></div></body></html>`);
    expect(asia.published_at?.slice(0, 10)).toBe('2024-03-05');
  });

  it('reads a labelled dateline far from the headline, and a <meta name="published">, when nothing else dates the page', () => {
    const filler = '<p>Indexing services decide which journals researchers find first, and each has its own rules for inclusion.</p>'.repeat(40);
    const far = extract(`<html><head><title>Journal indexing</title></head><body><h1>Journal indexing</h1>${filler}
      <div class="date-section-header"><span>Posted on April 13, 2023</span></div></body></html>`);
    expect(far.published_at).toBe('2023-04-13');
    // An "Updated" line far away is the last change's date, not the publication's where the page states that too
    // (alone, it stands for both: data-dates.test.ts).
    const updated = extract(`<html><head><title>Journal indexing</title></head><body><h1>Journal indexing</h1>${filler}
      <div><span>Last updated July 18, 2025</span></div><div class="date-section-header"><span>Posted on April 13, 2023</span></div></body></html>`);
    expect(updated.published_at).toBe('2023-04-13');
    expect(updated.modified_at).toBe('2025-07-18');
    const meta = extract(`<html><head><title>Data tools</title><meta name="published" content="July 17, 2025"></head><body><h1>Data tools</h1>${body}</body></html>`);
    expect(meta.published_at?.slice(0, 10)).toBe('2025-07-17');
  });

  it('names the author from a link to their page whose address spells the name, a "Written by" box at the foot, a sailthru meta tag', () => {
    const linked = extract(`<html><head><title>IT security practices</title></head><body><h1>IT security practices</h1>
      <div class="meta"><svg></svg><span><a href="/authors/trevor-jackins">Trevor Jackins</a></span></div>${body}
      <ul><li><a href="/authors/all-authors">Our team</a></li></ul></body></html>`);
    expect(linked.author).toBe('Trevor Jackins');
    // A link to an author page whose text is not the name the address spells says nothing.
    const other = extract(`<html><head><title>IT security practices</title></head><body><h1>IT security practices</h1>${body}
      <a href="/team/ana-ruiz">Meet the team</a></body></html>`);
    expect(other.author).toBeUndefined();
    const filler = '<p>Indexing services decide which journals researchers find first, and each has its own rules for inclusion.</p>'.repeat(40);
    const signed = extract(`<html><head><title>Journal indexing</title></head><body><h1>Journal indexing</h1>${filler}
      <div class="author-bio">This post was written by Danielle Padula, Head of Community Development.</div></body></html>`);
    expect(signed.author).toBe('Danielle Padula');
    const sailthru = extract(`<html><head><title>Gooseneck kettles</title><meta name="sailthru.author" content="Jesse Porter"></head><body><h1>Gooseneck kettles</h1>${body}</body></html>`);
    expect(sailthru.author).toBe('Jesse Porter');
  });

  it('skips roles and headlines where a byline stands, and takes the meta tag\'s name where the byline runs on past it', () => {
    const role = extract(`<html><head><title>Go-to podcasts</title><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Linda Rosencrance"></head>
      <body><h1>Go-to podcasts</h1><div class="author-name">Contributing Writer</div>${body}</body></html>`);
    expect(role.author).toBe('Linda Rosencrance');
    const editorOf = extract(`<html><head><title>Perfect Privacy review</title><meta itemprop="author" content="Rob Mardisalu"></head>
      <body><h1>Perfect Privacy review</h1><p>By Editor of TheBestVPN.com</p>${body}</body></html>`);
    expect(editorOf.author).toBe('Rob Mardisalu');
    const headline = extract(`<html><head><title>Cheap earbuds</title><meta name="author" content="Bart Breij"></head>
      <body><h1>Cheap earbuds</h1><span class="byline">The Best Cheap Wireless Earbuds under $50</span>${body}</body></html>`);
    expect(headline.author).toBe('Bart Breij');
    const runOn = extract(`<html><head><title>Climate tech</title><meta name="author" content="Harsh Vaibhav"></head>
      <body><h1>Climate tech</h1><p>By Harsh Vaibhav Global Commons</p>${body}</body></html>`);
    expect(runOn.author).toBe('Harsh Vaibhav');
    // Names keep their particles and a team's lower-case noun.
    const particles = extract(`<html><head><title>HR roles</title></head><body><h1>HR roles</h1><p>By Marna van der Merwe</p>${body}</body></html>`);
    expect(particles.author).toBe('Marna van der Merwe');
  });

  it('reads the author from an author box anywhere, a "Contributors:" label, and a meta tag after an article:author that is a URL', () => {
    const filler = '<p>Indexing services decide which journals researchers find first, and each has its own rules for inclusion.</p>'.repeat(40);
    const box = extract(`<html><head><title>Marketing companies</title></head><body><h1>Marketing companies</h1>${filler}
      <div class="author"><img alt=""><p class="authorName">Podium Staff</p></div></body></html>`);
    expect(box.author).toBe('Podium Staff');
    const contributors = extract(`<html><head><title>Low-light plants</title></head><body><h1>Low-light plants</h1>
      <div class="tags"><div><strong>Contributors:</strong> Janet Loughrey</div></div>${body}</body></html>`);
    expect(contributors.author).toBe('Janet Loughrey');
    const facebook = extract(`<html><head><title>Gooseneck kettles</title><meta property="article:author" content="https://www.facebook.com/thespruceeats/">
      <meta name="sailthru.author" content="Jesse Porter"></head><body><h1>Gooseneck kettles</h1>${body}</body></html>`);
    expect(facebook.author).toBe('Jesse Porter');
  });

  it('reads the author from a card that pairs a portrait with the name it shows, not from a product shot beside its name', () => {
    const filler = '<p>Shared service centres pool payroll and records work so that every office follows one process.</p>'.repeat(30);
    const card = extract(`<html><head><title>HR shared services</title></head><body><h1>HR shared services</h1>${filler}
      <div class="blog_author-wrapper"><div><img alt="Lauren Vetter" src="/a.webp"></div><div><div class="text-semibold">Lauren Vetter</div><p>Marketer.</p></div></div></body></html>`);
    expect(card.author).toBe('Lauren Vetter');
    const round = extract(`<html><head><title>HR shared services</title></head><body><h1>HR shared services</h1>${filler}
      <a href="/about"><img class="w-16 h-16 rounded-full" alt="Christoffer Artmann, Engineer"><span>Christoffer Artmann</span></a></body></html>`);
    expect(round.author).toBe('Christoffer Artmann');
    const product = extract(`<html><head><title>HR shared services</title></head><body><h1>HR shared services</h1>${filler}
      <div class="product-card"><img alt="Birdbuddy Pro" src="/p.jpg"><h3>Birdbuddy Pro</h3></div></body></html>`);
    expect(product.author).toBeUndefined();
  });

  it('reads a microformats h-entry author before a reply\'s name near the headline, and a submission\'s data-author', () => {
    const filler = '<p>The project goals name the work the Rust teams mean to finish this year, each with an owner.</p>'.repeat(20);
    const mf = extract(`<html><head><title>Rust project goals</title></head><body><div class="story_liner h-entry"><h1>Rust project goals</h1>
      <div class="byline"><a class="u-author h-card" href="/~scvalex">scvalex</a></div></div>${filler}
      <div class="comment"><div class="byline"><a class="author" href="/~kbknapp">kbknapp</a></div><p>Nice list of goals.</p></div></body></html>`);
    expect(mf.author).toBe('scvalex');
    const card = extract(`<html><head><title>Rust project goals</title></head><body><h1>Rust project goals</h1>
      <div class="p-author h-card"><img src="/a.png" alt=""><span class="p-name">Ana Ruiz</span> <span class="p-note">writes about compilers</span></div>${filler}</body></html>`);
    expect(card.author).toBe('Ana Ruiz');
    const submission = extract(`<html><head><title>Hair follicles grown</title></head><body><h1>Hair follicles grown</h1>
      <div class="thing link" data-author="InsaneSnow45" data-subreddit="science">${filler}</div></body></html>`);
    expect(submission.author).toBe('InsaneSnow45');
  });

  it('trims a byline to the name its author-page link holds and a JSON-LD person to the byline\'s, keeps a second author, prefers a meta tag\'s person to a desk byline, and names a personal blog\'s owner', () => {
    const linked = extract(`<html><head><title>DC motors</title></head><body><h1>DC motors</h1>
      <p>By <a href="/magazine/contributor/a._j._neal">A. J. Neal</a>&nbsp;&nbsp;<a href="/digital" class="btn">View In Digital Edition</a></p>${body}</body></html>`);
    expect(linked.author).toBe('A. J. Neal');
    const two = extract(`<html><head><title>Loyalty issues</title><meta name="author" content="Alan Woinski"></head><body><h1>Loyalty issues</h1>
      <p>By Alan Woinski and Kim Woinski</p>${body}</body></html>`);
    expect(two.author).toBe('Alan Woinski and Kim Woinski');
    const ld = extract(`<html><head><title>Price guide</title><script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person","name":"David Jackson - FullStack Editorial Team"}}</script></head>
      <body><h1>Price guide</h1><p>By David Jackson</p>${body}</body></html>`);
    expect(ld.author).toBe('David Jackson');
    const desk = extract(`<html><head><title>AI in healthcare</title><meta name="author" content="Jay Berstein"></head>
      <body><h1>AI in healthcare</h1><p>By Aidoc Staff</p>${body}</body></html>`);
    expect(desk.author).toBe('Jay Berstein');
    const blog = extract(`<html><head><title>Debusine transitions</title><meta property="og:site_name" content="Colin Watson&#39;s blog"></head><body><h1>Debusine transitions</h1>${body}</body></html>`);
    expect(blog.author).toBe('Colin Watson');
  });

  it('reads the name a dateline gives after its date, near the headline only (not a teaser\'s further down)', () => {
    const dot = extract(`<html><head><title>What do people love about Rust?</title></head><body><h1>What do people love about Rust?</h1>
      <div class="publish-date-author">Dec. 19, 2025 &middot; Niko Matsakis on behalf of <a href="/governance">the Rust team</a></div>${body}</body></html>`);
    expect(dot.author).toBe('Niko Matsakis');
    const by = extract(`<html><head><title>Gardenary planting</title></head><body><h1>Gardenary planting</h1>
      <div class="publish-meta"><span>Published August 7, 2023</span> <span>by Nicole Burke</span></div>${body}</body></html>`);
    expect(by.author).toBe('Nicole Burke');
    const filler = '<p>Tutoring is a partnership: the tutor asks questions, and the student does the thinking and the work.</p>'.repeat(30);
    const teaser = extract(`<html><head><title>What tutoring is</title></head><body><h1>What tutoring is</h1><p class="date">February 9, 2016</p>${filler}
      <article class="preview"><h2><a href="/next">Career week</a></h2><p class="meta">October 28, 2025 by Mariel Sheets | Community</p></article></body></html>`);
    expect(teaser.author).toBeUndefined();
  });

  it('falls back to a date in the URL when the page shows none', () => {
    const page = extract(`<html><head><title>Comfort watches</title></head><body><h1>Comfort watches</h1>${body}</body></html>`,
      { url: 'https://whatever.example.com/2025/12/18/comfort-watches/' });
    expect(page.published_at).toBe('2025-12-18');
  });

  it('takes a name alone under the headline as the byline when a bio of that person on the page confirms it, not without', () => {
    const page = (bio: string): string => `<html lang="en"><head><title>Travel hacks for your hotel stay</title></head><body><article>
      <h1>Make the most of your stay with these 10 travel hacks.</h1><p><span style="color:#808080">Julia Gralberg</span></p><h2>Hotel Travel Hacks</h2>
      ${'<p>Although you might have booked an epic hotel, there are always tips and tricks to make your stay that little bit more amazing.</p>'.repeat(8)}
      <p><img src="/julia.jpg" alt="Julia Gralberg"></p><p>${bio}</p></article></body></html>`;
    expect(extract(page('Julia Gralberg is a freelance travel writer, editor of Hotel &amp; Resort Guide and founder of a communications consultancy.')).author).toBe('Julia Gralberg');
    expect(extract(page('Our editors test every tip on the road before we publish it, from the lobby to the late checkout.')).author).toBeUndefined();
  });

  it('reads a byline whose name opens with a digit glued to letters ("By 3i Global"), not a number', () => {
    const page = (by: string): string => `<html lang="en"><head><title>How does robot vacuum mapping work?</title></head><body><article>
      <h1 class="h0">How does robot vacuum mapping work?</h1><div class="article__meta"><p><time>Feb 6, 2025</time></p><p>${by}</p></div>
      ${'<p>Robot vacuums map a home with lidar or cameras, then plan a path room by room so that no patch of floor is missed or cleaned twice.</p>'.repeat(4)}</article></body></html>`;
    expect(extract(page('By 3i Global')).author).toBe('3i Global');
    expect(extract(page('By 2 editors')).author).toBeUndefined();
  });

  it('leaves the mailbox after a name out of it ("Author: Vinay Sajip <vinay_sajip at red-dove dot com>")', () => {
    // Python documentation shape: a field list under the headline.
    const page = extract(`<html lang="en"><head><title>Logging HOWTO</title></head><body><h1>Logging HOWTO</h1>
      <dl class="field-list simple"><dt class="field-odd">Author<span class="colon">:</span></dt><dd class="field-odd"><p>Vinay Sajip &lt;vinay_sajip at red-dove dot com&gt;</p></dd></dl>
      ${'<p>Logging is a means of tracking events that happen when some software runs, and the developer adds logging calls to the code.</p>'.repeat(4)}</body></html>`);
    expect(page.author).toBe('Vinay Sajip');
  });
});

describe('a desk\'s name beside the dateline of a page without an <h1>', () => {
  // Shape of a real page (WCXB dev, tune part): a site builder's blog post whose headline is a
  // styled <p>, titled with the site's name after it, its byline a desk above the date.
  const post = (byline: string) => extract(`<html lang="en"><head><title>Top 5 HR Management Software in 2026 | DianaHR</title>
    <meta property="og:title" content="Top 5 HR Management Software in 2026 | DianaHR"></head><body><div class="hero">
    <p class="hero-title">Top 5 HR Management Software in 2026</p><p class="hero-title">Top 5 HR Management Software in 2026</p>
    <div><p>${byline}</p><p>Feb 16, 2026</p></div></div><main>
    ${'<p>Global market data shows HR management software keeps growing, and most organisations now run at least one such system for payroll and leave.</p>'.repeat(4)}
    </main></body></html>`);

  it('is the byline under the line that is the title\'s own part', () => {
    expect(post('DianaHR Team').author).toBe('DianaHR Team');
  });

  it('is no heading that names a team ("Meet the Team")', () => {
    expect(post('Meet the Team').author).toBeUndefined();
  });
});

describe('an author card\'s other slots and a quoted customer are no byline', () => {
  const article = '<p>Mobile apps for field service teams now cover scheduling, invoicing and customer messages in one place for small firms.</p>'.repeat(4);

  it('reads the name, not the job title beside it ("VP - Technology" in an `author_des` slot)', () => {
    const card = extract(`<html><head><title>App costs</title></head><body><div class="blog_writer"><span class="author_nm">Chirag Bhardwaj</span></div>
      <div class="blog_writer"><i class="author_des">VP - Technology</i></div><h1>App costs</h1>${article}</body></html>`);
    expect(card.author).toBe('Chirag Bhardwaj');
  });

  it('takes no job title for a name ("Marketing Operations Analyst", "Industry Professional")', () => {
    const position = extract(`<html><head><title>Ecommerce analytics</title></head><body><h1>Ecommerce analytics</h1>
      <div class="blog-author-text"><span class="blog-author-text-position">Marketing Operations Analyst</span></div>${article}</body></html>`);
    expect(position.author).toBeUndefined();
    const testimonial = extract(`<html><head><title>Field service</title></head><body><h1>Field service</h1>${article}
      <blockquote>It took my business to another level.</blockquote><p class="testimonial-author-name">Sarah M.</p>
      <span class="quote-author-firm">Industry Professional</span></body></html>`);
    expect(testimonial.author).not.toBe('Industry Professional');
  });
});

describe('a list of names beside the dateline under the headline', () => {
  // Shape of a paper's summary page: its authors listed without a "By", a related paper's card below naming its own.
  const article = '<p>The information bottleneck method finds the relevant part of a signal about another signal, and compresses the rest away.</p>'.repeat(35);
  const paper = extract(`<html><head><title>The information bottleneck method</title></head><body><h1>The information bottleneck method</h1>
    <div><p>Naftali Tishby, Fernando C. Pereira, William Bialek</p><time datetime="2000-04-24">Apr 24, 2000</time></div>${article}
    <div class="card"><h3>Efficient diffusion models</h3><span rel="author">Xinyin Ma</span></div></body></html>`);

  it('is the byline, ahead of an author element on a related card further down', () => {
    expect(paper.author).toBe('Naftali Tishby, Fernando C. Pereira, William Bialek');
  });
});

describe('an author box whose label stands wrapped on its own, and whose card opens with an initials avatar', () => {
  // Shape of a CSS-in-JS page: a <style> beside each styled element, the box far below the headline.
  const article = '<p>Token counts decide what a model can read at once, and counting them ahead of time keeps prompts inside the window.</p>'.repeat(35);
  const post = extract(`<html><head><title>Token counting</title></head><body><h1>Token counting</h1>${article}
    <div><style>.e{color:grey}</style><span>Author</span></div><style>.s{gap:8px}</style><div><div><div><span>CP</span></div><div><div><span>Chengcheng Pei</span></div>
    <span>Staff Software Engineer, MongoDB</span></div></div><div><div><span>YL</span></div><div><div><span>Yuan Lin</span></div>
    <span>Director of Engineering, MongoDB</span></div></div><p>${'Both work on the database team, where they build tools for developers. '.repeat(3)}</p></div></body></html>`);

  it('names the card\'s first person, not the avatar\'s initials', () => {
    expect(post.author).toBe('Chengcheng Pei');
  });

  it('reads past the initials under an "Author" label beside the headline', () => {
    const near = extract(`<html><head><title>Token counting</title></head><body><h1>Token counting</h1>
      <p>Author</p><p>CP</p><p>Chengcheng Pei</p>${article}</body></html>`);
    expect(near.author).toBe('Chengcheng Pei');
  });
});

describe('a dateline\'s name wherever its parts put it', () => {
  const article = '<p>Video production runs from the brief through the shoot to the edit, and each stage has its own checklist and owner.</p>'.repeat(4);
  const under = (line: string) => extract(`<html><head><title>Video production</title></head><body><h1>Video production</h1>${line}${article}</body></html>`).author;

  it('cuts a name at a dash glued to it ("by Jacob Trussell—10 min read")', () => {
    expect(under('<p>by <strong>Jacob Trussell</strong>&mdash;10 min read</p>')).toBe('Jacob Trussell');
  });

  it('reads the name after a reading time and a word count, and the name before the date', () => {
    expect(under('<div class="post-meta"><span>December 15, 2025</span>&nbsp;·&nbsp;30 min&nbsp;·&nbsp;6279 words&nbsp;·&nbsp;Ash Vardanian</div>')).toBe('Ash Vardanian');
    expect(under('<div class="entry-meta"><a>Mike Kappel</a> <span>May 18, 2016</span></div>')).toBe('Mike Kappel');
    // A date's label before it is no name.
    expect(under('<div class="entry-meta">Last Updated May 18, 2016</div>')).toBeUndefined();
  });
});

describe('a byline that runs on into a sentence', () => {
  it('ends the name at the sentence ("By Jeff Cobb. Last Updated on December 11, 2025")', () => {
    const html = `<html><head><title>Course platforms</title></head><body><h1>Course platforms</h1>
      <div>By <a>Jeff Cobb</a>.&nbsp; Last Updated on December 11, 2025</div>
      ${'<p>Online course platforms host lessons, take payments and track learners, and each suits a different kind of teacher.</p>'.repeat(4)}</body></html>`;
    expect(extract(html).author).toBe('Jeff Cobb');
  });
});
