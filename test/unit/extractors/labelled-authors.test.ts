import { credentialedName } from '../../../src/extractors/person-names';
import { extract } from '../../../src/extractors/text-density';

/** Shapes of real pages (WCXB dev, tune part): an insights article with a facts aside, a bootcamp blog with an "About the Author" foot. */
const para = '<p>Artificial intelligence can scan large data sets for similar cases, and clinicians who know where to look find treatments that worked before.</p>'.repeat(5);

describe('author: a name an author label points to, anywhere on the page', () => {
  it('reads the name after an "Author" label in an aside the text leaves out', () => {
    const page = extract(`<html lang="en"><head><title>Benefits of AI in health care</title></head>
      <body><main><h1 class="insight__title">Benefits of AI in health care</h1><div class="insight__body">${para}</div>
      <aside class="insight__content card-shadow"><div class="content-wrapper">
        <div class="content-item"><h3>Published</h3><p><time datetime="2024-08-30T12:00:00Z">August 30, 2024</time></p></div>
        <div class="content-item"><h3>Author</h3><p>  Lisa D. Ellis</p></div>
        <div class="content-item"><h3>Topics</h3><p><a href="/t/ai">Artificial intelligence</a></p></div>
      </div></aside></main></body></html>`);
    expect(page.author).toBe('Lisa D. Ellis');
  });

  it('reads the subject of the bio after an "About the Author:" line far below the headline', () => {
    const filler = '<p>Cloud providers keep adding managed services, and teams that learn them early ship faster with fewer people on call.</p>'.repeat(40);
    const page = extract(`<html lang="en"><head><title>Cloud computing innovations</title></head>
      <body><h1>Cloud computing innovations</h1><div class="css-1x">${filler}
      <p class="chakra-text css-1fw471">About the Author:</p>
      <p class="chakra-text css-1fw471">Juliette Carreiro is a skilled content creator with over five years of experience in tech writing.</p></div></body></html>`);
    expect(page.author).toBe('Juliette Carreiro');
  });

  it('reads a name whose role line follows it in an author card at the foot', () => {
    const filler = '<p>Long runs build the aerobic base, and a beginner adds no more than ten percent of distance a week to stay clear of injury.</p>'.repeat(40);
    const page = extract(`<html lang="en"><head><title>Free 10 week beginner marathon training plan</title></head>
      <body><h1 class="heading-style-h2">Free 10 week beginner marathon training plan</h1>${filler}
      <div class="tga_author-card"><p class="heading-style-subheading text-weight-bold">Matteo Laratta</p>
      <p class="heading-style-subheading text-color-grey">| Author</p><p>He coaches age-group triathletes.</p></div></body></html>`);
    expect(page.author).toBe('Matteo Laratta');
  });

  it('reads a name line followed by a bio of that person (an author card), not a company blurb', () => {
    const filler = '<p>A podcast needs a decent microphone, headphones that do not leak, and a quiet room more than it needs an expensive mixer.</p>'.repeat(40);
    const card = (name: string, bio: string): string => `<html lang="en"><head><title>Podcast equipment guide</title></head>
      <body><h1>Podcast equipment guide</h1>${filler}<div class="callout"><div class="callout__content"><h3>${name}</h3><p>${bio}</p></div></div></body></html>`;
    expect(extract(card('Alban Brooke', 'Alban Brooke is the Head of Marketing at Buzzsprout. He has helped thousands of podcasters launch their shows.')).author).toBe('Alban Brooke');
    expect(extract(card('Wicked Problems', 'Wicked Problems is a podcast network for climate stories, with new episodes every week.')).author).toBeUndefined();
  });

  it('reads the name just above an author bio block (a card at the foot, the bio not opening with the name)', () => {
    const page = extract(`<html lang="en"><head><title>Best under-$500 espresso machines</title></head>
      <body><h1>Best under-$500 espresso machines</h1>${para}<div class="gb-container"><div class="gb-inside-container">
      <p class="gb-headline gb-headline-bf23d91c gb-headline-text">Asser Christensen</p>
      <div class="dynamic-author-description">Licensed barista and coffee writer; ten years behind the bar in Copenhagen.</div></div></div></body></html>`);
    expect(page.author).toBe('Asser Christensen');
  });

  it('takes no heading after a label for a name', () => {
    const page = extract(`<html lang="en"><head><title>Cloud computing innovations</title></head>
      <body><h1>Cloud computing innovations</h1>${para}<aside><h3>Authors</h3><p>Related Posts</p></aside></body></html>`);
    expect(page.author).toBeUndefined();
  });
});

