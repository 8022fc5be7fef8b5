import { isBoilerplate, type Block } from './blocks';
import { adjacentElement, isAncestorOf, isElement, type DomElement, type DomParent } from './dom';
import { isProse } from './second-opinion';
import { linkRatio } from './scoring';

/** A line of the introduction is text, not a button row or a menu. */
const MAX_LINK_RATIO = 0.5;

/** The child of `ancestor` that holds `node`, or undefined when `node` is not under it. */
function childUnder(ancestor: DomParent, node: DomParent): DomParent | undefined {
  for (let el: DomParent | null = node; el; el = el.parent) if (el.parent === ancestor) return el;
  return undefined;
}

/**
 * A home or service page spread over sibling sections: the first section states what the site
 * is (the page's one <h1>, a slogan rather than the title, and a paragraph under it), the next
 * ones hold the longer parts scoring picks. A reader takes the introduction with the rest; the
 * segment model sees a short block cut off by a row of buttons and a slider. Taken only when
 * the content holds no <h1> of its own, the page has exactly one, it is not the title's
 * headline (an article's headline stays the title field), it sits in the section right before
 * the one the content starts in, and that section holds running text.
 */
export function withIntroSection(blocks: Block[], chosen: Block[], headline: Block | undefined): Block[] {
  const firstLine = chosen[0];
  if (!firstLine || chosen.some((b) => b.heading === 1)) return chosen;
  const h1s = blocks.filter((b) => b.heading === 1);
  const h1 = h1s[0];
  if (h1s.length !== 1 || !h1 || h1 === headline || h1.index >= firstLine.index) return chosen;
  // The section that holds the content's first line, and the one right before it holding the <h1>.
  let contentSection: DomParent | undefined;
  for (let el: DomParent | null = firstLine.owner; el && el.parent; el = el.parent) {
    if (isAncestorOf(el.parent, h1.owner)) {
      contentSection = el;
      break;
    }
  }
  const parent = contentSection?.parent;
  if (!contentSection || !parent || !isElement(parent) || parent.name === 'body' || parent.name === 'html') return chosen;
  const intro = childUnder(parent, h1.owner);
  if (!intro || adjacentElement(contentSection as DomElement, -1, (n) => !isElement(n)) !== intro) return chosen;
  const taken = new Set(chosen);
  const lines = blocks.filter((b) => !taken.has(b) && b.index < firstLine.index && isAncestorOf(intro, b.owner)
    && b.classScore >= 0 && !b.furniture && !b.inComments && (b.heading > 0 || (linkRatio(b) <= MAX_LINK_RATIO && !isBoilerplate(b))));
  if (!lines.some(isProse)) return chosen;
  return [...lines, ...chosen];
}
