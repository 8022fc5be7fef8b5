import { isElement, isText, textContent, type DomElement } from './dom';

/**
 * A heading's anchor made an id (`s-be-careful-with-related-name`, `SQL-FOR-UPDATE-SHARE`): four
 * words or more, and what they say is the heading's topic, not the element's role.
 */
function isHeadingSlug(id: string): boolean {
  return id.split(/[-_]+/).length >= 4;
}

/** Letters and digits of a name, lower-cased: `Cookies¶` and `cookies`, `Related objects` and `related-objects` alike. */
const nameKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export const isHeadingTag = (name: string): boolean => name.length === 2 && name[0] === 'h' && name[1]! >= '1' && name[1]! <= '6';

/** The first element among an element's children, across text and comments (and empty anchors `<span id="…"></span>` before it). */
export function firstChildElement(el: DomElement): DomElement | undefined {
  for (const c of el.children) {
    if (!isElement(c)) {
      if (isText(c) && /\S/.test(c.data)) return undefined;
      continue;
    }
    const e = c as DomElement;
    if ((e.name === 'span' || e.name === 'a') && e.children.length === 0) continue;
    return e;
  }
  return undefined;
}

/** A link inside the heading to a fragment named after the heading (`href="#cookies"`): the permalink documentation templates put on every section heading. */
function hasPermalink(heading: DomElement, key: string): boolean {
  const visit = (e: DomElement): boolean => {
    const href = e.name === 'a' ? e.attribs.href : undefined;
    if (href !== undefined && href.startsWith('#') && nameKey(href) === key) return true;
    return e.children.some((c) => isElement(c) && visit(c as DomElement));
  };
  return visit(heading);
}

/** Characters of a prefix a template may put before a heading's words in a section id (Django's `s-cookies`). */
const MAX_ID_PREFIX_CHARS = 2;

/**
 * Whether an element's id is the anchor of the section it opens rather than a name of its role:
 * the words of its own heading, which links to them (`<section id="cookies"><h3>Cookies<a
 * href="#cookies">¶</a></h3>` in a web framework's guide, `<h2 id="related-objects">Related
 * objects<a href="#related-objects">¶</a></h2>`). Such an id says what the text is about, so its
 * words (cookie, related, comments, login…) do not make it a consent banner, a comment area or
 * furniture. The permalink is what tells a section of a text: a cookie banner's `<div
 * id="cookies">` or a blog's `<section id="comments">` titled "Comments" has none.
 */
export function namesOwnHeading(el: DomElement): boolean {
  const id = el.attribs.id;
  if (id === undefined) return false;
  const idKey = nameKey(id);
  if (idKey.length < 3) return false;
  const head = isHeadingTag(el.name) ? el : firstChildElement(el);
  if (!head || !isHeadingTag(head.name)) return false;
  const key = nameKey(textContent(head));
  if (key.length < 3 || !idKey.endsWith(key) || idKey.length > key.length + MAX_ID_PREFIX_CHARS) return false;
  return hasPermalink(head, key);
}

/**
 * Whether an element's id is a heading's anchor, for its furniture words: one that names its own
 * heading, or a long slug of a heading (isHeadingSlug). Not for consent words: a consent plugin's
 * ids are long slugs too (`cookie-law-info-bar`).
 */
export function isSectionAnchorId(el: DomElement): boolean {
  const id = el.attribs.id;
  return id !== undefined && (isHeadingSlug(id) || namesOwnHeading(el));
}
