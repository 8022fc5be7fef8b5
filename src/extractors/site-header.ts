import { isElement, type DomElement, type DomNode } from './dom';

/**
 * The site's own header (`<header>` or `role="banner"` at page level: logo, menus, search box,
 * account and cart links), as against an article's header (headline, standfirst, byline).
 * Its <nav> is dropped already, but a shop's or a SaaS site's mega-menu spreads its columns,
 * promotions and store hours over plain divs and lists beside the nav: that text ran into pages
 * whose content starts right under it. What tells the two apart is where the header sits and
 * what it holds, not its class: an article's header sits inside the <article> or <main>, holds
 * the headline and a few links (author, section); the site's sits outside them and holds
 * navigation, a form, or a menu's worth of links.
 */

/** Links a header holds at least to be a menu whatever else it holds (a page header's byline and section links are a few). */
const MENU_LINKS = 20;
/**
 * Links a header holds at least to be the site's, with a nav or a form but no <h1> (a hero's
 * breadcrumb trail is a nav too). A slim top bar (a logo, a search box, a few account links) says a
 * few words at most, and on a page of short lines those words can be what joins the lines below into one block.
 */
const SITE_LINKS = 10;

/** Whether an element is the page-level site header (see the module's comment). */
export function isSiteHeader(el: DomElement): boolean {
  // No cache: a page has a header or two, each read by the block walk and once by the selection's own memo.
  if (el.name !== 'header' && el.attribs.role !== 'banner') return false;
  return !inMainContent(el) && holdsSiteFurniture(el);
}

/** Inside the page's main content or an article: a header there is that content's own. */
function inMainContent(el: DomElement): boolean {
  for (let p = el.parent; p && isElement(p); p = p.parent) {
    const a = p.attribs;
    if (p.name === 'article' || p.name === 'main' || a.role === 'main' || a.role === 'article') return true;
  }
  return false;
}

/**
 * Navigation, a form (search, sign-in) or a menu's worth of links. A header with the page's
 * <h1> and a breadcrumb trail (a section page's own header above its text) is the page's,
 * unless its links are a whole menu.
 */
function holdsSiteFurniture(el: DomElement): boolean {
  let links = 0;
  let navOrForm = false;
  let h1 = false;
  const stack: DomNode[] = [...el.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const { name, attribs: a } = n;
    if (name === 'a' && a.href !== undefined && ++links >= MENU_LINKS) return true;
    if (name === 'nav' || name === 'form' || a.role === 'navigation' || a.role === 'search') navOrForm = true;
    else if (name === 'h1') h1 = true;
    for (const c of n.children) stack.push(c);
  }
  return navOrForm && !h1 && links >= SITE_LINKS;
}
