import { labelledDate } from '../../../src/extractors/bylines';
import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { dateInUrl, readDate, writesDayFirst } from '../../../src/extractors/dates';
import { normalizeDate } from '../../../src/extractors/published';
import { extract } from '../../../src/extractors/text-density';

/** Shapes of real pages (WCXB dev, tune part): Discourse, vBulletin, phpBB, NPR, realestate.com.au, WSET. */
const para = '<p>The integration stopped loading after the upgrade, and the log shows the same warning at every start of the server.</p>'.repeat(4);

describe('readDate', () => {
  it('reads every form with a year of the 1900s or 2000s (the year pre-check), and the first date of a line', () => {
    expect(readDate('Posted March 5, 1999 at 9:05 PM EST')).toMatchObject({ iso: '1999-03-05T21:05:00-05:00', index: 7 });
    expect(readDate('5th Mar, 2031')?.iso).toBe('2031-03-05');
    expect(readDate('发布时间：1998年3月5日 10:20')?.iso).toBe('1998-03-05T10:20:00');
    expect(readDate('13/05/2004', false)?.iso).toBe('2004-05-13');
    expect(readDate('2024-03-05 10:00 Updated March 9, 2024')).toMatchObject({ iso: '2024-03-05T10:00:00', index: 0 });
    expect(readDate('Mar 9, 2024 · 2024-03-05')).toMatchObject({ iso: '2024-03-09', index: 0 });
    // A later form that starts first wins over an earlier form further on.
    expect(readDate('on 03/04/2021, then 2024-03-05')?.iso).toBe('2021-03-04');
    // Month names (the month pre-check) in either case, beside Chinese text and after digits.
    expect(readDate('张三 · 5 MAY 2024 10:20')?.iso).toBe('2024-05-05T10:20:00');
    expect(readDate('评论 12 条 · Dec. 19, 2025')?.iso).toBe('2025-12-19');
    expect(readDate('张三2026-01-05 10:00')?.iso).toBe('2026-01-05T10:00:00');
    // Dotted numeric dates are written day first (German, Russian pages), whatever the locale says.
    expect(readDate('Veröffentlicht am 05.03.2024', false)).toMatchObject({ iso: '2024-03-05', alt: '2024-05-03' });
    expect(readDate('03/05/2024', false)?.iso).toBe('2024-03-05');
    expect(readDate('March 5, 1899')).toBeUndefined();
    expect(readDate('No date here, only 42 and 3/5')).toBeUndefined();
  });
});

describe('labelledDate', () => {
  const blocks = (html: string) => toBlocks(parseHtml(`<html><body>${html}</body></html>`));

  it('skips a member\'s join date whichever label it carries, and reads the labelled date after it', () => {
    const b = blocks('<p>Joined: Posted March 5, 2019</p><p>Updated Jan 2, 2021</p><p>The story so far.</p><p>Published April 2, 2024</p><p>Member since: Last updated May 1, 2018</p><p>Originally published registered June 1, 2017</p><p>First published on July 9, 2015</p>');
    expect(labelledDate(b, false)).toBe('2024-04-02');
    expect(labelledDate(b, false, 'updated')).toBe('2021-01-02');
    expect(labelledDate(b, false, 'original')).toBe('2015-07-09');
    expect(labelledDate(blocks('<p>Registered: Posted March 5, 2019</p>'), false)).toBeUndefined();
  });
});

