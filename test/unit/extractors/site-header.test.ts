import { extract } from '../../../src/extractors/text-density';
import { parseHtml, findFirst, type DomElement } from '../../../src/extractors/dom';
import { isSiteHeader } from '../../../src/extractors/site-header';

/** Paragraphs of real article length, numbered so every one can be looked for. */
const paras = (n: number, topic: string): string => Array.from({ length: n }, (_, i) =>
  `<p>Paragraph ${i + 1} about ${topic}: the council met on Tuesday, heard from residents, and agreed that the plan would go ahead with a review in spring.</p>`).join('\n');

/** A shop's mega-menu: a nav, a search form, and promotion columns and store hours in plain divs beside it. */
const megaMenu = `<header class="header header--has-menu">
  <a href="/">Logo</a>
  <nav><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('')}</ul></nav>
  <form action="/search"><input type="search" name="q"></form>
  <div class="menu-column"><p>Our experts are here for you, Monday to Friday from nine to five, by phone, chat or e-mail, and in our shop in town.</p>
  <p>Limited edition colours are back in stock for a short while, while supplies last, with free shipping on every order.</p></div>
  <a href="/account">Account</a><a href="/cart">Cart</a></header>`;

const first = (html: string, name: string): DomElement => findFirst(parseHtml(html), (el) => el.name === name)!;

describe('the site header is furniture, an article header is content (site-header.ts)', () => {
  it('leaves the text of a page-level mega-menu out of the content', () => {
    const page = extract(`<html><head><title>Quiet headphones | Shop</title></head><body>${megaMenu}
      <div class="product"><h1>Quiet headphones</h1>${paras(4, 'the headphones')}</div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(4);
    expect(page.text).not.toContain('Our experts are here');
    expect(page.text).not.toContain('Limited edition colours');
  });

  it('keeps the header of an article: its headline and standfirst are the article', () => {
    const html = `<html><body>${megaMenu}<article><header><h1>River park approved</h1>
      <p>The council backed the plan on Tuesday night, after months of debate, and work starts in spring.</p>
      <a href="/by/ann">Ann Lee</a></header>${paras(4, 'the park')}</article></body></html>`;
    const root = parseHtml(html);
    const headers: DomElement[] = [];
    const walk = (el: DomElement): void => { if (el.name === 'header') headers.push(el); for (const c of el.children) if (c.type === 'tag') walk(c as DomElement); };
    for (const c of root.children) if (c.type === 'tag') walk(c as DomElement);
    expect(headers.map(isSiteHeader)).toEqual([true, false]);
    expect(extract(html).text).toContain('The council backed the plan on Tuesday night');
  });

  it('does not take a section page header with its headline and breadcrumb trail for the site header', () => {
    expect(isSiteHeader(first(`<body><header class="page-header"><nav><a href="/">Home</a><a href="/guides">Guides</a></nav>
      <h1>Installing the tool</h1><p>What you need before you start.</p></header><div>${paras(3, 'installing')}</div></body>`, 'header'))).toBe(false);
  });

  it('does not count a slim top bar of a few links and a search box', () => {
    expect(isSiteHeader(first(`<body><header><nav><a href="/">Home</a><a href="/shop">Shop</a></nav>
      <form><input type="search"></form><a href="/account">Account</a></header></body>`, 'header'))).toBe(false);
  });

  it('counts a role=banner element outside the main content holding a menu of links', () => {
    const links = Array.from({ length: 22 }, (_, i) => `<a href="/s/${i}">Section ${i}</a>`).join(' ');
    expect(isSiteHeader(first(`<body><div role="banner">${links}</div><main><p>Text</p></main></body>`, 'div'))).toBe(true);
  });

  it('reads a page whose unclosed site header swallows the whole body (layout.ts overrules the mark)', () => {
    const menu = Array.from({ length: 24 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('');
    const page = extract(`<html><head><title>River park approved | Gazette</title></head><body><header><nav><ul>${menu}</ul></nav>
      <div class="story"><h1>River park approved</h1>${paras(5, 'the park')}</div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(5);
  });
});
