import type { Block } from './blocks';
import { adjacentElement, isElement, isText, type DomElement } from './dom';

/** A term longer than this is a line of its own, not the name of an item. */
const MAX_TERM_CHARS = 80;
/** Words of the description outside links that make it one (not another link, not a badge). */
const MIN_DESCRIPTION_WORDS = 2;

/** Words of an element's text that lie outside links, counted up to `enough`. */
function unlinkedWords(el: DomElement, enough: number): number {
  let n = 0;
  const visit = (e: DomElement): void => {
    for (const c of e.children) {
      if (n >= enough) return;
      if (isText(c)) n += c.data.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length;
      else if (isElement(c) && (c as DomElement).name !== 'a') visit(c as DomElement);
    }
  };
  visit(el);
  return n;
}

/**
 * A linked term of a definition list whose definition says in words what it is (a module
 * page's "Builder" → "Builds Tokio Runtime with custom configuration values.", an API index, a
 * glossary): the item's name, as much the text as its description, not a link list. The
 * description, not the link, is what tells it from a menu laid out as a <dl>.
 */
export function isTermLabel(b: Block): boolean {
  if (!isElement(b.owner) || b.text.length > MAX_TERM_CHARS) return false;
  const term = b.owner as DomElement;
  if (term.name !== 'dt') return false;
  const def = adjacentElement(term, 1, (n) => !isElement(n));
  return def !== undefined && def.name === 'dd' && unlinkedWords(def, MIN_DESCRIPTION_WORDS) >= MIN_DESCRIPTION_WORDS;
}
