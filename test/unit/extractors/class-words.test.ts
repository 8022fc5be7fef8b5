import { classWeight, isHiddenByClass } from '../../../src/extractors/clean';
import { findFirst, parseHtml, type DomElement } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';

/** The first element of a snippet. */
const el = (html: string): DomElement => findFirst(parseHtml(html), () => true)!;

/** Paragraphs of real length, numbered so every one can be looked for. */
const paras = (n: number, topic: string): string => Array.from({ length: n }, (_, i) =>
  `<p>Paragraph ${i + 1} about ${topic}: we plan the work with you, keep you informed at every step, and finish on the agreed date.</p>`).join('\n');

describe('class words that style rather than name an element (clean.ts)', () => {
  it('gives Tailwind utilities and variants no furniture weight', () => {
    expect(classWeight(el('<section class="relative bg-white overflow-hidden py-24"></section>'))).toBe(0);
    expect(classWeight(el('<div class="minlg:hidden group-[.active]:block maxlg:hidden"></div>'))).toBe(0);
    expect(classWeight(el('<div class="field field--name-bp-view field--type-viewsreference field--label-hidden field__items"></div>'))).toBe(0);
  });

  it('still calls furniture what a desktop reader does not see and what a furniture word names', () => {
    expect(classWeight(el('<div class="block lg:hidden"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="cta hidden-desktop"></div>'))).toBe(-1);
    // Hidden on a phone: a side column (a page never hides its main text from phones).
    expect(classWeight(el('<div class="elementor-element elementor-hidden-tablet elementor-hidden-mobile e-con"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="col-md-4 hidden-xs"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="sidebar widget-area"></div>'))).toBe(-1);
    expect(classWeight(el('<div id="share-bar"></div>'))).toBe(-1);
    // A summary a model wrote of a thread, above its posts.
    expect(classWeight(el('<div class="block xfa-gptts-block" id="ai-summary-block"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="summary"></div>'))).toBe(0);
  });

  it('reads a heading anchor id as the heading, not as a furniture word', () => {
    expect(classWeight(el('<section id="s-be-careful-with-related-name-and-related-query-name"></section>'))).toBe(0);
    expect(classWeight(el('<div class="refsect2" id="SQL-FOR-UPDATE-SHARE"></div>'))).toBe(0);
  });

  it('reads a compound class word by its last telling part, as English puts the head noun last', () => {
    // The footer of an article ("Help improve MDN", "This page was last modified on…") is a footer.
    expect(classWeight(el('<div class="article-footer__inner"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="post-share"></div>'))).toBe(-1);
    // Content for subscribers is no furniture; two separate words say nothing about which one it is.
    expect(classWeight(el('<div class="subscriber-content"></div>'))).toBe(0);
    expect(classWeight(el('<div class="post footer"></div>'))).toBe(0);
  });

  it('does not take a React streamed part or a folded accordion panel for hidden', () => {
    expect(isHiddenByClass(el('<div hidden id="S:3"></div>'))).toBe(false);
    expect(isHiddenByClass(el('<div class="kt-accordion-panel hidden"></div>'))).toBe(false);
    // A tab panel by its ARIA role: the install command for another shell, one click away.
    expect(isHiddenByClass(el('<div id="tab-panel-1655" aria-labelledby="tab-1655" role="tabpanel" hidden></div>'))).toBe(false);
    expect(isHiddenByClass(el('<div hidden id="modal-root"></div>'))).toBe(true);
    expect(isHiddenByClass(el('<div class="ot-accordion-layout hidden" id="onetrust-pc-sdk"></div>'))).toBe(true);
  });
});

