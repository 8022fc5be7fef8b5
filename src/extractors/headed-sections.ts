import { isElement, type DomElement } from './dom';
import { firstChildElement, isHeadingTag } from './section-ids';

/** The heading an element opens with, when its first child is one that links nowhere (a section's title, not a teaser's linked headline). */
function openingHeading(el: DomElement): DomElement | undefined {
  const head = firstChildElement(el);
  if (!head || !isHeadingTag(head.name)) return undefined;
  const linked = (e: DomElement): boolean => e.children.some((c) => isElement(c) && (((c as DomElement).name === 'a' && !(c as DomElement).attribs.href?.startsWith('#')) || linked(c as DomElement)));
  return linked(head) ? undefined : head;
}

/**
 * The siblings of a plain element (no class: a hand-written page's `<div>` per part) that, like it,
 * open with a heading of one level: the sections of one page (a course page's "Course details",
 * "Announcements", "Assignments", "Lectures", each a <div> under an <h4>, with <hr>s between).
 * The template gives them no class word to match them by, so their headings do. Empty when the
 * element opens with no heading of its own.
 */
export function headedSiblings(el: DomElement): DomElement[] {
  const parent = el.parent;
  const head = openingHeading(el);
  if (!parent || !head) return [];
  return parent.children.filter((c): c is DomElement => {
    if (c === el || !isElement(c)) return false;
    const e = c as DomElement;
    return e.name === el.name && e.attribs.class === undefined && openingHeading(e)?.name === head.name;
  });
}
