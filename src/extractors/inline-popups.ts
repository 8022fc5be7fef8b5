import { adjacentElement, isElement, isText, normalizeSpace, textContent, type DomElement, type DomNode } from './dom';

/**
 * Class words of a card that pops up over a word of the text on hover (a politician's card
 * with photo and latest headlines behind the name's link): `tooltip`, `popover`, `hovercard`,
 * or a `rollover`/`hover` widget's `-block`/`-card`/`-content` part.
 */
const POPUP_RE = /(?:^|[-_\s])(?:tooltip|popover|hover-?card)(?:$|[-_\s])|(?:^|\s)(?:rollover|hover)(?:[-_][a-z]+)*[-_](?:block|card|box|content|popup)(?:$|\s)/i;

/** Whether a node holds an image or a link (looked for in the popup only, a few nodes). */
function holdsCard(n: DomNode): boolean {
  if (!isElement(n)) return false;
  const el = n as DomElement;
  return el.name === 'img' || el.name === 'a' || el.children.some(holdsCard);
}

/** White space between a link and its hover card. */
const blank = (n: DomNode): boolean => isText(n) && n.data.trim() === '';

/**
 * A hover card told by its shape, whatever its classes: right after a link, an inline element
 * holding a photo and links, one of which names the link's words again or leads where the link
 * leads (the person's card behind their name: photo, full name, latest headlines; the card may
 * spell the name out, "Kristi Lynn Noem" behind "Kristi Noem"). A sentence's own links never
 * repeat the link before them beside an image.
 */
function repeatsTrigger(el: DomElement): boolean {
  const prev = adjacentElement(el, -1, blank);
  if (prev?.name !== 'a' || !el.children.some(holdsCard)) return false;
  const name = normalizeSpace(textContent(prev));
  if (name.length < 2) return false;
  const href = prev.attribs.href;
  let image = false;
  let named = false;
  let links = 0;
  const stack: DomNode[] = [...el.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const e = n as DomElement;
    if (e.name === 'img') image = true;
    if (e.name === 'a') {
      links++;
      if (normalizeSpace(textContent(e)) === name || (href !== undefined && href.length > 1 && e.attribs.href === href)) named = true;
    } else stack.push(...e.children);
  }
  return image && named && links >= 2;
}

/**
 * An inline element that is a hover card's body: its photo, name and headlines would run into
 * the sentence around it. Not the trigger (a glossary term's link classed `glossary-tooltip`)
 * and not a tooltip of plain words (an icon's label, which may be all the page says of it).
 */
export function isInlinePopup(el: DomElement): boolean {
  if (el.name === 'a') return false;
  const cls = el.attribs.class;
  return (cls !== undefined && POPUP_RE.test(cls) && el.children.some(holdsCard)) || repeatsTrigger(el);
}
