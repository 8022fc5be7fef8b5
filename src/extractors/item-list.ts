import { isBoilerplate, type Block } from './blocks';
import { isProse } from './second-opinion';
import type { DomElement, DomParent } from './dom';
import { keepLine, type SelectionParams } from './selection';

/** Share of the item list's characters the chosen lines must hold for the list to count as read. */
const MIN_READ_SHARE = 0.5;

/** Characters of chosen text at most above a list for that text to be the list's intro. */
const MAX_INTRO_CHARS = 1200;

/**
 * Whether the chosen text above the list is its intro: it lies between the page's headline and
 * the list and is shorter than the list (a category's blurb under its title, then its grid). An
 * article's text above its more-stories grid is longer, or does not follow the headline.
 */
function introAbove(chosen: Block[], firstItem: number, listSize: number, headline: Block | undefined): boolean {
  if (!headline || headline.index >= firstItem) return false;
  let intro = 0;
  let aboveHeadline = 0;
  for (const b of chosen) {
    // A Han character says as much as a short word: a Chinese story of 500 characters is no intro.
    const size = b.chars + 3 * b.cjkChars;
    if (b.index < headline.index) aboveHeadline += size;
    else if (b.index < firstItem) intro += size;
  }
  return intro > aboveHeadline && intro <= Math.min(listSize, MAX_INTRO_CHARS);
}

/**
 * A page made of repeated items (items.ts) whose chosen lines leave the list out: a shop's
 * category page whose product grid of names and prices sits beside a long block of buying advice
 * or a category blurb below it, which wins on density. The grid is what the page lists, so its lines are
 * read too (each kept or left as inside any content container: link lists and furniture stay out).
 */
export function withItemList(
  blocks: Block[], chosen: Block[], items: ReadonlyMap<Block, DomParent> | undefined, selection: SelectionParams, headline?: Block,
): Block[] {
  if (!items || items.size === 0) return chosen;
  const kept = new Set(chosen);
  let listChars = 0;
  let listSize = 0;
  let readChars = 0;
  let firstItem = Infinity;
  for (const b of items.keys()) {
    listChars += b.chars;
    listSize += b.chars + 3 * b.cjkChars;
    if (kept.has(b)) readChars += b.chars;
    firstItem = Math.min(firstItem, b.index);
  }
  // A list the chosen lines mostly read is the content: its items they did not reach (a row of
  // featured cards above the grid, the last cards after a break) are read too. Else the grid comes
  // first and the blurb under it; a grid after the chosen text is the more stories under an
  // article, which the line model rightly left out.
  const read = readChars >= MIN_READ_SHARE * listChars;
  if (!read && chosen.length > 0 && firstItem > chosen[0]!.index && !introAbove(chosen, firstItem, listSize, headline)) return chosen;
  const weights = new Map<DomElement, number>();
  const add = [...items].filter(([b, item]) => !kept.has(b) && item.parent !== null && keepLine(b, item.parent, true, selection, weights, items)).map(([b]) => b);
  if (add.length === 0) return chosen;
  return [...chosen, ...add].sort((a, b) => a.index - b.index);
}

/**
 * A listing read as its items, with the intro its template sets right above them: a category's
 * blurb ("Our collection of tomato sauce recipes has something for…") sits in its own box beside
 * the grid's, so the items' container leaves it out. The sentences between the headline (or the
 * last chosen line above the list) and the first item are read, up to an intro's length; a
 * line that is mostly link (a menu, a filter) ends the intro.
 */
export function withListIntro(
  blocks: Block[], chosen: Block[], items: ReadonlyMap<Block, DomParent> | undefined, headline: Block | undefined,
): Block[] {
  if (!items || items.size === 0 || !headline) return chosen;
  const kept = new Set(chosen);
  let firstItem = Infinity;
  for (const b of items.keys()) if (kept.has(b)) firstItem = Math.min(firstItem, b.index);
  if (firstItem === Infinity || headline.index >= firstItem) return chosen;
  const intro: Block[] = [];
  let size = 0;
  for (let i = firstItem - 1; i > headline.index && !kept.has(blocks[i]!); i--) {
    const b = blocks[i]!;
    if (b.linkChars > 0.5 * b.chars) break;
    if (!isProse(b) || isBoilerplate(b)) continue;
    size += b.chars + 3 * b.cjkChars;
    if (size > MAX_INTRO_CHARS) break;
    intro.push(b);
  }
  return intro.length ? [...chosen, ...intro].sort((a, b) => a.index - b.index) : chosen;
}
