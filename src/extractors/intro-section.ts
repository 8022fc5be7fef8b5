import { isBoilerplate, type Block } from './blocks';
import { isAncestorOf, isElement, type DomElement, type DomParent } from './dom';
import { isProse } from './second-opinion';
import { linkRatio } from './scoring';

/** A line of the introduction is text, not a button row or a menu. */
const MAX_LINK_RATIO = 0.5;
/** Sections that may stand between the introduction and the content (a logo bar, a row of buttons). */
const MAX_BETWEEN_SECTIONS = 2;
/** Words of a tagline under the <h1> ("Leverage the power of data analytics for business-changing insights"): a button says less. */
const MIN_TAGLINE_WORDS = 8;
/** Page regions that are never a page's introduction, whatever <h1> they hold. */
const NO_INTRO_TAGS = new Set(['nav', 'aside', 'footer']);

/** The child of `ancestor` that holds `node`, or undefined when `node` is not under it. */
function childUnder(ancestor: DomParent, node: DomParent): DomParent | undefined {
  for (let el: DomParent | null = node; el; el = el.parent) if (el.parent === ancestor) return el;
  return undefined;
}

/**
 * Whether a line of the introduction is furniture by its class words: a word above it that does
 * not also hold the <h1>. A hero band the template calls `banner` or `promo` around the page's
 * one <h1> is the page's opening, not an advert (layout.ts reads such words by what they hold
 * too), and its own text is too: running text (or the tagline) in a part of it named after it
 * (`hero-banner__wrapper`). Its buttons and share bars stay furniture.
 */
function underFurniture(b: Block, h1: Block, text: boolean): boolean {
  let below = false;
  let hero = false;
  for (let m = b.furniture; m; m = m.up) {
    if (m.weight >= 0 && !m.hidden) continue;
    if (isAncestorOf(m.el, h1.owner)) hero = true;
    else below = true;
  }
  return below && !(hero && text);
}

/** The line right under the <h1> saying what the page offers, set as a heading or a line of its own: no link, several words. */
function isTagline(b: Block): boolean {
  return b.linkChars === 0 && b.text.split(/\s+/).length >= MIN_TAGLINE_WORDS;
}

/**
 * The sibling sections between the introduction and the content's section, when they are no
 * more than a few and hold no running text (a logo bar, a row of buttons); undefined when the
 * introduction is not one of the sections before the content's.
 */
function sectionsBetween(intro: DomParent, contentSection: DomParent): DomParent[] | undefined {
  const sibs = (contentSection.parent?.children ?? []).filter(isElement);
  const from = sibs.indexOf(intro as DomElement);
  const to = sibs.indexOf(contentSection as DomElement);
  if (from < 0 || to <= from || to - from - 1 > MAX_BETWEEN_SECTIONS) return undefined;
  return sibs.slice(from + 1, to);
}

/**
 * A home or service page spread over sibling sections: the first section states what the site
 * is (the page's one <h1> and a paragraph under it), the next ones hold the longer parts scoring
 * picks. A reader takes the introduction with the rest; the segment model sees a short block cut
 * off by a row of buttons and a slider. Taken only when the content holds no <h1> of its own, the
 * page has exactly one, it sits in a section before the one the content starts in (at most a
 * few sections without running text between them: a logo bar), and that section holds running
 * text or a tagline. The <h1> is no `headline` (the caller passes the headline of a page that
 * is one piece, a story or a product, whose header section is no part of its body; a service
 * page's <h1> names it as its title does, and its hero is its opening). The headline line itself
 * stays the title field's: text-density.ts leaves it out or keeps it as for any page.
 */
export function withIntroSection(blocks: Block[], chosen: Block[], headline: Block | undefined): Block[] {
  const firstLine = chosen[0];
  if (!firstLine || chosen.some((b) => b.heading === 1)) return chosen;
  const h1s = blocks.filter((b) => b.heading === 1);
  const h1 = h1s[0];
  if (h1s.length !== 1 || !h1 || h1 === headline || h1.index >= firstLine.index) return chosen;
  // The section that holds the content's first line, and the one before it holding the <h1>.
  let contentSection: DomParent | undefined;
  for (let el: DomParent | null = firstLine.owner; el && el.parent; el = el.parent) {
    if (isAncestorOf(el.parent, h1.owner)) {
      contentSection = el;
      break;
    }
  }
  const parent = contentSection?.parent;
  if (!contentSection || !parent || !isElement(parent) || parent.name === 'html') return chosen;
  const intro = childUnder(parent, h1.owner);
  if (!intro || (isElement(intro) && NO_INTRO_TAGS.has(intro.name))) return chosen;
  const between = sectionsBetween(intro, contentSection);
  if (!between) return chosen;
  const betweenProse = blocks.some((b) => b.index > h1.index && b.index < firstLine.index && isProse(b) && between.some((s) => isAncestorOf(s, b.owner)));
  if (betweenProse) return chosen;
  const taken = new Set(chosen);
  const tagline = blocks[h1.index + 1];
  const text = (b: Block): boolean => isProse(b) || (b === tagline && isTagline(b));
  const lines = blocks.filter((b) => !taken.has(b) && b.index < firstLine.index && isAncestorOf(intro, b.owner)
    && !underFurniture(b, h1, text(b)) && !b.inComments && linkRatio(b) <= MAX_LINK_RATIO && (b.heading > 0 || !isBoilerplate(b)));
  if (!lines.some(text)) return chosen;
  return [...lines, ...chosen];
}
