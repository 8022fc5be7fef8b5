import type { Block } from './blocks';
import type { DomElement, DomParent } from './dom';
import { keepLine, type SelectionParams } from './selection';

/** Share of the item list's characters the chosen lines must hold for the list to count as read. */
const MIN_READ_SHARE = 0.5;

/**
 * A page made of repeated items (items.ts) whose chosen lines leave the list out: a shop's
 * category page whose product grid of names and prices sits beside a long block of buying advice
 * or a category blurb below it, which wins on density. The grid is what the page lists, so its lines are
 * read too (each kept or left as inside any content container: link lists and furniture stay out).
 */
export function withItemList(
  blocks: Block[], chosen: Block[], items: ReadonlyMap<Block, DomParent> | undefined, selection: SelectionParams,
): Block[] {
  if (!items || items.size === 0) return chosen;
  const kept = new Set(chosen);
  let listChars = 0;
  let readChars = 0;
  let firstItem = Infinity;
  for (const b of items.keys()) {
    listChars += b.chars;
    if (kept.has(b)) readChars += b.chars;
    firstItem = Math.min(firstItem, b.index);
  }
  // A list the chosen lines mostly read is the content: its items they did not reach (a row of
  // featured cards above the grid, the last cards after a break) are read too. Else the grid comes
  // first and the blurb under it; a grid after the chosen text is the more stories under an
  // article, which the line model rightly left out.
  const read = readChars >= MIN_READ_SHARE * listChars;
  if (!read && chosen.length > 0 && firstItem > chosen[0]!.index) return chosen;
  const weights = new Map<DomElement, number>();
  const add = [...items].filter(([b, item]) => !kept.has(b) && item.parent !== null && keepLine(b, item.parent, true, selection, weights, items)).map(([b]) => b);
  if (add.length === 0) return chosen;
  return [...chosen, ...add].sort((a, b) => a.index - b.index);
}
