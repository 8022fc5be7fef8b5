import type { Block } from './blocks';
import { isAncestorOf } from './dom';
import { linkRatio } from './scoring';

/** Links a box must hold under its heading to be a link list (a table of contents, a "Related" box). */
const MIN_LIST_LINKS = 2;

/**
 * The content without the titles of link lists: a heading ("Table of contents", "In this
 * article", "Related guides") whose own box holds nothing else but links, which the line
 * selection left out as navigation. Kept alone, the heading would title nothing. Not on
 * listings (items), whose link lists under their headings are the page's own sections.
 */
export function dropListTitles(blocks: Block[], chosen: Block[], listing: boolean): Block[] {
  if (listing || chosen.length < 2) return chosen;
  const kept = new Set(chosen);
  let dropped: Set<Block> | undefined;
  for (const h of chosen) {
    // A linked heading is a card's title or a link of the list itself, not the list's title.
    if (h.heading === 0 || linkRatio(h) > 0.5) continue;
    const box = h.owner.parent;
    if (!box || box.type === 'root') continue;
    let links = 0;
    let other = false;
    for (const step of [-1, 1]) {
      for (let i = h.index + step; i >= 0 && i < blocks.length; i += step) {
        const b = blocks[i]!;
        if (!isAncestorOf(box, b.owner)) break;
        if (kept.has(b) || linkRatio(b) <= 0.5) {
          other = true;
          break;
        }
        links++;
      }
      if (other) break;
    }
    if (!other && links >= MIN_LIST_LINKS) (dropped ??= new Set()).add(h);
  }
  return dropped ? chosen.filter((b) => !dropped!.has(b)) : chosen;
}