describe('pages whose text sits under such words', () => {
  it('leaves out a side column hidden on phones, in the same container as the article', () => {
    const side = `<div class="e-con-full elementor-hidden-tablet elementor-hidden-mobile e-con"><h3>CONTACT US</h3><p>Let us help! Call us or fill out this quick form and we will contact you within 24 hours, whatever your injury.</p>
      <p>Navigating the disability benefits system can be overwhelming when you are already dealing with an injury and its bills.</p></div>`;
    const page = extract(`<html><head><title>Injuries at the gym</title></head><body><header><a href="/">Firm</a></header>
      <div class="e-con e-parent"><div class="e-con-full e-con"><h1>Injuries at the gym</h1>${paras(4, 'gyms')}</div>${side}</div>
      <footer><p>© Firm</p></footer></body></html>`);
    expect(page.paragraphs.filter((p) => p.includes('about gyms'))).toHaveLength(4);
    expect(page.text).not.toContain('CONTACT US');
    expect(page.text).not.toContain('disability benefits');
  });

  it('keeps a text the page renders twice, a copy for phones and one hidden on phones', () => {
    const page = extract(`<html><head><title>Our services</title></head><body><header><a href="/">Firm</a></header><main>
      <div class="e-con elementor-hidden-mobile"><h1>Our services</h1>${paras(4, 'services')}</div>
      <div class="e-con elementor-hidden-desktop elementor-hidden-tablet"><h1>Our services</h1>${paras(4, 'services')}</div></main>
      <footer><p>© Firm</p></footer></body></html>`);
    expect(page.text).toContain('Paragraph 4 about services');
  });

  it('keeps a service page\'s sections styled overflow-hidden', () => {
    const page = extract(`<html><head><title>Managed analytics | Acme</title></head><body>
      <header><a href="/">Acme</a></header>
      <main><div class="hero"><h1>Managed analytics</h1><p>We run your data platform so your team can use the numbers instead of fixing the pipes behind them.</p></div>
      <section class="relative overflow-hidden bg-white md:py-24"><h2>What we do</h2>${paras(3, 'pipelines')}</section>
      <section class="relative overflow-hidden bg-gray-50 md:py-24"><h2>How we work</h2>${paras(3, 'reporting')}</section></main>
      <footer><p>© Acme</p></footer></body></html>`);
    expect(page.paragraphs.filter((p) => p.includes('about pipelines'))).toHaveLength(3);
    expect(page.paragraphs.filter((p) => p.includes('about reporting'))).toHaveLength(3);
  });

  it('reads the body React streamed into <div hidden id="S:0">', () => {
    const page = extract(`<html><head><title>Scalable oversight, explained</title></head><body>
      <div id="root"><h1>Scalable oversight, explained</h1><template id="B:0"></template><p>Loading…</p></div>
      <div hidden id="S:0"><article>${paras(6, 'oversight')}</article></div>
      <script>$RC("B:0","S:0")</script></body></html>`);
    expect(page.paragraphs.filter((p) => p.includes('about oversight'))).toHaveLength(6);
  });

  it('keeps the answers folded into accordion panels', () => {
    const faq = ['How long does a repair take?', 'Do you give a warranty?', 'Can I book at a weekend?'].map((q, i) =>
      `<div class="accordion-item"><h3 class="accordion-title">${q}</h3><div class="accordion-panel hidden"><p>Answer ${i + 1}: most jobs are finished within two working days, and we confirm the date, the price and the warranty in writing before we start.</p></div></div>`).join('');
    const page = extract(`<html><head><title>Home repair grants</title></head><body><main>
      <h1>Home repair grants</h1>${paras(3, 'grants')}<h2>Questions</h2><div class="accordion">${faq}</div></main></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Answer'))).toHaveLength(3);
  });

  it('keeps a documentation section whose anchor id holds a furniture word', () => {
    const page = extract(`<html><head><title>Models | Django documentation</title></head><body><div id="docs-content">
      <h1>Models</h1>${paras(4, 'fields')}
      <section id="s-be-careful-with-related-name-and-related-query-name"><h3>Be careful with related_name and related_query_name</h3>${paras(4, 'reverse relations')}</section>
      </div></body></html>`);
    expect(page.paragraphs.filter((p) => p.includes('about reverse relations'))).toHaveLength(4);
  });
});

describe('embedded social posts (clean.ts)', () => {
  it('gives the wrapper of an embedded post no furniture weight, a share bar still -1', () => {
    expect(classWeight(el('<div class="social-media-embed"></div>'))).toBe(0);
    expect(classWeight(el('<figure class="embed-twitter"></figure>'))).toBe(0);
    expect(classWeight(el('<div class="social-share"></div>'))).toBe(-1);
    expect(classWeight(el('<ul class="social-links"></ul>'))).toBe(-1);
  });

  it('keeps the tweets a story quotes (nj.com shape)', () => {
    const tweet = (i: number): string => `<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">Tweet ${i}: yes this is real and yes the state spent nearly half a million dollars on it <a href="https://t.co/x${i}">https://t.co/x${i}</a></p>— Reader ${i} (@reader${i}) <a href="https://twitter.com/reader${i}/status/${i}">November 18, 2019</a></blockquote></div>`;
    const page = extract(`<html><head><title>Meth. We're on it.</title></head><body><div class="social-share"><a href="/s">Share</a></div>
      <div class="entry-content"><h1>Meth. We're on it.</h1>${paras(3, 'the campaign')}${tweet(1)}${paras(2, 'the reaction')}${tweet(2)}${paras(2, 'the governor')}</div></body></html>`);
    expect(page.text).toContain('Tweet 1: yes this is real');
    expect(page.text).toContain('Tweet 2: yes this is real');
  });
});

describe('admonition boxes (clean.ts)', () => {
  it('gives a note, a tip or a warning no furniture weight, whatever other word its template adds', () => {
    expect(classWeight(el('<blockquote class="blockquote-tag blockquote-tag-note"></blockquote>'))).toBe(0);
    expect(classWeight(el('<div class="markdown-alert markdown-alert-warning social"></div>'))).toBe(0);
    // The generic word alone names no kind: Material for MkDocs' product boxes, a post's tag list.
    expect(classWeight(el('<div class="admonition recommendation"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="tag-list"></div>'))).toBe(-1);
  });

  it("keeps an mdBook note and tip at the head of the chapter in the text", () => {
    const html = `<html><head><title>Introduction - From Zero to QED</title></head><body><div id="mdbook-content" class="content"><main>
      <h1 id="introduction"><a class="header" href="#introduction">Introduction</a></h1>
      <p>Welcome to the series, an informal introduction to formal verification in Lean 4 for working programmers, one small chapter at a time.</p>
      <blockquote class="blockquote-tag blockquote-tag-note"><p class="blockquote-tag-title">Note</p>
      <p>This is the beta release. There are bound to be typos, errors, and rough edges. If you spot something, send a PR on GitHub.</p></blockquote>
      ${paras(6, 'theorem proving')}</main></div></body></html>`;
    const page = extract(html);
    expect(page.text).toContain('This is the beta release.');
    expect(page.text).toContain('Paragraph 6 about theorem proving');
  });
  it('calls a dialog furniture by its class word, not a canvas for dialogs around the page', () => {
    // A script opens these boxes over the product (a cart merge prompt); <dialog> and role=dialog are dropped already.
    expect(classWeight(el('<div class="dialog"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="merge_cart_dialog__wrapper"></div>'))).toBe(-1);
    expect(classWeight(el('<div class="modal-dialog modal-lg"></div>'))).toBe(-1);
    // Drupal's wrapper of the whole page.
    expect(classWeight(el('<div class="dialog-off-canvas-main-canvas"></div>'))).toBeGreaterThanOrEqual(0);
  });
});