describe('author: a bare name beside the dateline', () => {
  it('reads a name set as a minor heading under the headline, beside its dateline', () => {
    const page = extract(`<html lang="en"><head><title>AI-powered metadata workflows at the ICAEW Digital Archive</title></head>
      <body><h1 itemprop="name">AI-powered metadata workflows at the ICAEW Digital Archive</h1>
      <div class="news_cont"><h3 class="no_marg">Craig McCarthy</h3>
      <p class="date no_marg">Last updated on 17 December 2025</p></div><div itemprop="articleBody">${para}</div></body></html>`);
    expect(page.author).toBe('Craig McCarthy');
  });

  it('measures the distance from the start of the content when the title matched the logo far above', () => {
    const menu = ['Home', 'Blog', 'Services', 'Contact', 'About'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('');
    const page = extract(`<html lang="en"><head><title>Playful Tones</title></head>
      <body><div class="logo">Playful Tones</div><ul class="nav">${menu}</ul>
      <article><h2 class="entry-title">Reflections on building a UI pipeline</h2><div class="entry-meta"><ul>
      <li class="d-flex align-items-center"><i class="bi bi-person"></i> Bence Kovács</li><li><time datetime="02-12-2025">02-12-2025</time></li></ul></div>
      ${para}</article></body></html>`);
    expect(page.author).toBe('Bence Kovács');
  });

  it('takes no article heading set as an <h3> for a name', () => {
    const page = extract(`<html lang="en"><head><title>A Dabbler's Weblog</title></head>
      <body><div id="banner">A Dabbler's Weblog</div><h2 class="date">December 16, 2025</h2><h3 class="title">Vibe Coding</h3>${para}</body></html>`);
    expect(page.author).toBeUndefined();
  });

  it('passes over an author card naming the site to the next card naming a person', () => {
    const page = extract(`<html lang="en"><head><title>GIM: a new standard for mechanistic interpretability</title>
      <meta property="og:site_name" content="Corti"></head><body><h1>GIM: a new standard for mechanistic interpretability</h1>
      <div role="list"><div role="listitem"><a href="https://corti.ai" class="video-post_author-text"><div class="video-post_author-name">Corti</div><div class="video-post_author-title">AI platform for healthcare</div></a></div>
      <div role="listitem"><a href="https://www.linkedin.com/in/joakim-edin/" class="video-post_author-text"><div class="video-post_author-name">Joakim Edin</div><div class="video-post_author-title">Research &amp; Development</div></a></div></div>
      ${para}</body></html>`, { url: 'https://www.corti.ai/stories/gim' });
    expect(page.author).toBe('Joakim Edin');
  });
});

describe('author: names written with their degrees', () => {
  it('reads the first person of a line of names with degrees and the name an "Article written by:" heading points to', () => {
    expect(credentialedName('Ellen Lindell, VMD, DACVB; Monique Feyrecilde, BA, LVT, VTS (Behavior); Debra Horwitz, DVM, DACVB')).toBe('Ellen Lindell');
    expect(credentialedName('Doris Munoz-Mantilla, MD, FOMA, DABOM')).toBe('Doris Munoz-Mantilla');
    expect(credentialedName('Dylan Bailey, MS, RD, FAND')).toBe('Dylan Bailey');
    // A place and its state abbreviation, a name with a role: no degree, no person read.
    expect(credentialedName('Austin, TX')).toBeUndefined();
    expect(credentialedName('Mike Marshall, Shipping Expert')).toBeUndefined();
    expect(credentialedName('Key Takeaways, MD')).toBeUndefined();
  });

  it('takes names with degrees right under the <h1> for the byline, dated or not', () => {
    // VCA shape: the headline in <h1>, the names of the writers with their degrees on the line below it.
    const page = extract(`<html lang="en"><head><title>Training Basics | Pet Care Resources</title><meta property="og:site_name" content="VCA"></head>
      <body><p>Book Appointment</p><h1 class="detail__header__title">Puppy Behavior and Training: Training Basics</h1>
      <div class="detail__header__subtitle">Ellen Lindell, VMD, DACVB; Monique Feyrecilde, BA, LVT, VTS (Behavior)</div>${para}</body></html>`);
    expect(page.author).toBe('Ellen Lindell');
  });

  it('reads the name with degrees after an "Article written by:" heading in an author section at the foot', () => {
    // Obesity Medicine Association shape: the author section after the article, a portrait and the name as an <h3>.
    const filler = '<p>Weight regain after stopping a medication is common, and a plan for nutrition and activity before stopping helps keep it off.</p>'.repeat(30);
    const page = extract(`<html lang="en"><head><title>Weight loss medications</title><meta property="og:site_name" content="Obesity Medicine Association"></head>
      <body><h1>Weight loss medications</h1>${filler}<section class="container"><h2 class="text-lg">Article written by:</h2>
      <div class="flex flex-col gap-10"><div class="flex"><img src="/a.webp" alt="Headshot in a white coat" class="rounded-full">
      <div><h3 class="font-plantin">Doris Munoz-Mantilla, MD, FOMA, DABOM</h3></div></div></div></section></body></html>`);
    expect(page.author).toBe('Doris Munoz-Mantilla');
  });
});
