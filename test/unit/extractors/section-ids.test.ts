import { classWeight, isCommentArea, isHiddenByClass } from '../../../src/extractors/clean';
import { findFirst, parseHtml, type DomElement } from '../../../src/extractors/dom';
import { isSectionAnchorId, namesOwnHeading } from '../../../src/extractors/section-ids';
import { extract } from '../../../src/extractors/text-density';

/** The first element of a snippet. */
const el = (html: string): DomElement => findFirst(parseHtml(html), () => true)!;

/** A Sphinx section: the id is its heading's anchor, the heading links to it. */
const section = (id: string, title: string, body: string): string =>
  `<section id="${id}">\n<h3>${title}<a class="headerlink" href="#${id}" title="Link to this heading">¶</a></h3>\n${body}\n</section>`;

const para = (topic: string, n: number): string => Array.from({ length: n }, (_, i) =>
  `<p>Step ${i + 1} on ${topic}: the request object carries what the client sent, and the view reads it before it builds the response it returns.</p>`).join('\n');

describe('section anchor ids (section-ids.ts)', () => {
  it('reads an id that names its own heading as an anchor, not a role', () => {
    expect(isSectionAnchorId(el(section('cookies', 'Cookies', '<p>x</p>')))).toBe(true);
    expect(isSectionAnchorId(el('<div class="section" id="comments"><span id="id4"></span><h2>Comments<a class="headerlink" href="#comments">¶</a></h2></div>'))).toBe(true);
    expect(isSectionAnchorId(el('<h2 id="related-objects">Related objects<a class="headerlink" href="#related-objects">¶</a></h2>'))).toBe(true);
    expect(isSectionAnchorId(el('<section id="s-be-careful-with-related-name"></section>'))).toBe(true);
    expect(namesOwnHeading(el('<section id="s-cookies"><span id="cookies"></span><h2>Cookies<a class="headerlink" href="#cookies">¶</a></h2></section>'))).toBe(true);
  });

  it('leaves a consent banner or a comment area that titles itself as it was', () => {
    // A banner names itself after its heading, but neither sits in a text's sections nor links to itself.
    const banner = el('<div id="cookies"><h2>Cookies</h2><p>We use cookies to improve your experience.</p></div>');
    expect(isSectionAnchorId(banner)).toBe(false);
    expect(isHiddenByClass(banner)).toBe(true);
    expect(isCommentArea(el('<div id="comments"><h3>Comments</h3></div>'))).toBe(true);
    expect(isCommentArea(el('<section id="comments" class="article-content"><h2>Comments</h2><p>Reply on Mastodon.</p></section>'))).toBe(true);
    expect(isSectionAnchorId(el('<h3 id="comments">Comments</h3>'))).toBe(false);
    // A consent plugin's long id is no heading's words, whatever its length.
    expect(namesOwnHeading(el('<div id="cookie-law-info-bar"><span>We use cookies on our website.</span></div>'))).toBe(false);
    expect(isHiddenByClass(el('<div id="cookie-law-info-bar"><span>We use cookies on our website.</span></div>'))).toBe(true);
  });

  it('gives such a section no furniture or consent reading', () => {
    const cookies = el(section('cookies', 'Cookies', '<p>x</p>'));
    expect(classWeight(cookies)).toBe(0);
    expect(isHiddenByClass(cookies)).toBe(false);
    expect(isCommentArea(el(section('comments', 'Comments', '<p>x</p>')))).toBe(false);
  });

  it('keeps a guide\'s "Cookies" section with the sections around it', () => {
    const html = `<html><head><title>Quickstart</title></head><body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main><article><section id="quickstart"><h1>Quickstart<a class="headerlink" href="#quickstart">¶</a></h1>
${section('file-uploads', 'File Uploads', para('uploads', 4))}
${section('cookies', 'Cookies', '<p>To access cookies you can use the cookies attribute of the request; to set them, use the set_cookie method of the response.</p>' + para('cookies', 3))}
${section('redirects-and-errors', 'Redirects and Errors', para('redirects', 4))}
</section></article></main>
<footer><p>© Copyright 2010 Pallets.</p></footer></body></html>`;
    const text = extract(html).text;
    expect(text).toContain('To access cookies you can use the cookies attribute');
    expect(text).toContain('Step 3 on cookies');
    expect(text).toContain('Step 4 on redirects');
  });
});
