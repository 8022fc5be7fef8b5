import type { Block } from './blocks';
import { isAncestorOf, isElement, type DomElement, type DomParent } from './dom';
import { isProse } from './second-opinion';
import { linkRatio } from './scoring';
import { keepLine, selectLines, type SelectionParams } from './selection';

/** The page's `<main>` landmark (or `role="main"`) at or above a node, if any. */
export function mainLandmark(node: DomParent): DomElement | undefined {
  for (let p: DomParent | null = node; p && isElement(p); p = p.parent) {
    const e = p as DomElement;
    if (e.name === 'main' || e.attribs.role === 'main') return e;
  }
  return undefined;
}

/** Share of the text one child holds for it to be a wrapper around the column, looked through. */
const WRAPPER_SHARE = 0.9;
/** Wrappers looked through at most. */
const MAX_WRAPPERS = 12;

/**
 * The landmark's lines grouped by the section of its column they sit in: looking through
 * wrappers (a child holding nearly all the text), the first element whose text is shared among
 * its children is the column, and each child of it a section.
 */
export function columnSections(main: DomElement, lines: Block[]): Block[][] {
  let el: DomElement = main;
  for (let depth = 0; depth <= MAX_WRAPPERS; depth++) {
    const byChild = new Map<DomParent, Block[]>();
    let total = 0;
    for (const b of lines) {
      let a: DomParent | null = b.owner;
      while (a && a.parent !== el) a = a.parent;
      if (!a) continue;
      const ls = byChild.get(a);
      if (ls) ls.push(b);
      else byChild.set(a, [b]);
      total += b.chars;
    }
    let top: DomParent | undefined;
    let topChars = 0;
    for (const [c, ls] of byChild) {
      const n = ls.reduce((s, b) => s + b.chars, 0);
      if (n > topChars) [top, topChars] = [c, n];
    }
    if (!top || topChars < WRAPPER_SHARE * total || !isElement(top)) return [...byChild.values()];
    el = top as DomElement;
  }
  return [];
}

/** Sections the segment model's content must already reach into for the column to be read as one series. */
const MIN_SPANNED_SECTIONS = 2;
/** Sections of running text a column needs before it is read as a series of them. */
const MIN_TEXT_SECTIONS = 2;

/**
 * A site's page about what it offers (a landing or service page, not one dated piece) is a
 * column of sections inside its `<main>` landmark, which holds the page's main content by its
 * definition: a hero, features, testimonials, a FAQ, a closing call to action. No single block
 * dominates, so the segment model finds one or two of them and stops. Once its content reaches
 * into two sections of the landmark's column, every section of the column that holds running
 * text is kept whole (as any content line is kept: no link lists, no furniture by class word, no
 * comments or boilerplate lines; a card's linked teaser sentence is text); sections of short
 * lines alone (a pricing grid, a logo strip, a row of product tiles) stay as the segment model
 * left them, and so does content inside one section (an article block the page frames).
 * Nothing changes when the content lies outside a landmark or reaches out of it.
 */
export function withMainLandmark(
  blocks: Block[], chosen: Block[], selection: SelectionParams, wrappers: ReadonlySet<DomElement>,
): Block[] {
  const first = chosen[0];
  if (!first) return chosen;
  const main = mainLandmark(first.owner);
  if (!main || !chosen.every((b) => isAncestorOf(main, b.owner))) return chosen;
  // The landmark's lines are one run of the page's lines (the walk is depth-first).
  let start = first.index;
  let end = first.index;
  while (start > 0 && isAncestorOf(main, blocks[start - 1]!.owner)) start--;
  while (end < blocks.length - 1 && isAncestorOf(main, blocks[end + 1]!.owner)) end++;
  const weights = new Map<DomElement, number>([...wrappers].map((el) => [el, 0]));
  // A card's teaser is a linked sentence: text of the section, where a link list is not.
  const all = selectLines(blocks, { start, end, sum: 0 }, main, true, { ...selection, maxLinkRatio: 1 }, weights, true)
    .filter((b) => linkRatio(b) <= selection.maxLinkRatio || isProse(b) || keepLine(b, main, true, selection, weights));
  const sections = columnSections(main, all);
  // Content inside one section is that section's text (an article block framed by a landing page's parts).
  const taken = new Set(chosen);
  if (sections.filter((ls) => ls.some((b) => taken.has(b))).length < MIN_SPANNED_SECTIONS) return chosen;
  const texts = sections.filter((ls) => ls.some(isProse));
  if (texts.length < MIN_TEXT_SECTIONS) return chosen;
  const added = texts.flat();
  if (added.every((b) => taken.has(b))) return chosen;
  return [...new Set([...chosen, ...added])].sort((a, b) => a.index - b.index);
}
