import { nameOf } from './person-names';
import { isElement, isText, normalizeSpace, type DomElement, type DomNode } from './dom';

/** An alt text that may be a name: two to four capitalised words (name particles between), a role after a comma. */
export const PORTRAIT_ALT_RE = /^\p{Lu}[\p{L}.'’-]*(?:\s+(?:\p{Lu}[\p{L}.'’-]*|van|von|de|der|del|la|le|da|di|du|bin|al)){1,3}(?:\s*,.*)?$/u;

/** What an alt text says after the name it shows: "Elliot Raba Image", "Ana Ruiz headshot". */
const PORTRAIT_WORD_RE = /\s+(?:image|photo|picture|headshot|avatar|portrait|profile(?: (?:photo|picture))?)$/i;
/** How many nodes around a portrait are looked through for its name, and how far up. */
const CARD_NODES = 300;
const CARD_LEVELS = 4;

/**
 * The name of an author card: a portrait whose alt text is a name the card also shows as a line
 * of its own ("<img alt='Ana Ruiz'> … <p>Ana Ruiz</p>"). Cards far from the headline carry no
 * author class (a writer's box at the foot, a side column); the picture and the name beside it
 * are what make them one, and the name's repeat keeps out product shots and logos.
 */
export function portraitName(imgs: DomElement[]): string | undefined {
  for (const img of imgs) {
    const alt = normalizeSpace(img.attribs.alt ?? '').replace(/\s*,.*$/, '').replace(PORTRAIT_WORD_RE, '');
    const name = nameOf(alt, false);
    if (!name || name !== alt || !/\s/.test(name) || !portraitMarked(img)) continue;
    let card: DomNode = img;
    for (let level = 0; level < CARD_LEVELS && card.parent && isElement(card.parent); level++) {
      card = card.parent;
      if (showsLine(card as DomElement, name)) return name;
    }
  }
  return undefined;
}

/** Class words of a portrait or the card around it: an author box, an avatar, a round crop. */
const PORTRAIT_CLASS_RE = /author|avatar|headshot|byline|writer|rounded-full|circle|\bbio\b/i;
const PORTRAIT_MARK_LEVELS = 5;

/**
 * Whether the markup says the image is a person's portrait: its class or that of an element
 * around it names an author box, an avatar or a round crop. Product shots and logos repeat their
 * alt text beside them as well, and a file named for the person is no sign (a product's is too).
 */
function portraitMarked(img: DomElement): boolean {
  let el: DomNode | null = img;
  for (let level = 0; el && isElement(el) && level <= PORTRAIT_MARK_LEVELS; el = el.parent, level++) {
    if (PORTRAIT_CLASS_RE.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`)) return true;
  }
  return false;
}

/** Whether a text node under the element (among its first CARD_NODES nodes) reads exactly the name. */
function showsLine(el: DomElement, name: string): boolean {
  const stack: DomNode[] = [el];
  for (let seen = 0; stack.length && seen < CARD_NODES; seen++) {
    const n = stack.pop()!;
    if (isText(n)) {
      if (n.data.length < 2 * name.length && normalizeSpace(n.data) === name) return true;
    } else if (isElement(n) && n.name !== 'script' && n.name !== 'style') {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return false;
}
