import { isElement, type DomElement, type DomNode } from './dom';

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

/**
 * An inline element that is a hover card's body: its photo, name and headlines would run into
 * the sentence around it. Not the trigger (a glossary term's link classed `glossary-tooltip`)
 * and not a tooltip of plain words (an icon's label, which may be all the page says of it).
 */
export function isInlinePopup(el: DomElement): boolean {
  const cls = el.attribs.class;
  return cls !== undefined && el.name !== 'a' && POPUP_RE.test(cls) && el.children.some(holdsCard);
}