describe('publication dates: what the page states, read as the page means it', () => {
  it('does not read a version number in the headline as its date', () => {
    const page = extract(`<html lang="en"><head><title>2024.4.4 -> 2024.5.0 issue: stuck on "Home Assistant is starting"</title></head><body>
      <h1>2024.4.4 -> 2024.5.0 issue: stuck on "Home Assistant is starting"</h1>
      <div class="topic-meta"><span>raoul</span><span class="post-time">May 3, 2024, 8:45am</span></div>${para}</body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2024-05-03');
  });

  it('reads the dashed month-first dates of vBulletin posts', () => {
    expect(readDate('11-29-2024, 09:03 AM #1')?.iso).toBe('2024-11-29T09:03:00');
    expect(readDate('29-11-2024', true)?.iso).toBe('2024-11-29');
    const page = extract(`<html lang="en"><head><title>Thread: What do you pay attention to?</title></head><body>
      <h1>Thread: What do you pay attention to?</h1><div class="posthead">11-29-2024, 09:03 AM</div>${para}</body></html>`);
    expect(page.published_at).toBe('2024-11-29T09:03:00');
  });

  it('takes a date stated as the first publication over an update shown beside it, and over the dateline when stated at the foot', () => {
    const npr = extract(`<html lang="en"><head><title>Daily meditation may work as well as a popular drug</title></head><body><article>
      <h1>Daily meditation may work as well as a popular drug</h1>
      <div class="dateblock"><time datetime="2022-11-11T20:23:00-05:00">Updated November 11, 2022 8:23 PM ET Originally published November 9, 2022 11:01 AM ET</time></div>
      ${para}</article></body></html>`);
    expect(npr.published_at).toBe('2022-11-09T11:01:00');
    const foot = extract(`<html lang="en"><head><title>Pros and cons of living in a tiny home</title></head><body><article>
      <h1>Pros and cons of living in a tiny home</h1><p>30 September 2022</p>${para}
      <p class="disclaimer">This article was originally published on 26 Sep 2019 at 4:12pm but has been regularly updated.</p></article></body></html>`);
    expect(foot.published_at).toBe('2019-09-26T16:12:00');
  });

  it('reads a numeric date that could be either way as the metadata or the URL states it', () => {
    const byMeta = extract(`<html lang="en"><head><title>Reflections on a pixel-perfect UI pipeline</title>
      <meta property="article:published_time" content="2025-12-02"></head><body><article>
      <h1>Reflections on a pixel-perfect UI pipeline</h1><p>Bence Kovács</p><p>02-12-2025</p>${para}</article></body></html>`);
    expect(byMeta.published_at).toBe('2025-12-02');
    const byUrl = extract(`<html lang="en"><head><title>How many wine types and styles are there?</title></head><body><article>
      <h1>How many wine types and styles are there?</h1><p>03/10/2023 by WSET Global</p>${para}</article></body></html>`,
    { url: 'https://www.wsetglobal.com/knowledge-centre/blog/2023/october/03/how-many-wine-types-and-styles-are-there/' });
    expect(byUrl.published_at).toBe('2023-10-03');
    expect(dateInUrl('https://x.org/blog/2023/october/03/wine/')).toBe('2023-10-03');
  });

  it('tells a plain-"en" page that writes the day first by its own dates', () => {
    expect(writesDayFirst('Posted 13/10/2023\nsee also 3/10/2023')).toBe(true);
    expect(writesDayFirst('Posted 10/13/2023')).toBe(false);
    expect(writesDayFirst('3 October 2023\n12 October 2023\nOctober 1, 2023')).toBe(true);
    expect(writesDayFirst('October 3, 2023')).toBe(false);
    const page = extract(`<html lang="en"><head><title>Vintage report</title></head><body><article>
      <h1>Vintage report</h1><p>04/03/2024</p>${para}<ul><li>Harvest notes - 13 February 2024</li><li>Cellar diary - 2 January 2024</li></ul></article></body></html>`);
    expect(page.published_at).toBe('2024-03-04');
  });

  it('does not take a poster profile\'s "Founded:" date for the thread\'s', () => {
    const page = extract(`<html lang="en-gb"><head><title>Football season thread</title></head><body><h1>Football season thread</h1>
      <dl class="postprofile"><dt>Outer Armatonisdaristan</dt><dd>Founded: Dec 11, 2021</dd></dl>
      <p class="author">by Outer Armatonisdaristan » Tue Aug 27, 2019 1:47 am</p>${para}</body></html>`);
    expect(page.published_at).toBe('2019-08-27T01:47:00');
  });

  it('reads a JSON-LD block whose strings hold raw line breaks (a post body pasted in), not the first date of the raw page', () => {
    const page = extract(`<html lang="en"><head><title>Official Nintendo Direct Partner Showcase Discussion Thread</title>
      <script type="application/ld+json">{"@type":"VideoGame","name":"Nintendo Switch","datePublished":"2017-03-03",}</script>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Official Nintendo Direct Partner Showcase",
      "articleBody": "No YT stream link this time.\nThe VOD will just go up on their channel\tin exactly 1 hour from now. ", "datePublished": "2024-02-21 13:00:00"}</script>
      </head><body><h1>Official Nintendo Direct Partner Showcase Discussion Thread</h1>${para}</body></html>`);
    expect(page.published_at).toBe('2024-02-21T13:00:00');
  });

  it('takes a forum\'s first post time far below the headline when it is the metadata\'s stamp on the site\'s clock', () => {
    const tools = ['Reply', 'Subscribe', 'Thread Tools', 'Search this Thread', 'Show Printable Version', 'Email this Page', 'Display Modes',
      'Linear Mode', 'Hybrid Mode', 'Threaded Mode', 'Rate This Thread', 'Bookmarks', 'Share', 'Old', 'Page 1 of 2'].map((t) => `<p class="tool">${t}</p>`).join('');
    const page = extract(`<html lang="en"><head><title>Scenic Turkish and French sights with lowjhg</title>
      <script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Scenic Turkish and French sights","datePublished":"2026-02-15 03:05:48"}</script></head>
      <body><h1>Scenic Turkish and French sights with lowjhg</h1>${tools}<div class="post-date">Feb 14, 2026 | 9:05 pm</div><div class="poster">lowjhg</div>${para}</body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2026-02-14');
  });

  it('takes the <time pubdate> at the foot of the article over a JSON-LD datePublished that is the last save', () => {
    // U.S. Chamber of Commerce shape: JSON-LD datePublished equal to dateModified, the article's own "Published" at its end.
    const page = extract(`<html lang="en"><head><title>10 Free Accounting Tools for Your Small Business</title>
      <meta property="article:published_time" content="2025-08-08T00:00:00-04:00"/>
      <script type="application/ld+json">{"@type":"Article","datePublished":"2025-11-29T12:28:31-05:00","dateModified":"2025-11-29T12:28:31-05:00"}</script></head>
      <body><h1>10 Free Accounting Tools for Your Small Business</h1>${para.repeat(10)}
      <div class="article-body__published"> Published <time pubdate datetime="2025-08-13" title="August 13, 2025">August 13, 2025</time></div></body></html>`);
    expect(page.published_at).toBe('2025-08-13');
  });

  it('reads no date from a <time pubdate> without a year (a template\'s "Aug 15"): Date.parse would make it 2001', () => {
    const page = extract(`<html lang="en"><head><title>Notes from the studio</title>
      <script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2024-08-15T10:00:00-04:00"}</script></head>
      <body><h1>Notes from the studio</h1><time class="dt-published" datetime="Aug 15" pubdate>Aug 15</time>${para}</body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2024-08-15');
    expect(normalizeDate('Aug 15')).toBeUndefined();
    expect(normalizeDate('Aug 15, 2024')).toBe('2024-08-15');
  });
  it('takes the publication date the <meta> tags state over a later "Last Updated" dateline (the dateline is the change)', () => {
    const page = extract(`<html lang="en"><head><title>What is a Mobile App?</title>
      <meta property="article:published_time" content="2023-10-02T14:21:11+00:00">
      <meta property="article:modified_time" content="2024-12-06T11:29:12+00:00"></head><body><article>
      <h1>What is a Mobile App?</h1><p>By Bhaval Patel</p><p>Last Updated: December 6, 2024</p>${para}</article></body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2023-10-02');
    expect(page.modified_at?.slice(0, 10)).toBe('2024-12-06');
  });

  it('keeps a later dateline over a JSON-LD datePublished that no <meta> tag states', () => {
    const page = extract(`<html lang="en"><head><title>The 16 Best Clothing Subscription Boxes</title>
      <script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-01T03:00:00","dateModified":"2025-03-05T13:25:58"}</script></head>
      <body><article><h1>The 16 Best Clothing Subscription Boxes</h1><p>Revamp your closet with these clothing subscriptions.</p>
      <div class="byline"><span>By Kathryn Giuffrida</span> <span>Mar 5, 2025</span> | <a href="#comments">6 comments</a></div>${para}</article></body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2025-03-05');
  });

  // Shapes of real pages (WCXB dev, tune part): a B2B blog's microdata beside its dateline; a vBulletin thread's posts.
  it('keeps a later dateline over a lone microdata datePublished, as over JSON-LD, but not over a thread\'s dated posts', () => {
    const article = extract(`<html lang="en"><head><title>State of SEO in 2026: Trends and Predictions</title>
      <meta itemprop="datePublished" content="2024-05-09 00:00:00 +0000"><meta itemprop="dateModified" content="2025-12-16 00:00:00 +0000"></head>
      <body><article><h1>State of SEO in 2026: Trends and Predictions</h1><p>16 December 2025 by Sam O'Brien</p>${para}</article></body></html>`);
    expect(article.published_at?.slice(0, 10)).toBe('2025-12-16');
    const post = (n: number, day: string): string => `<div class="post"><meta itemprop="datePublished" content="2024-${day}T09:00:00-05:00">
      <p>Joseph · #${n} · ${day === '01-03' ? 'Jan 3, 2024' : 'Sep 26, 2024'}</p>${para}</div>`;
    const thread = extract(`<html lang="en"><head><title>Replacement projector lamp</title></head>
      <body><h1>Replacement projector lamp</h1><p>Sep 26, 2024</p>${post(1, '01-03')}${post(2, '09-26')}</body></html>`);
    expect(thread.published_at?.slice(0, 10)).toBe('2024-01-03');
  });
  // Shapes of real pages (WCXB dev, tune part): WordPress datelines beside a UTC article:published_time.
  it('keeps the metadata\'s UTC stamp where the dateline shows the same moment or day on the site\'s clock', () => {
    const head = (stamp: string): string => `<head><title>Best Mirrorless Cameras in the World</title>
      <meta property="article:published_time" content="${stamp}"><meta property="article:modified_time" content="2026-02-09T16:17:27+00:00"></head>`;
    const timed = extract(`<html lang="en">${head('2025-07-05T00:04:00+00:00')}<body><article><h1>Best Mirrorless Cameras in the World</h1>
      <p><span class="posted-on"><time datetime="2025-07-04T20:04:00-04:00">July 4, 2025</time></span> by Alec</p>${para}</article></body></html>`);
    expect(timed.published_at).toBe('2025-07-05T00:04:00+00:00');
    // A shown day and a stamp of the next day in UTC (the evening before in America, the morning after in Europe).
    const day = extract(`<html lang="en">${head('2021-12-10T02:17:00+00:00')}<body><article><h1>Best Mirrorless Cameras in the World</h1>
      <p class="entry-meta">December 9, 2021</p>${para}</article></body></html>`);
    expect(day.published_at).toBe('2021-12-10T02:17:00+00:00');
    // Not when the URL dates the shown day, nor a stamp a day and a half away.
    const dated = extract(`<html lang="en">${head('2021-12-10T02:17:00+00:00')}<body><article><h1>Best Mirrorless Cameras in the World</h1>
      <p class="entry-meta">December 9, 2021</p>${para}</article></body></html>`, { url: 'https://example.org/2021/12/09/cameras/' });
    expect(dated.published_at).toBe('2021-12-09');
    const far = extract(`<html lang="en">${head('2021-12-10T13:17:00+00:00')}<body><article><h1>Best Mirrorless Cameras in the World</h1>
      <p class="entry-meta">December 9, 2021</p>${para}</article></body></html>`);
    expect(far.published_at).toBe('2021-12-09');
    // Nor on a clock ahead of UTC: a shown time in Asia keeps its own day.
    const ahead = extract(`<html lang="en">${head('2025-07-04T19:04:00+00:00')}<body><article><h1>Best Mirrorless Cameras in the World</h1>
      <p><span class="posted-on"><time datetime="2025-07-05T03:04:00+08:00">July 5, 2025</time></span> by Alec</p>${para}</article></body></html>`);
    expect(ahead.published_at?.slice(0, 10)).toBe('2025-07-05');
  });
});

describe('the dateline under an <h1> worded otherwise than the <title>', () => {
  // Shape of a real page (WCXB dev, tune part): an article whose <title> is its SEO wording and
  // whose <h1> is another, below a mega-menu the content selection starts in.
  it('reads the dateline under the page\'s <h1> when no line matched the title', () => {
    const menu = Array.from({ length: 40 }, (_, i) => `<li><a href="/c${i}">Best Product Category ${i}</a></li>`).join('');
    const page = extract(`<html lang="en"><head><title>Professional Business Certifications to Boost Your Career</title>
      <script type="application/ld+json">{"@type":"Article","datePublished":"2019-08-14T13:00:00Z"}</script></head>
      <body><div><p>Your free membership unlocks exclusive deals</p><p>Menu</p><ul>${menu}</ul>
      <p>We research and recommend products and services suitable for your business, and we earn commissions when readers buy.</p>
      <h1>Best Business Certification Programs for Career Advancement</h1>
      <p>A business certification can make your skills stand out.</p><p>Written by: Sean Peek</p><p>Sep 17, 2025</p>${para}</div></body></html>`);
    expect(page.published_at?.slice(0, 10)).toBe('2025-09-17');
  });
});

describe('a later <time> dateline beside a change stamp of another day', () => {
  // Shape of a real page (WCXB dev, tune part): a health system's news item whose
  // article:published_time is a first import's (2013), its <time> dateline the date it runs under.
  const page = (modified: string) => extract(`<html lang="en"><head><title>9 Common Food Myths Debunked</title>
    <meta property="article:published_time" content="2013-03-11T11:11:07-07:00">
    <meta property="article:modified_time" content="${modified}"></head>
    <body><article><h1>9 Common Food Myths Debunked</h1>
    <section class="byline"><span class="byline__release-date"><time datetime="2023-03-20T00:00:00-07:00">March 20, 2023</time></span></section>
    ${para}</article></body></html>`);

  it('is the publication date when the metadata dates the change on another day', () => {
    expect(page('2026-02-18T07:49:16-08:00').published_at?.slice(0, 10)).toBe('2023-03-20');
  });

  it('is the change when the metadata dates the change on its day: the tag keeps the first publication', () => {
    expect(page('2023-03-20T09:00:00-07:00').published_at?.slice(0, 10)).toBe('2013-03-11');
  });
});

describe('publication dates in the less common meta vocabularies', () => {
  it.each(['article_date_original', 'cxenseparse:publishtime', 'publish_time', 'og:datepublished', 'og:publication_time', 'article.published', 'date-pub'])(
    'reads <meta %s> when the page shows no dateline', (key) => {
      const page = extract(`<html lang="en"><head><title>Night trains return</title><meta name="${key}" content="2024-03-05T09:30:00+01:00"></head>
        <body><article><h1>Night trains return</h1>${para}</article></body></html>`);
      expect(page.published_at).toBe('2024-03-05T09:30:00+01:00');
    },
  );
});

describe('datelines read from the page alone (no meta tags, no JSON-LD)', () => {
  it('reads a year that inline markup glued to the time or the reading time after it', () => {
    expect(readDate('Updated November 11, 20228:23 PM ET Originally published November 9, 2022')).toMatchObject({ iso: '2022-11-11T20:23:00', index: 8 });
    expect(readDate('by Harsh Vaibhav Global Commons May 2nd 202511 mins')?.iso).toBe('2025-05-02');
    expect(readDate('Mar 27, 20255 mins')?.iso).toBe('2025-03-27');
    expect(readDate('5 March 202412:30')?.iso).toBe('2024-03-05T12:30:00');
    // Other digits after a year make no year: a number, an order code.
    expect(readDate('March 5, 20245')).toBeUndefined();
    expect(readDate('Order 5 March 20241234 units')).toBeUndefined();
    const page = extract(`<html lang="en"><head><title>11 go-to podcasts that inspire IT leaders</title></head><body>
      <h1>11 go-to podcasts that inspire IT leaders</h1><div class="meta"><span>Mar 27, 2025</span><span>5 mins</span></div>${para}</body></html>`);
    expect(page.published_at).toBe('2025-03-27');
  });

  it('reads the date of a Genesis theme\'s <time class="entry-time"> in the entry footer', () => {
    const page = extract(`<html lang="en"><head><title>A Beginner's Guide To Refinishing Vintage Furniture</title></head><body>
      <h1>A Beginner's Guide To Refinishing Vintage Furniture</h1>${para.repeat(12)}
      <footer class="entry-footer"><p class="entry-meta"><time class="entry-time">June 9, 2020</time> · <span>6 Comments</span></p></footer></body></html>`);
    expect(page.published_at).toBe('2020-06-09');
  });
});

describe('the dateline the metadata vouches for among several near the headline', () => {
  // XenForo shape: the poster's card (join date, no label on its line) stands above the first post's time.
  const thread = (ld: string) => extract(`<html lang="en"><head><title>Suggestions for a beginner MTB</title>${ld}</head><body>
    <h1>Suggestions for a beginner MTB</h1><div class="poster"><p>trailrider</p><p>Jun 29, 2016</p><p>410</p></div>
    <div class="post-time">Jul 18, 2024</div>${para}</body></html>`);

  it('takes the near date on the metadata\'s day over a nearer date of another day', () => {
    const page = thread('<script type="application/ld+json">{"@type":"DiscussionForumPosting","datePublished":"2024-07-18T00:33:53-04:00"}</script>');
    expect(page.published_at).toBe('2024-07-18T00:33:53-04:00');
  });

  it('keeps the nearest date when the metadata states none', () => {
    expect(thread('').published_at).toBe('2016-06-29');
  });

  it('keeps the nearest date when it is the metadata\'s day on a clock ahead of UTC (a Beijing page, a UTC stamp)', () => {
    const page = extract(`<html lang="zh"><head><title>新馆开放</title><meta property="article:published_time" content="2026-11-13T22:00:00Z"></head><body>
      <h1>新馆开放</h1><p class="time">2026-11-14 06:00</p><p class="related">2026-11-13 09:30</p>${para}</body></html>`);
    expect(page.published_at).toBe('2026-11-14T06:00:00+08:00');
  });
});
