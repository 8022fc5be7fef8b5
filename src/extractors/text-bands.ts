import { isElement, isText, type DomElement, type DomNode, type DomParent } from './dom';

/**
 * Class words of a page's marketing bands: a hero or call-to-action banner, a promo box. On an
 * article they hold an advert or a sign-up prompt; on a service or landing page the template
 * styles whole sections of the text so (an introduction in a hero banner, a section in a
 * call-to-action box between two others).
 */
const BAND_WORD_RE = /banner|promo/i;

/** Characters of unlinked running text in one paragraph: more than an advert, a notice or a prompt says. */
const MIN_PARAGRAPH_CHARS = 150;

const SENTENCE_RE = /\p{L}{2}[.!?。！？]/u;

/** Characters of text the content container holds before the band: a section of it, not its header. */
const MIN_TEXT_BEFORE_CHARS = 100;

/**
 * A band the template names furniture (`banner`, `promo`) that holds a paragraph of running text
 * of its own and follows text of the content container: a section of the page's text, not a
 * banner (a call-to-action box between two sections that carries the second's words). A hero
 * banner heading the container is left to the class word: truths differ on a page's hero. Asked
 * only of elements between a content line and its container.
 */
export function isTextBand(el: DomElement, container: DomParent): boolean {
  const words = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  if (!BAND_WORD_RE.test(words) || !textBefore(el, container)) return false;
  const stack: DomNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const e = n as DomElement;
    if (e.name === 'p' && proseChars(e) >= MIN_PARAGRAPH_CHARS) return true;
    for (const c of e.children) stack.push(c);
  }
  return false;
}

/** Non-space characters of a paragraph's unlinked text, 0 when it holds no sentence. */
function proseChars(p: DomElement): number {
  let text = '';
  const visit = (e: DomElement): void => {
    for (const c of e.children) {
      if (isText(c)) text += c.data;
      else if (isElement(c) && (c as DomElement).name !== 'a') visit(c as DomElement);
    }
  };
  visit(p);
  return SENTENCE_RE.test(text) ? text.replace(/\s+/g, '').length : 0;
}

/** Whether the container holds text before the element (in document order). */
function textBefore(el: DomElement, container: DomParent): boolean {
  let chars = 0;
  for (let n: DomParent = el; n !== container && n.parent; n = n.parent) {
    const sibs = n.parent.children;
    // Walked back from the element, and stopped as soon as there is enough: a page's earlier sections can be long.
    const stack: DomNode[] = sibs.slice(0, sibs.indexOf(n));
    while (stack.length) {
      const s = stack.pop()!;
      if (isText(s)) chars += s.data.replace(/\s+/g, '').length;
      else if (isElement(s)) for (const c of (s as DomElement).children) stack.push(c);
      if (chars >= MIN_TEXT_BEFORE_CHARS) return true;
    }
  }
  return false;
}
